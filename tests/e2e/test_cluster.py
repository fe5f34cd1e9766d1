"""The processes docker-compose.yml runs, outside Docker: migrate, a tools worker owning the
DKG (tool and publish queues), a model-call worker, two workflow workers, the API; the dev
server stands in for the Temporal cluster and Postgres (when it answers on 127.0.0.1:5432,
else SQLite) is the app database."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from temporalio.api.enums.v1 import EventType

from api.auth import TokenIssuer
from kminer.config import load_settings
from kminer.devserver import DevServer, free_port
from kminer.worker import MODEL_ACTIVITIES, PUBLISH_ACTIVITIES, TOOL_ACTIVITIES, connect
from tests.support.compose import kminer_services, load_compose
from tests.support.postgres import own_database_url

SECRET = "cluster-test-secret-0123456789abcdef"
QUESTION = {
    "query": "Which suppliers of lithium carry geopolitical risk?",
    "domainTags": ["supply_chain"],
    "review": "auto",
}


WORKERS = ("tools", "models", "worker1", "worker2")
# The queue of each kind of activity: KM_TASK_QUEUE plus this suffix in the test.
QUEUE_SUFFIX = {"models": "-models", "tools": "-tools", "publish": "-publish", "other": ""}


def kind_of(activity: str) -> str:
    if activity in MODEL_ACTIVITIES:
        return "models"
    if activity in PUBLISH_ACTIVITIES:
        return "publish"
    return "tools" if activity in TOOL_ACTIVITIES else "other"


def worker_of(identity: str) -> tuple[str, str]:
    """(pid, role) from a worker identity `pid@host/role`."""
    pid, _, rest = identity.partition("@")
    return pid, rest.rpartition("/")[2]


@pytest.fixture(params=["postgres", "sqlite"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with own_database_url(request.param, tmp_path, "km_cluster") as url:
        yield url


class Services:
    """Started processes, each stopped by its own PID."""

    def __init__(self, env: dict[str, str], logs: Path) -> None:
        self.env, self.logs = env, logs
        self.procs: dict[str, subprocess.Popen] = {}

    def start(self, name: str, *args: str) -> subprocess.Popen:
        out = (self.logs / f"{name}.log").open("wb")
        proc = subprocess.Popen(
            [sys.executable, "-m", "kminer.cli", *args],
            env=self.env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
        self.procs[name] = proc
        return proc

    def log(self, name: str) -> str:
        return (self.logs / f"{name}.log").read_text(errors="replace")

    def wait_for_line(self, name: str, line: str, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if line in self.log(name):
                return
            assert self.procs[name].poll() is None, f"{name} exited:\n{self.log(name)}"
            time.sleep(0.2)
        raise AssertionError(f"{name} never said {line!r}:\n{self.log(name)}")

    def stop_all(self) -> dict[str, int | None]:
        for proc in self.procs.values():
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGTERM)
        codes: dict[str, int | None] = {}
        for name, proc in self.procs.items():
            try:
                codes[name] = proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.kill(proc.pid, signal.SIGKILL)
                codes[name] = proc.wait()
        return codes


async def test_api_and_two_workers_mine_through_the_compose_commands(
    temporal_server: DevServer, database_url: str, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    queue = f"cluster-{uuid.uuid4().hex[:8]}"
    compose = kminer_services(load_compose({"KM_JWT_SECRET": SECRET}))
    # The environment docker-compose.yml gives every kminer service; only the addresses,
    # paths and queue names (unique per test) are this machine's.
    compose_env = compose["api"]["environment"]
    assert all(compose[n]["environment"] == compose_env for n in compose)
    env = {
        **{k: v for k, v in os.environ.items() if k not in compose_env},
        **{k: str(v) for k, v in compose_env.items()},
        "TEMPORAL_ADDRESS": temporal_server.address,
        "DATABASE_URL": database_url,
        "KM_DATA_DIR": str(data),
        "KM_TASK_QUEUE": queue,
        "KM_TOOL_TASK_QUEUE": f"{queue}-tools",
        "KM_MODEL_TASK_QUEUE": f"{queue}-models",
        "KM_PUBLISH_TASK_QUEUE": f"{queue}-publish",
    }
    assert env["KM_JWT_SECRET"] == SECRET and not env["OPENAI_API_KEY"]

    def command(service: str, health: str | None = None) -> list[str]:
        args = list(compose[service]["command"])
        if "--health-file" in args:  # one file each here, not the container's /tmp
            args[args.index("--health-file") + 1] = str(tmp_path / f"{health}.alive")
        if "--host" in args:  # loopback here, 0.0.0.0 inside the container
            args[args.index("--host") + 1] = "127.0.0.1"
            args[args.index("--port") + 1] = str(port)
        return args

    services = Services(env, tmp_path)
    port = free_port()
    try:
        migrate = services.start("migrate", *command("migrate"))
        assert migrate.wait(timeout=120) == 0, services.log("migrate")
        services.start("tools", *command("tools", "tools"))
        services.start("models", *command("models", "models"), "--concurrency", "2")
        services.start("worker1", *command("worker", "worker1"))
        services.start("worker2", *command("worker", "worker2"), "--concurrency", "4")
        services.start("api", *command("api"))
        for name in WORKERS:
            services.wait_for_line(name, "polling")
        assert "16 activities at once" in services.log("worker1")  # KM_WORKER_CONCURRENCY
        assert "4 activities at once" in services.log("worker2")
        assert "2 activities at once" in services.log("models")
        assert f"polling {queue}-tools, {queue}-publish" in services.log("tools")
        alive = [tmp_path / f"{name}.alive" for name in WORKERS]
        deadline = time.monotonic() + 20
        while not all(f.exists() for f in alive) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert all(f.exists() for f in alive)  # the containers' healthchecks read these
        services.wait_for_line("api", "API http://")
        admin = {"Authorization": f"Bearer {TokenIssuer(SECRET).mint('ops', 'admin')}"}
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            ready = await http.get("/readyz")
            assert ready.status_code == 200, ready.text
            started = await http.post("/api/runs", json=QUESTION, headers=admin)
            assert started.status_code == 202, started.text
            run_id = started.json()["runId"]
            result = None
            for _ in range(600):
                result = await http.get(f"/api/runs/{run_id}/result", headers=admin)
                if result.status_code == 200:
                    break
                time.sleep(0.2)
            assert result is not None and result.status_code == 200, result.text
            published = result.json()["publishedAssets"]
            assert published, result.json()["summary"]
            # The API reads the store the tools worker owns and wrote.
            ual = published[0]["ual"]
            asset = await http.get(f"/api/dkg/assets/{quote(ual, safe='')}", headers=admin)
            assert asset.status_code == 200, asset.text

        # Who ran what: each kind of activity on its own queue, taken by the worker of that
        # queue only (identity pid@host/role).
        client = await connect(load_settings(data), temporal_server.address)
        history = await client.get_workflow_handle(run_id).fetch_history()
        scheduled: dict[int, str] = {}
        ran_on: dict[str, set[str]] = {kind: set() for kind in QUEUE_SUFFIX}
        workflow_identities: set[str] = set()
        for event in history.events:
            if event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
                attrs = event.activity_task_scheduled_event_attributes
                name = scheduled[event.event_id] = attrs.activity_type.name
                assert attrs.task_queue.name == queue + QUEUE_SUFFIX[kind_of(name)], name
            elif event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED:
                attrs = event.activity_task_started_event_attributes
                kind = kind_of(scheduled[attrs.scheduled_event_id])
                ran_on[kind].add(worker_of(attrs.identity))
            elif event.event_type == EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED:
                identity = event.workflow_task_started_event_attributes.identity
                workflow_identities.add(worker_of(identity))
        pids = {name: str(p.pid) for name, p in services.procs.items()}
        workflow_workers = {(pids["worker1"], "workflows"), (pids["worker2"], "workflows")}
        assert ran_on["models"] == {(pids["models"], "models")}
        assert ran_on["tools"] == {(pids["tools"], "tools")}
        assert ran_on["publish"] == {(pids["tools"], "publish")}
        # The cheap steps are local activities: whatever else runs on the main queue (the
        # memory backend's operations) runs on the workflow workers.
        assert ran_on["other"] <= workflow_workers
        assert workflow_identities and workflow_identities <= workflow_workers
    finally:
        codes = services.stop_all()
    # SIGTERM is a clean stop for every service.
    assert {n: c for n, c in codes.items() if n != "migrate"} == {
        **{name: 0 for name in WORKERS},
        "api": 0,
    }, {n: services.log(n)[-2000:] for n in codes}
    for name in WORKERS:
        assert "worker stopped" in services.log(name)


def test_a_role_the_configuration_cannot_run_is_one_line_and_exit_2(tmp_path: Path) -> None:
    queues = ("KM_TOOL_TASK_QUEUE", "KM_MODEL_TASK_QUEUE", "KM_PUBLISH_TASK_QUEUE")
    base = {k: v for k, v in os.environ.items() if k not in queues}
    base.update(KM_DATA_DIR=str(tmp_path), TEMPORAL_ADDRESS="127.0.0.1:1")
    cases = [
        ({}, ["--role", "models"], "--role models needs KM_MODEL_TASK_QUEUE"),
        ({}, ["--role", "publish"], "--role publish needs KM_PUBLISH_TASK_QUEUE"),
        ({}, ["--role", "bogus,tools"], "unknown role bogus"),
        ({}, ["--role", "all,tools"], "'all' alone"),
        (
            {"KM_TOOL_TASK_QUEUE": "q", "KM_PUBLISH_TASK_QUEUE": "q"},
            ["--role", "tools,publish"],
            "the same task queue twice",
        ),
        ({"KM_CONTINUE_AS_NEW_BYTES": "lots"}, [], "KM_CONTINUE_AS_NEW_BYTES must be a positive"),
        ({}, ["--rate-limit", "0"], "--rate-limit: must be a positive number"),
        ({"KM_QUEUE_RATE_LIMIT": "fast"}, [], "KM_QUEUE_RATE_LIMIT must be a positive number"),
        ({"KM_WORKFLOW_SANDBOX": "maybe"}, [], "KM_WORKFLOW_SANDBOX must be on or off"),
        ({"KM_MEMORY_NOTE_CHARS": "200"}, [], "KM_MEMORY_NOTE_CHARS must be at least 1000"),
        ({"KM_MEMORY_NOTE_CHARS": "lots"}, [], "KM_MEMORY_NOTE_CHARS must be a positive"),
    ]
    for extra, args, said in cases:
        done = subprocess.run(
            [sys.executable, "-m", "kminer.cli", "worker", *args],
            env={**base, **extra},
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1 and said in lines[0], (args, done.stderr)


async def test_a_rate_limit_is_set_on_every_queue_the_worker_polls(settings) -> None:  # noqa: ANN001
    from dataclasses import replace as with_

    from temporalio.client import Client

    from kminer.worker import build_workers, open_services

    limited = with_(settings, queue_rate_limit=2.5, tool_task_queue=f"{settings.task_queue}-tools")
    services = open_services(limited)
    try:
        client = await Client.connect(limited.temporal_address)
        workers = build_workers(client, limited, services, ["workflows", "tools"])
        rates = {w.task_queue: w.config()["max_task_queue_activities_per_second"] for w in workers}
        assert rates == {limited.task_queue: 2.5, limited.tool_task_queue: 2.5}
        plain = with_(settings, task_queue=f"{settings.task_queue}-plain")
        unlimited = build_workers(client, plain, services, ["all"])
        assert all(w.config()["max_task_queue_activities_per_second"] is None for w in unlimited)
    finally:
        services.close()


async def test_workflow_code_runs_in_the_sandbox_only_when_asked(
    settings,
    monkeypatch: pytest.MonkeyPatch,  # noqa: ANN001
) -> None:
    from dataclasses import replace as with_

    from temporalio.client import Client
    from temporalio.worker import UnsandboxedWorkflowRunner
    from temporalio.worker.workflow_sandbox import SandboxedWorkflowRunner

    from kminer.worker import build_workers, open_services

    services = open_services(settings)
    try:
        client = await Client.connect(settings.temporal_address)
        for value, runner in (
            ("", UnsandboxedWorkflowRunner),
            ("off", UnsandboxedWorkflowRunner),
            ("on", SandboxedWorkflowRunner),
            ("1", SandboxedWorkflowRunner),
        ):
            monkeypatch.setenv("KM_WORKFLOW_SANDBOX", value)
            chosen = load_settings(settings.data_dir)
            assert chosen.workflow_sandbox is (runner is SandboxedWorkflowRunner), value
            asked = with_(
                settings,
                workflow_sandbox=chosen.workflow_sandbox,
                task_queue=f"{settings.task_queue}-sandbox-{value}",  # one worker per queue
            )
            [worker] = build_workers(client, asked, services)
            assert isinstance(worker.config()["workflow_runner"], runner), value
    finally:
        services.close()
