"""Every `kminer` command exits with its real status, every time (no teardown abort)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from kminer.devserver import free_port
from tests.support.healthz import wait_until_healthy

CONSOLE = Path(sys.executable).parent / "kminer"
RUNS = 50


def env() -> dict[str, str]:
    drop = ("TEMPORAL_ADDRESS", "OPENAI_API_KEY", "TAVILY_API_KEY", "DATABASE_URL")
    return {k: v for k, v in os.environ.items() if k not in drop}


@pytest.fixture
def running_stack(tmp_path: Path) -> Iterator[Path]:
    """A `kminer up` on its own data dir, stopped by its PID at the end."""
    port, data = free_port(), tmp_path / "data"
    proc = subprocess.Popen(
        [str(CONSOLE), "up", "--port", str(port), "--data-dir", str(data)],
        env=env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
    )
    try:
        if not wait_until_healthy(proc, port, 120):
            pytest.fail("kminer up did not become healthy")
        yield data
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)


def test_mine_json_exits_0_every_time_against_one_stack(running_stack: Path) -> None:
    question = "Which suppliers of lithium carry geopolitical risk?"
    for attempt in range(RUNS):
        done = subprocess.run(
            [str(CONSOLE), "mine", question, "--tag", "supply_chain", "--auto-approve",
             "--json", "--data-dir", str(running_stack)],
            env=env(), capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        assert done.returncode == 0, (attempt, done.returncode, done.stderr[-2000:])
        assert "Fatal Python error" not in done.stderr
        assert json.loads(done.stdout)["phase"] == "COMPLETED"


def test_help_and_usage_errors_keep_their_status() -> None:
    assert subprocess.run([str(CONSOLE), "--help"], capture_output=True).returncode == 0
    bad = subprocess.run([str(CONSOLE), "nope"], capture_output=True, text=True)
    assert bad.returncode == 2 and "invalid choice" in bad.stderr
