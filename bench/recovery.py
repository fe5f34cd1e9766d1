"""Recovery: the worker SIGKILLed at seeded points spread over a run, then restarted.

    .venv/bin/python bench/recovery.py [--kills 10] [--seed 12] [--parallel 2] [--quick]
                                       [--no-record]

One uninterrupted run (rules policy, review "auto", offline, a worker subprocess on
the embedded dev server) gives the run's history length and its audited tool calls.
Then `--kills` runs of the same question, each in a fresh data dir with its own worker:
when the run's history reaches a point drawn with random.Random(seed) from the whole
run, the worker is SIGKILLed and a new one started at once (`--parallel` killed runs go
at once, each with its own worker, to keep `make bench` short). Per kill:

- time to resume: from the SIGKILL to the first workflow or activity task the new
  worker starts (server event time; includes the new worker's boot);
- activities re-executed: activity tasks that completed on attempt > 1 (history), plus
  audited tool calls beyond the uninterrupted run's for tools that never went through a
  retried activity task (local activities re-run after a lost workflow task);
- duplicate publishes: PublishRecord rows and DKG assets beyond the published candidates.

Figures go to bench/results.json under `recovery`, and `reexecuted_per_kill`,
`duplicate_publishes` at the top; the targets are issue 12's (0 duplicates, ≤ 1
re-executed activity per kill). A benchmark: it always exits 0 and says PASS/FAIL.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import signal
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from temporalio.api.enums.v1 import EventType  # noqa: E402
from temporalio.client import Client, WorkflowHandle  # noqa: E402

from bench.procs import (  # noqa: E402
    audited_tools,
    fresh_settings,
    publish_ledger,
    start_worker,
    stop,
    wait_polling,
)
from bench.results_file import record  # noqa: E402
from contracts.run import KnowledgeMinerResponse, MiningRequest, Phase  # noqa: E402
from kminer.config import Settings  # noqa: E402
from kminer.devserver import DevServer  # noqa: E402
from kminer.worker import connect  # noqa: E402
from temporal_client.runs import start_run  # noqa: E402

QUESTION = "Which suppliers of lithium carry geopolitical risk?"
TAGS = ["supply_chain", "general_risk"]
STARTED = {
    EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED,
    EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED,
}


async def history_of(handle: WorkflowHandle) -> dict[str, Any]:
    """Retried activity tasks by type and when each worker identity first started a task."""
    retries: dict[str, int] = {}
    scheduled: dict[int, str] = {}
    first_start: dict[str, float] = {}
    timeouts = 0
    async for event in handle.fetch_history_events():
        when = event.event_time.ToMicroseconds() / 1e6
        if event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
            attrs = event.activity_task_scheduled_event_attributes
            scheduled[event.event_id] = attrs.activity_type.name
        if event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED:
            started = event.activity_task_started_event_attributes
            if started.attempt > 1:
                name = scheduled[started.scheduled_event_id]
                retries[name] = retries.get(name, 0) + started.attempt - 1
            first_start.setdefault(started.identity, when)
        elif event.event_type == EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED:
            first_start.setdefault(event.workflow_task_started_event_attributes.identity, when)
        elif event.event_type in (
            EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT,
            EventType.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT,
        ):
            timeouts += 1
    return {"retries": retries, "first_start": first_start, "timeouts": timeouts}


async def mine(
    client: Client, settings: Settings, log: Path, kill_at: int | None
) -> dict[str, Any]:
    worker = start_worker(settings, log)
    await asyncio.to_thread(wait_polling, log, 1)
    out: dict[str, Any] = {}
    try:
        request = MiningRequest(query=QUESTION, domainTags=TAGS, review="auto")
        started = time.monotonic()
        handle = await start_run(client, settings.task_queue, request)
        if kill_at is not None:
            while True:
                desc = await handle.describe()
                if desc.history_length >= kill_at or desc.status is None:
                    break
                if desc.status.name != "RUNNING":
                    raise RuntimeError(f"run ended before history {kill_at}")
                await asyncio.sleep(0.02)
            worker.send_signal(signal.SIGKILL)
            out["killed_at"] = desc.history_length
            out["kill_time"] = time.time()
            await asyncio.to_thread(worker.wait, 10)
            worker = start_worker(settings, log)
            out["new_identity"] = f"{worker.pid}@"
        result: KnowledgeMinerResponse = await asyncio.wait_for(handle.result(), 600)
        out["seconds"] = time.monotonic() - started
        out["history_length"] = (await handle.describe()).history_length
        out |= await history_of(handle)
    finally:
        await asyncio.to_thread(stop, worker)
    out["result"] = result
    return out


def candidate_ids(result: KnowledgeMinerResponse) -> list[str]:
    return sorted(c["candidateId"] for c in result.candidateAssets)


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="kminer-bench-recovery-") as tmp:
        root = Path(tmp)
        server = DevServer(db_file=root / "temporal.db", log_file=root / "temporal.log").start()
        try:
            client = await connect(fresh_settings(root, "client", server.address), server.address)
            base_settings = fresh_settings(root, "base", server.address)
            base = await mine(client, base_settings, root / "base.log", None)
            base_result = base["result"]
            assert base_result.phase == Phase.COMPLETED
            _, base_assets = publish_ledger(base_settings, base_result.runId)
            base_audit = audited_tools(base_settings, base_result.runId)
            length = base["history_length"]
            rng = random.Random(args.seed)
            # Not within the closing 10 events, where a run may end between two looks.
            points = sorted(rng.sample(range(3, length - 10), args.kills))
            gate = asyncio.Semaphore(args.parallel)

            async def one(i: int, point: int) -> dict[str, Any]:
                own = fresh_settings(root, f"k{i}", server.address)
                async with gate:
                    run = await mine(client, own, root / f"k{i}.log", point)
                result = run["result"]
                records, assets = await asyncio.to_thread(publish_ledger, own, result.runId)
                audit = await asyncio.to_thread(audited_tools, own, result.runId)
                published = len(result.publishedAssets)
                retried_types = set(run["retries"])
                extra_calls = sum(
                    max(0, n - base_audit.get(tool, 0))
                    for tool, n in audit.items()
                    if tool not in retried_types
                )
                new = run["new_identity"]
                resumed = [t for who, t in run["first_start"].items() if who.startswith(new)]
                kill = {
                    "point": point,
                    "killed_at_event": run["killed_at"],
                    "resume_s": round(min(resumed) - run["kill_time"], 2) if resumed else None,
                    "run_s": round(run["seconds"], 2),
                    "retried_activities": sum(run["retries"].values()),
                    "retried_by_type": run["retries"],
                    "extra_tool_calls": extra_calls,
                    "reexecuted": sum(run["retries"].values()) + extra_calls,
                    "timeouts": run["timeouts"],
                    "duplicates": (len(records) - published) + (assets - base_assets),
                    "completed": result.phase == Phase.COMPLETED,
                    "same_candidates": candidate_ids(result) == candidate_ids(base_result),
                }
                print(
                    f"kill at event {kill['killed_at_event']}/{length} (point {point}): "
                    f"resumed in {kill['resume_s']} s, re-executed {kill['reexecuted']}, "
                    f"duplicates {kill['duplicates']}, same candidates {kill['same_candidates']}",
                    flush=True,
                )
                return kill

            kills = await asyncio.gather(*(one(i, p) for i, p in enumerate(points)))
        finally:
            server.stop()
    resumes = [k["resume_s"] for k in kills if k["resume_s"] is not None]
    return {
        "measured": date.today().isoformat(),
        "seed": args.seed,
        "parallel": args.parallel,
        "kills": len(kills),
        "history_length": length,
        "uninterrupted_run_s": round(base["seconds"], 2),
        "resume_p50_s": round(statistics.median(resumes), 2) if resumes else None,
        "resume_max_s": max(resumes) if resumes else None,
        "reexecuted_per_kill": round(sum(k["reexecuted"] for k in kills) / len(kills), 2),
        "reexecuted_max": max(k["reexecuted"] for k in kills),
        "duplicate_publishes": sum(k["duplicates"] for k in kills),
        "completed": sum(k["completed"] for k in kills),
        "same_candidates": sum(k["same_candidates"] for k in kills),
        "per_kill": kills,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument(
        "--parallel", type=int, default=2, help="killed runs at once (each its own worker)"
    )
    parser.add_argument("--quick", action="store_true", help="3 kills")
    parser.add_argument("--no-record", action="store_true", help="do not write results.json")
    args = parser.parse_args()
    if args.quick:
        args.kills = 3
    figures = asyncio.run(measure(args))
    print(
        f"{figures['kills']} kills (seed {figures['seed']}) over a run of "
        f"{figures['history_length']} events ({figures['uninterrupted_run_s']} s uninterrupted): "
        f"resume p50 {figures['resume_p50_s']} s, max {figures['resume_max_s']} s; "
        f"{figures['completed']} completed, {figures['same_candidates']} with the same candidates"
    )
    for name, value, target in (
        ("duplicate_publishes", figures["duplicate_publishes"], 0),
        ("reexecuted_per_kill", figures["reexecuted_per_kill"], 1),
    ):
        verdict = "PASS" if value <= target else "FAIL"
        print(f"{verdict}: {name} {value} (target <= {target})")
    if not args.no_record:
        record("recovery", figures)
        record("reexecuted_per_kill", figures["reexecuted_per_kill"])
        record("duplicate_publishes", figures["duplicate_publishes"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
