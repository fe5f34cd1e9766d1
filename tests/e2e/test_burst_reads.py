"""A burst of runs started at once on one `kminer up`, read as a UI would while they run
and after: every run answers from its own query, and the worker logs no nondeterminism
(issue 24: 7 of 140 runs of such bursts became unreadable, "[TMPRL1100] Non-deprecated
patch marker")."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.auth import TokenIssuer, load_secret
from kminer.devserver import free_port
from temporal_client.runs import POLL_SECONDS
from tests.support.healthz import wait_until_healthy
from tests.support.runs import QUESTION

RUNS = 50
BURST_SECONDS = 900  # 50 runs on a 2-core machine take 2 to 6 minutes
TERMINAL = {"COMPLETED", "FAILED", "CANCELED"}


@pytest.fixture
def up(tmp_path: Path) -> Iterator[tuple[str, Path, Path]]:
    """A `kminer up` on its own data dir and port, its output (the worker's log) in a file;
    stopped by its PID at the end. Yields (API URL, data dir, log)."""
    port, data, log = free_port(), tmp_path / "data", tmp_path / "up.log"
    drop = ("TEMPORAL_ADDRESS", "OPENAI_API_KEY", "TAVILY_API_KEY", "DATABASE_URL")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["KM_RUNS_PER_MINUTE"] = str(2 * RUNS)  # one principal starts the whole burst
    command = [sys.executable, "-m", "kminer.cli", "up", "--port", str(port)]
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [*command, "--data-dir", str(data)],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
        try:
            if not wait_until_healthy(proc, port, 120):
                pytest.fail(f"kminer up did not become healthy: {log.read_text()[-2000:]}")
            yield f"http://127.0.0.1:{port}", data, log
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=60)


async def _follow(http: httpx.AsyncClient, run_id: str, deadline: float) -> dict[str, Any]:
    """Read the run as often as `kminer mine` and the event stream do until it ends; its
    last workspace."""
    while True:
        read = await http.get(f"/api/runs/{run_id}")
        if read.status_code == 200 and read.json()["phase"] in TERMINAL:
            return read.json()
        assert time.monotonic() < deadline, f"{run_id} still {read.status_code} {read.text[:200]}"
        await asyncio.sleep(POLL_SECONDS)


async def test_every_run_of_a_burst_stays_readable(up: tuple[str, Path, Path]) -> None:
    url, data, log = up
    token = TokenIssuer(load_secret(data)).mint("burst", "miner")
    headers = {"Authorization": f"Bearer {token}"}
    body = {"query": QUESTION, "domainTags": ["supply_chain"], "review": "auto"}
    async with httpx.AsyncClient(base_url=url, headers=headers, timeout=60) as http:
        starts = await asyncio.gather(*[http.post("/api/runs", json=body) for _ in range(RUNS)])
        assert [s.status_code for s in starts] == [202] * RUNS, starts[0].text
        ids = [s.json()["runId"] for s in starts]
        deadline = time.monotonic() + BURST_SECONDS
        await asyncio.gather(*[_follow(http, run_id, deadline) for run_id in ids])
        # Read again once all have ended: each answer is the run's own query, replayed.
        reads = [await http.get(f"/api/runs/{run_id}") for run_id in ids]
    unreadable = [(r.status_code, r.text[:200]) for r in reads if r.status_code != 200]
    assert unreadable == []
    workspaces = [r.json() for r in reads]
    assert {ws["phase"] for ws in workspaces} == {"COMPLETED"}
    rebuilt = [ws["runId"] for ws in workspaces if any("rebuilt" in e for e in ws["errors"])]
    assert rebuilt == [], "every run's query answered; none was read from its result"
    worker_log = log.read_text(errors="replace")
    assert worker_log.count("TMPRL1100") == 0, "no nondeterminism error in the worker's log"
