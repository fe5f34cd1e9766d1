"""What Temporal costs a mining run: the run through Temporal vs the same calls without it.

    .venv/bin/python bench/overhead.py [--runs 3] [--no-record]

Through Temporal: a mining run (rules policy, review "auto", offline) on the embedded
dev server with an in-process worker, timed from start to result. An interceptor on
that worker records every activity it executes, regular and local (the function and
its decoded arguments, in start order).

Without Temporal: the same activity functions, the tools and the model policy alike,
called one after another in this process with the recorded arguments, each inside
`temporalio.testing.ActivityEnvironment` (an activity context, no server), against a
fresh data dir (its own DKG, SQLite, memory) so publishing and memory writes do the
same work again. What the direct path does not run: the workflow code itself (the
agent graph stepping, the workspace), so the ratio charges that code to Temporal; and
it runs sequentially what the workflow runs in parallel (research sub-questions).

Each pair runs in fresh data dirs after one warm-up run (models loaded). The ratio is
median(through Temporal) / median(direct). History events, bytes and actions come from
the measured runs' histories (as bench/history.py counts them). Figures go to
bench/results.json under `overhead`, and `overhead_ratio` at the top (target ≤ 1.2).
A benchmark: it always exits 0 and says PASS/FAIL.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import statistics
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
warnings.filterwarnings("ignore", message=".*allowed_objects.*")

from temporalio import activity  # noqa: E402
from temporalio.testing import ActivityEnvironment  # noqa: E402
from temporalio.worker import (  # noqa: E402
    ActivityInboundInterceptor,
    ExecuteActivityInput,
    Interceptor,
)

from bench.history import measure_run  # noqa: E402
from bench.procs import fresh_settings, in_process_worker  # noqa: E402
from bench.results_file import record  # noqa: E402
from kminer.config import Settings  # noqa: E402
from kminer.devserver import DevServer  # noqa: E402
from kminer.runs import start_run  # noqa: E402
from kminer.worker import Services, activities_for, connect, open_services  # noqa: E402
from workflows.contracts import MiningRequest, Phase  # noqa: E402

QUESTION = "Which suppliers of lithium carry geopolitical risk?"
TAGS = ["supply_chain", "general_risk"]
OVERHEAD_TARGET = 1.2


@dataclass
class Call:
    name: str
    local: bool
    fn: Any
    args: list[Any]


class Recorder(Interceptor):
    """Every activity execution of the worker: its function and decoded arguments."""

    def __init__(self) -> None:
        self.calls: list[Call] = []

    def intercept_activity(self, next: ActivityInboundInterceptor) -> ActivityInboundInterceptor:
        calls = self.calls

        class Recording(ActivityInboundInterceptor):
            async def execute_activity(self, input: ExecuteActivityInput) -> Any:
                info = activity.info()
                calls.append(Call(info.activity_type, info.is_local, input.fn, list(input.args)))
                return await super().execute_activity(input)

        return Recording(next)


async def through_temporal(
    address: str, settings: Settings, services: Services
) -> tuple[float, list[Call], dict[str, Any]]:
    client = await connect(settings, address, services.engine)
    recorder = Recorder()
    worker = in_process_worker(client, settings, services, recorder)
    async with worker:
        request = MiningRequest(query=QUESTION, domainTags=TAGS, review="auto")
        started = time.perf_counter()
        handle = await start_run(client, settings.task_queue, request)
        result = await handle.result()
        seconds = time.perf_counter() - started
    assert result.phase == Phase.COMPLETED, result.phase
    return seconds, recorder.calls, await measure_run(handle)


async def direct(calls: list[Call], settings: Settings, services: Services) -> float:
    """The recorded calls again, in order, without Temporal, on a fresh data dir."""
    fresh = {a.__temporal_activity_definition.name: a for a in activities_for(settings, services)}
    env = ActivityEnvironment()
    started = time.perf_counter()
    for call in calls:
        fn = fresh.get(call.name, call.fn)  # the plugin's model and memory activities as run
        out = env.run(fn, *call.args)
        if inspect.isawaitable(out):
            await out
    return time.perf_counter() - started


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
            await through_temporal(server.address, *dir_of("warmup"))
            pairs = []
            for i in range(args.runs):
                seconds, calls, history = await through_temporal(server.address, *dir_of(f"t{i}"))
                direct_s = await direct(calls, *dir_of(f"d{i}"))
                pairs.append((seconds, direct_s, calls, history))
                print(
                    f"run {i + 1}: through Temporal {seconds:.2f} s, direct {direct_s:.2f} s "
                    f"({len(calls)} activity calls)",
                    flush=True,
                )
        finally:
            for services in opened:
                services.close()
            server.stop()
    temporal_s = statistics.median(p[0] for p in pairs)
    direct_s = statistics.median(p[1] for p in pairs)
    histories = [p[3] for p in pairs]
    calls = pairs[0][2]
    return {
        "measured": date.today().isoformat(),
        "runs": len(pairs),
        "temporal_s": round(temporal_s, 3),
        "direct_s": round(direct_s, 3),
        "overhead_ratio": round(temporal_s / direct_s, 2),
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
    ratio = figures["overhead_ratio"]
    verdict = "PASS" if ratio <= OVERHEAD_TARGET else "FAIL"
    print(f"{verdict}: overhead_ratio {ratio} (target <= {OVERHEAD_TARGET})")
    if not args.no_record:
        record("overhead", figures)
        record("overhead_ratio", ratio)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
