"""Worker subprocesses and per-run data dirs for the benchmarks that kill or scale workers."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlmodel import Session, select

from kminer.config import Settings, load_settings
from storage.dkg.embedded import EmbeddedDkg
from storage.sql.db import make_engine
from storage.sql.tables import AuditEvent, PublishRecord


def in_process_worker(client: Any, settings: Settings, services: Any, *interceptors: Any) -> Any:
    """The mining worker a benchmark runs in its own process: the main queue, every
    activity, a short shutdown grace."""
    from temporalio.worker import Worker

    from kminer.principal_propagation import PrincipalInterceptor
    from kminer.worker import activities_for, workflow_runner
    from workflows.batch import BatchWorkflow
    from workflows.mining import MiningWorkflow

    return Worker(
        client,
        task_queue=settings.task_queue,
        workflows=[MiningWorkflow, BatchWorkflow],
        workflow_runner=workflow_runner(settings),
        activities=activities_for(settings, services),
        max_concurrent_activities=settings.worker_concurrency,
        max_concurrent_local_activities=settings.worker_concurrency,
        graceful_shutdown_timeout=timedelta(seconds=5),
        interceptors=[PrincipalInterceptor(), *interceptors],
    )


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) process `pid` and its waited-for children have used, from
    /proc (Linux): what a worker process spent on the runs it served."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    # After the command's ")": state is field 3, utime..cstime fields 14-17 (1-based).
    ticks = sum(int(fields[n - 3]) for n in (14, 15, 16, 17))
    return ticks / os.sysconf("SC_CLK_TCK")


def fresh_settings(root: Path, name: str, address: str) -> Settings:
    """A data dir (SQLite, DKG, memory) and a task queue of its own."""
    own = load_settings(root / name)
    own.data_dir.mkdir(parents=True, exist_ok=True)
    return replace(own, temporal_address=address, task_queue=f"bench-{name}")


def start_worker(settings: Settings, log: Path, role: str = "all") -> subprocess.Popen:
    """`kminer worker --role ROLE` for this data dir, queues and server (no model or search
    keys); with `settings.tool_task_queue` the DKG tools go to that queue."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("OPENAI_API_KEY", "TAVILY_API_KEY", "DATABASE_URL")
    }
    env |= {
        "KM_DATA_DIR": str(settings.data_dir),
        "KM_TASK_QUEUE": settings.task_queue,
        "TEMPORAL_ADDRESS": settings.temporal_address or "",
    }
    if settings.tool_task_queue:
        env["KM_TOOL_TASK_QUEUE"] = settings.tool_task_queue
    return subprocess.Popen(
        [sys.executable, "-m", "kminer.cli", "worker", "--role", role],
        env=env,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
    )


def wait_polling(log: Path, times: int = 1, timeout: float = 120.0) -> None:
    """Until the log shows the `times`-th "polling" line (a worker ready)."""
    deadline = time.monotonic() + timeout
    while log.read_bytes().count(b" polling ") < times:
        if time.monotonic() > deadline:
            raise TimeoutError(f"no worker ready in {timeout} s: {log}")
        time.sleep(0.05)


def stop(proc: subprocess.Popen | None) -> None:
    """SIGTERM by PID, SIGKILL if it does not end in 20 s."""
    if proc is not None and proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def _rows(settings: Settings, statement: Any) -> list[Any]:
    """Every row a select gives, on a short-lived engine of the data dir's database."""
    engine = make_engine(settings.database_url)
    try:
        with Session(engine) as session:
            return list(session.exec(statement).all())
    finally:
        engine.dispose()


def publish_ledger(settings: Settings, run_id: str) -> tuple[list[str], int]:
    """The run's PublishRecord candidate ids and the number of assets in the DKG.

    Open it only when no worker holds the data dir's DKG."""
    rows = _rows(settings, select(PublishRecord).where(PublishRecord.run_id == run_id))
    dkg = EmbeddedDkg(settings.dkg_dir)
    try:
        graphs = dkg.query("SELECT (COUNT(DISTINCT ?g) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }").rows
    finally:
        dkg.close()
    return sorted(r.candidate_id for r in rows), int(graphs[0]["n"])


def audited_tools(settings: Settings, run_id: str) -> dict[str, int]:
    """Tool calls the worker side audited for the run (one row per executed attempt)."""
    trail = _rows(settings, select(AuditEvent).where(AuditEvent.run_id == run_id))
    counts: dict[str, int] = {}
    for event in trail:
        if event.kind == "tool":
            counts[event.tool] = counts.get(event.tool, 0) + 1
    return counts
