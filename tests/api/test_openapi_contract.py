"""Schemathesis fuzzes every documented operation of the running API, signed in with a
token of each role in turn (a miner's reads go through the ownership checks, a reviewer's
decisions reach runs, an admin's edits reach memory): no answer may be a 5xx, and every
documented answer must match its schema."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from api.auth import ROLES
from kminer.config import Settings
from kminer.stack import Stack, embedded_stack

SCHEMATHESIS = Path(sys.executable).parent / "st"
# The event stream holds its connection until the run ends; its contract is tested in
# tests/api/test_events.py against real runs instead.
STREAMING = "/api/runs/{run_id}/events"


@pytest.fixture
async def own_stack(settings: Settings) -> AsyncIterator[Stack]:
    """A stack with its own dev server: the shared one holds other tests' runs, whose
    workers are gone, and a query to such a run is rightly a 503."""
    async with embedded_stack(replace(settings, temporal_address=None)) as running:
        yield running


async def test_no_operation_answers_5xx_or_off_schema_for_any_role(
    own_stack: Stack, bearer: Any, tmp_path: Path
) -> None:
    failed = {}
    for role in ROLES:
        token = bearer(role, f"schemathesis-{role}")["Authorization"]
        code, report = await _schemathesis(own_stack, token, tmp_path / role)
        if code != 0:
            failed[role] = readable(report)
    assert not failed, "\n\n".join(f"as {role}:\n{report}" for role, report in failed.items())


async def _schemathesis(stack: Stack, authorization: str, reports: Path) -> tuple[int, str]:
    reports.mkdir()
    proc = await asyncio.create_subprocess_exec(
        str(SCHEMATHESIS),
        "run",
        f"{stack.api_url}/openapi.json",
        "--header",
        f"Authorization: {authorization}",
        "--checks",
        "not_a_server_error,response_schema_conformance,content_type_conformance",
        "--exclude-path",
        STREAMING,
        "--phases",
        "examples,coverage,fuzzing",
        "--max-examples",
        "25",
        "--seed",
        "20261123",
        "--request-timeout",
        "30",
        "--report",
        "junit",
        "--report-dir",
        str(reports),
        "--no-color",
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        stdin=asyncio.subprocess.DEVNULL,
    )
    output, _ = await asyncio.wait_for(proc.communicate(), 900)
    text = output.decode(errors="replace")
    (reports / "schemathesis.txt").write_text(text)
    assert proc.returncode is not None
    return proc.returncode, text


def readable(report: str) -> str:
    """The report's failures with fuzzed values cut short (they can be megabytes long)."""
    start = report.find("FAILURES")
    lines = report[start if start >= 0 else 0 :].splitlines()
    return "\n".join(line if len(line) < 300 else line[:300] + " …" for line in lines)[-12000:]
