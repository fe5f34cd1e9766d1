"""`kminer up` heals (issue 24, item 5): its dev server killed mid-run is restarted and the
run completes; a worker that stopped is built and started again; it starts again at once
after SIGKILL and after SIGTERM, on the same port; it leaves no defunct child; SIGTERM
stops it within seconds."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from temporalio import activity
from temporalio.client import Client
from temporalio.worker import Worker

from api.auth import TokenIssuer, load_secret
from kminer.config import Settings
from kminer.devserver import LOOPBACK, free_port, port_is_free
from kminer.supervisor import Supervision, WorkerChild
from tests.support.healthz import wait_until_healthy
from tests.support.runs import QUESTION

RESTARTS = 10
SIGTERM_STOP_SECONDS = 15


def _up(data: Path, port: int, log: Path) -> subprocess.Popen:
    drop = ("TEMPORAL_ADDRESS", "OPENAI_API_KEY", "TAVILY_API_KEY", "DATABASE_URL")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "kminer.cli", "up", "--port", str(port), "--data-dir", data],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)


def _defunct_children(pid: int) -> list[int]:
    """Children of `pid` that ended and were never reaped (Linux /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            state, ppid = stat.read_text().rsplit(")", 1)[1].split()[:2]
        except (OSError, IndexError):
            continue
        if int(ppid) == pid and state == "Z":
            found.append(int(stat.parent.name))
    return found


def _running(pid: int) -> bool:
    """The process exists and has not ended (a zombie has)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _until(check: Any, timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.5)
    raise AssertionError(f"{what} not within {timeout:.0f} s")


def test_the_port_probe_binds_as_the_servers_do() -> None:
    listener = socket.create_server((LOOPBACK, 0))
    port = listener.getsockname()[1]
    client = socket.create_connection((LOOPBACK, port))
    accepted, _ = listener.accept()
    assert not port_is_free(port), "a listening port is in use"
    accepted.close()  # the server's side closes first: its port goes to TIME_WAIT
    client.close()
    listener.close()
    assert port_is_free(port), "TIME_WAIT does not stop a server that binds with SO_REUSEADDR"


def test_the_dev_server_killed_mid_run_comes_back_and_the_run_completes(tmp_path: Path) -> None:
    port, data, log = free_port(), tmp_path / "data", tmp_path / "up.log"
    proc = _up(data, port, log)
    try:
        assert wait_until_healthy(proc, port, 120), log.read_text()[-2000:]
        token = TokenIssuer(load_secret(data)).mint("heal", "admin")
        headers = {"Authorization": f"Bearer {token}"}
        url = f"http://{LOOPBACK}:{port}"
        with httpx.Client(base_url=url, headers=headers, timeout=30) as http:
            body = {"query": QUESTION, "domainTags": ["supply_chain"], "review": "required"}
            run_id = http.post("/api/runs", json=body).json()["runId"]

            def phase() -> str | None:
                read = http.get(f"/api/runs/{run_id}")
                return read.json()["phase"] if read.status_code == 200 else None

            _until(lambda: phase() not in (None, "PLANNING"), 120, "the run under way")
            server = json.loads((data / "stack.json").read_text())["temporalPid"]
            os.kill(server, signal.SIGKILL)  # by the PID the stack recorded
            down = http.get("/healthz")
            assert down.status_code == 503, "a stack without its server is not healthy"

            def restarted() -> dict[str, Any] | None:
                health = http.get("/healthz")
                return health.json() if health.status_code == 200 else None

            health = _until(restarted, 60, "a healthy stack again")
            temporal = health["children"]["dev-server"]
            assert (temporal["restarts"], temporal["lastExit"]) == (1, "killed by SIGKILL")
            assert temporal["pid"] != server and _running(temporal["pid"])
            assert json.loads((data / "stack.json").read_text())["temporalPid"] == temporal["pid"]
            assert _defunct_children(proc.pid) == [], "the killed server was reaped"

            ws = _until(
                lambda: (
                    (r := http.get(f"/api/runs/{run_id}")).status_code == 200
                    and r.json()["phase"] == "REVIEW"
                    and r.json()
                ),
                180,
                "the run in review",
            )
            first, *rest = ws["pendingApprovals"]
            decisions = [{"candidateId": first, "action": "approve"}] + [
                {"candidateId": c, "action": "reject", "reason": "heal test"} for c in rest
            ]
            assert http.post(f"/api/runs/{run_id}/decisions", json=decisions).status_code == 200
            result = _until(
                lambda: (
                    (r := http.get(f"/api/runs/{run_id}/result")).status_code == 200 and r.json()
                ),
                180,
                "the run's result",
            )
        assert result["phase"] == "COMPLETED"
        assert [d["candidateId"] for d in result["decisions"]] == ws["pendingApprovals"]
        assert "dev-server killed by SIGKILL; restarting" in log.read_text()
    finally:
        _stop(proc)
    assert proc.returncode == 0


def test_up_starts_again_at_once_after_sigkill_and_after_sigterm(tmp_path: Path) -> None:
    port, data, log = free_port(), tmp_path / "data", tmp_path / "up.log"
    started, servers = 0, []
    for attempt in range(RESTARTS):
        stop = signal.SIGKILL if attempt % 2 == 0 else signal.SIGTERM  # the last: SIGTERM
        proc = _up(data, port, log)
        try:
            healthy = wait_until_healthy(proc, port, 120)
            assert healthy, (attempt, started, log.read_text()[-2000:])
            started += 1
            servers.append(json.loads((data / "stack.json").read_text())["temporalPid"])
            # A kept-alive connection the stop closes from the server's side: TIME_WAIT on
            # the API's port, which the next start must not take for "in use".
            with httpx.Client(timeout=10) as http:
                http.get(f"http://{LOOPBACK}:{port}/healthz")
                began = time.monotonic()
                proc.send_signal(stop)
                proc.wait(timeout=60)
                stopped_in = time.monotonic() - began
            if stop == signal.SIGTERM:
                assert proc.returncode == 0 and stopped_in < SIGTERM_STOP_SECONDS, stopped_in
        finally:
            _stop(proc)
    assert started == RESTARTS
    # Each stack's dev server ended: by the stop, or (SIGKILL) by its parent-death signal.
    _until(lambda: not any(_running(pid) for pid in servers), 30, "every dev server gone")


@activity.defn
async def noop() -> None:
    pass


async def test_a_worker_that_stops_is_built_and_started_again(settings: Settings) -> None:
    address = settings.temporal_address or ""
    wrong = await Client.connect(address, namespace="no-such-namespace")
    right = await Client.connect(address)
    built: list[Worker] = []

    def build() -> Worker:  # the first one polls a namespace the server does not have
        built.append(
            Worker(wrong if not built else right, task_queue=settings.task_queue, activities=[noop])
        )
        return built[-1]

    child = WorkerChild(build)
    supervision = Supervision([child], stop_seconds=5)
    await supervision.start(child)
    try:
        deadline = asyncio.get_running_loop().time() + 30
        while supervision.states[child.name].restarts == 0:
            assert asyncio.get_running_loop().time() < deadline, supervision.report()
            await asyncio.sleep(0.2)
        state = supervision.report()[child.name]
        assert state["state"] == "running" and "failed" in (state["lastExit"] or ""), state
        assert len(built) == 2 and built[1].is_running
    finally:
        await supervision.stop()
    assert supervision.report()[child.name]["state"] == "stopped" and built[1].is_shutdown
