"""What Temporal costs a mining run: the run through Temporal vs the same calls without it.

    .venv/bin/python bench/overhead.py [--runs 3] [--no-record]

Through Temporal: a mining run (rules policy, review "auto", offline) on the embedded
dev server with an in-process worker, timed from start to result. An interceptor on
that worker records every activity it executes, regular and local (the function and
its decoded arguments, in start order).

Without Temporal, against a fresh data dir (its own DKG, SQLite, memory) so publishing
and memory writes do the same work again, in the order the run did them:

- each subagent (discovery, enrichment, validation) runs as the same Deep Agents graph
  (`workflows/agent_graphs.deep_agent`: the same middleware, prompt and task message, the
  rules policy deciding in process, the same tool wrappers with their references) whose
  tools call the activity functions directly and whose `/memories/` route is the SQL
  backend itself; the loop starts from the ledger the run's loop started from;
- every other recorded activity (research, memory, scoring, answer, publish, audit) is
  called with its recorded arguments inside `temporalio.testing.ActivityEnvironment`
  (an activity context, no server).

What the direct path does not run: the workflow's own code between the loops (stages,
workspace mirroring, review board), charged to Temporal; and it runs sequentially what
the workflow runs in parallel (research sub-questions). Before 2026-11-25 the direct path
replayed only the activities: it had no agent loop and, once the rules policy decided in
the workflow, no model decision either (`direct_activities_s` keeps that figure).

Each pair runs in fresh data dirs after one warm-up run (models loaded). The ratio is
median(through Temporal) / median(direct).

Temporal's floor, for scale: a workflow of 3 no-op activities (bench/ceiling.py) run
one at a time on the same server by an in-process worker like the mining one, its
fastest run (`trivial_min_s`) and median (`trivial_p50_s`). A mining run waits on more
workflow tasks and dispatched activities than that workflow, so even a run whose own
code cost nothing in Temporal would take about direct + trivial_min_s:
`ratio_floor` = (direct_s + trivial_min_s) / direct_s. History events, bytes and actions come from
the measured runs' histories (as bench/history.py counts them). Figures go to
bench/results.json under `overhead`, and `overhead_ratio` at the top (target ≤ 1.2).
A benchmark: it always exits 0 and says PASS/FAIL.

The run through Temporal is recorded by bench/overhead_recording.py; the direct path is
bench/overhead_direct.py.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
import warnings
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
warnings.filterwarnings("ignore", message=".*allowed_objects.*")

from temporalio.client import Client  # noqa: E402
from temporalio.worker import UnsandboxedWorkflowRunner, Worker  # noqa: E402

from bench.ceiling import TrivialWorkflow, noop  # noqa: E402
from bench.overhead_direct import DirectAgents, direct, replay  # noqa: E402
from bench.overhead_recording import through_temporal  # noqa: E402
from bench.procs import fresh_settings  # noqa: E402
from bench.results_file import record  # noqa: E402
from kminer.config import Settings  # noqa: E402
from kminer.devserver import DevServer  # noqa: E402
from kminer.worker import Services, open_services  # noqa: E402

OVERHEAD_TARGET = 1.2
TRIVIAL_RUNS = 20


async def trivial_runs(address: str, runs: int) -> list[float]:
    """Seconds of each of `runs` trivial workflows, one after another (after one warm-up)."""
    client = await Client.connect(address)
    queue = "bench-overhead-trivial"
    async with Worker(client, task_queue=queue, workflows=[TrivialWorkflow], activities=[noop],
                      workflow_runner=UnsandboxedWorkflowRunner()):  # fmt: skip
        seconds = []
        for i in range(runs + 1):
            started = time.perf_counter()
            await client.execute_workflow(TrivialWorkflow.run, id=f"trivial-{i}", task_queue=queue)
            seconds.append(time.perf_counter() - started)
    return seconds[1:]


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="kminer-bench-overhead-") as tmp:
        root = Path(tmp)
        server = DevServer(db_file=root / "temporal.db", log_file=root / "temporal.log").start()
        opened: list[Services] = []

        def dir_of(name: str) -> tuple[Settings, Services]:
            settings = replace(fresh_settings(root, name, server.address), tool_task_queue=None)
            services = open_services(settings)
            opened.append(services)
            return settings, services

        try:
            # Warm-ups, untimed: models loaded, the worker's and the direct graphs built.
            agents = DirectAgents()
            _, warm, _ = await through_temporal(server.address, *dir_of("warmup"))
            await direct(warm, agents, *dir_of("warmup-direct"))
            pairs = []
            for i in range(args.runs):
                seconds, run, history = await through_temporal(server.address, *dir_of(f"t{i}"))
                direct_s = await direct(run, agents, *dir_of(f"d{i}"))
                replay_s = await replay(run.calls, *dir_of(f"r{i}"))
                pairs.append((seconds, direct_s, run.calls, history, replay_s))
                print(
                    f"run {i + 1}: through Temporal {seconds:.2f} s, direct {direct_s:.2f} s "
                    f"({len(run.loops)} agent loops, {len(run.calls)} activity calls; "
                    f"the calls alone {replay_s:.2f} s)",
                    flush=True,
                )
            trivial = await trivial_runs(server.address, TRIVIAL_RUNS)
        finally:
            for services in opened:
                services.close()
            server.stop()
    temporal_s = statistics.median(p[0] for p in pairs)
    direct_s = statistics.median(p[1] for p in pairs)
    replay_s = statistics.median(p[4] for p in pairs)
    histories = [p[3] for p in pairs]
    calls = pairs[0][2]
    return {
        "measured": date.today().isoformat(),
        "runs": len(pairs),
        "temporal_s": round(temporal_s, 3),
        "direct_s": round(direct_s, 3),
        "overhead_ratio": round(temporal_s / direct_s, 2),
        "direct_activities_s": round(replay_s, 3),
        "trivial_min_s": round(min(trivial), 3),
        "trivial_p50_s": round(statistics.median(trivial), 3),
        "ratio_floor": round((direct_s + min(trivial)) / direct_s, 2),
        "overhead_ratio_activities_only": round(temporal_s / replay_s, 2),
        "activity_calls": len(calls),
        "local_activity_calls": sum(c.local for c in calls),
        "activities_per_run": round(statistics.mean(h["activities"] for h in histories)),
        "local_activities_per_run": round(
            statistics.mean(h["local_activities"] for h in histories)
        ),
        "history_events": round(statistics.mean(h["events"] for h in histories)),
        "history_bytes": max(h["bytes"] for h in histories),
        "actions_per_run": round(statistics.mean(h["actions"] for h in histories)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-record", action="store_true", help="do not write results.json")
    args = parser.parse_args()
    figures = asyncio.run(measure(args))
    print(
        f"maxIterations 4, {figures['runs']} runs: through Temporal {figures['temporal_s']} s, "
        f"direct {figures['direct_s']} s (median); {figures['activities_per_run']} activities "
        f"+ {figures['local_activities_per_run']} local activities, "
        f"{figures['history_events']} history events, {figures['history_bytes']:,} bytes, "
        f"{figures['actions_per_run']} actions per run"
    )
    print(
        f"Temporal's floor: a workflow of 3 no-op activities takes {figures['trivial_min_s']} s "
        f"at best, {figures['trivial_p50_s']} s median, one at a time; so a run costing "
        f"Temporal no more than that would still be at ratio {figures['ratio_floor']}"
    )
    ratio = figures["overhead_ratio"]
    verdict = "PASS" if ratio <= OVERHEAD_TARGET else "FAIL"
    print(f"{verdict}: overhead_ratio {ratio} (target <= {OVERHEAD_TARGET})")
    if not args.no_record:
        record("overhead", figures)
        record("overhead_ratio", ratio)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
