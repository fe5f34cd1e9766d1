"""`kminer up` brings the three parts up together and takes them down together."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from temporalio.client import Client, WorkflowFailureError

from kminer.config import Settings
from kminer.devserver import free_port
from kminer.worker import connect
from tests.support.healthz import wait_until_healthy
from tests.support.hostile_sparql import alive, evaluators_of


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_up_serves_healthz_and_leaves_nothing_behind_on_sigterm(tmp_path: Path) -> None:
    port = free_port()
    data = tmp_path / "data"
    env = {k: v for k, v in os.environ.items() if k not in ("TEMPORAL_ADDRESS", "OPENAI_API_KEY")}
    printed = tmp_path / "up.out"
    out = printed.open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "kminer.cli", "up", "--port", str(port), "--data-dir", str(data)],
        env=env,
        stdout=out,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 90
        healthy = None
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                healthy = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
                if healthy.status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.3)
        assert healthy is not None and healthy.status_code == 200
        stack = json.loads((data / "stack.json").read_text())
        assert stack["pid"] == proc.pid and stack["temporal"].startswith("127.0.0.1:")
        temporal_pid = stack["temporalPid"]
        assert _alive(temporal_pid)
        link = f"chat UI   http://127.0.0.1:{port}/#token=ey"
        while time.monotonic() < deadline and link not in printed.read_text():
            time.sleep(0.1)
        assert link in printed.read_text(), "up prints the chat UI's sign-in link"
        evaluators = evaluators_of(proc.pid)
        assert len(evaluators) == 1, "warming up starts a SPARQL evaluator"
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        out.close()
    assert proc.returncode == 0
    assert not (data / "stack.json").exists()
    assert not _alive(temporal_pid), "the dev server must stop with the stack"
    assert not any(alive(pid) for pid in evaluators), "the SPARQL evaluators must stop too"
    assert (data / "temporal.db").exists(), "runs persist in the data dir"


async def test_a_run_started_with_a_bad_tag_fails_with_a_clear_message(
    settings: Settings,
) -> None:
    # What someone with the Temporal CLI could start: a raw JSON input, unchecked.
    client: Client = await connect(settings, settings.temporal_address or "")
    from kminer.stack import embedded_stack

    async with embedded_stack(settings, with_api=False):
        handle = await client.start_workflow(
            "MiningWorkflow",
            {"query": "lithium", "domainTags": ["bad tag!"]},
            id=f"bad-{os.getpid()}-{time.time_ns()}",
            task_queue=settings.task_queue,
        )
        try:
            await handle.result()
            raise AssertionError("the run should fail")
        except WorkflowFailureError as failure:
            message = str(failure.cause)
    assert "invalid mining request" in message and "invalid domain tag 'bad tag!'" in message


def test_up_on_a_busy_port_exits_2_with_one_line(tmp_path: Path) -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "kminer.cli",
                "up",
                "--port",
                str(port),
                "--data-dir",
                str(tmp_path / "data"),
            ],
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"kminer: port {port} on 127.0.0.1 is in use; pass --port with a free one"
    )


def _started_mine(data: Path) -> tuple[subprocess.Popen, int]:
    """A `kminer mine` that brings its own stack up and waits in REVIEW."""
    data.mkdir(parents=True, exist_ok=True)
    errors = tempfile.TemporaryFile("w+")  # noqa: SIM115 (read back if mine fails)
    env = {k: v for k, v in os.environ.items() if k not in ("TEMPORAL_ADDRESS", "OPENAI_API_KEY")}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kminer.cli",
            "mine",
            "lithium suppliers",
            "--tag",
            "supply_chain",
            "--data-dir",
            str(data),
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=errors,
        stdin=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and not (data / "stack.json").exists():
        if proc.poll() is not None:
            errors.seek(0)
            raise AssertionError(f"mine exited early ({proc.returncode}): {errors.read()[-3000:]}")
        time.sleep(0.2)
    return proc, json.loads((data / "stack.json").read_text())["temporalPid"]


def _gone(pid: int, within: float = 15.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        time.sleep(0.2)
    return False


def test_sigterm_to_mine_stops_the_stack_it_started(tmp_path: Path) -> None:
    proc, temporal_pid = _started_mine(tmp_path / "data")
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 143
    assert _gone(temporal_pid)
    assert not (tmp_path / "data" / "stack.json").exists()


def test_even_a_killed_mine_takes_its_dev_server_down(tmp_path: Path) -> None:
    proc, temporal_pid = _started_mine(tmp_path / "data")
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert _gone(temporal_pid), "the dev server must not outlive its parent"


def _started_up(data: Path) -> tuple[subprocess.Popen, int]:
    """A `kminer up` that answers /healthz; returns it and its dev server's PID."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("TEMPORAL_ADDRESS", "OPENAI_API_KEY")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "kminer.cli", "up", "--port", str(port), "--data-dir", str(data)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
    )
    assert wait_until_healthy(proc, port, 90), f"up never answered /healthz ({proc.poll()})"
    return proc, json.loads((data / "stack.json").read_text())["temporalPid"]


def test_an_up_that_crashes_or_is_killed_leaves_no_dev_server_behind(tmp_path: Path) -> None:
    # SIGSEGV is how a stack overflow in a parser ends the process; SIGKILL is the OOM killer.
    for number, sig in enumerate((signal.SIGSEGV, signal.SIGKILL)):
        proc, temporal_pid = _started_up(tmp_path / f"data{number}")
        assert _alive(temporal_pid)
        evaluators = evaluators_of(proc.pid)
        assert evaluators, "warming up starts a SPARQL evaluator"
        proc.send_signal(sig)
        assert proc.wait(timeout=10) == -sig
        assert _gone(temporal_pid), f"the dev server outlived an up ended by {sig.name}"
        # An idle evaluator sees the end of its input when its parent is gone.
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in evaluators) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(alive(pid) for pid in evaluators), f"an evaluator outlived {sig.name}"
