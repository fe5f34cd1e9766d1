"""What one mining run costs Temporal: history size and the actions it bills.

    .venv/bin/python bench/history.py [--max-iterations 10] [--runs 3] [--no-record]

Runs --runs mining runs (rules policy, review "auto", offline) on the embedded stack,
then reads each run's history: events, bytes, worker-dispatched activities by type,
local activities (markers), and actions as Temporal Cloud counts them (a workflow start,
each activity and local activity, each timer, signal, update and search-attribute
upsert). Figures go to bench/results.json under `history`; the targets are issue 12's
(history < 1 MB at maxIterations 10, ≤ 15 worker-dispatched activities per run).
A benchmark, not a test: it always exits 0 and says PASS/FAIL per target.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
from collections import Counter
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from temporalio.api.enums.v1 import EventType  # noqa: E402
from temporalio.client import WorkflowHandle  # noqa: E402

from bench.results_file import record  # noqa: E402
from contracts.run import MiningRequest  # noqa: E402
from kminer.config import load_settings  # noqa: E402
from kminer.stack import embedded_stack  # noqa: E402
from temporal_client.runs import start_run  # noqa: E402

QUESTION = "Which suppliers of lithium carry geopolitical risk?"
HISTORY_TARGET_BYTES = 1_000_000
ACTIVITIES_TARGET = 15
ACTION_EVENTS = {
    EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED,
    EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
    EventType.EVENT_TYPE_MARKER_RECORDED,
    EventType.EVENT_TYPE_TIMER_STARTED,
    EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED,
    EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED,
    EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES,
    EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED,
}


async def measure_run(handle: WorkflowHandle) -> dict[str, Any]:
    events = 0
    size = 0
    actions = 0
    markers = 0
    activities: Counter[str] = Counter()
    async for event in handle.fetch_history_events():
        events += 1
        size += event.ByteSize()
        actions += event.event_type in ACTION_EVENTS
        if event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
            activities[event.activity_task_scheduled_event_attributes.activity_type.name] += 1
        elif event.event_type == EventType.EVENT_TYPE_MARKER_RECORDED:
            # Patch markers (workflow.patched) are markers too, but not local activities.
            markers += "local_activity" in event.marker_recorded_event_attributes.marker_name
    return {
        "events": events,
        "bytes": size,
        "actions": actions,
        "activities": sum(activities.values()),
        "local_activities": markers,
        "by_type": dict(activities.most_common()),
    }


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="kminer-bench-history-") as tmp:
        settings = replace(load_settings(Path(tmp) / "data"), temporal_address=None)
        async with embedded_stack(settings, with_api=False) as stack:
            runs = []
            for _ in range(args.runs):
                request = MiningRequest(
                    query=QUESTION,
                    domainTags=["supply_chain", "general_risk"],
                    maxIterations=args.max_iterations,
                    review="auto",
                )
                handle = await start_run(stack.client, settings.task_queue, request)
                await handle.result()
                runs.append(await measure_run(handle))
    first = runs[0]
    return {
        "measured": date.today().isoformat(),
        "max_iterations": args.max_iterations,
        "runs": len(runs),
        "history_bytes": max(r["bytes"] for r in runs),
        "history_events": round(statistics.mean(r["events"] for r in runs)),
        "actions_per_run": round(statistics.mean(r["actions"] for r in runs)),
        "activities_per_run": round(statistics.mean(r["activities"] for r in runs)),
        "local_activities_per_run": round(statistics.mean(r["local_activities"] for r in runs)),
        "activities_by_type": first["by_type"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--max-iterations", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-record", action="store_true", help="do not write results.json")
    args = parser.parse_args()
    figures = asyncio.run(measure(args))
    print(json.dumps(figures["activities_by_type"], indent=2))
    print(
        f"{figures['runs']} runs at maxIterations {figures['max_iterations']}: history "
        f"{figures['history_bytes']:,} bytes (largest), {figures['history_events']} events, "
        f"{figures['actions_per_run']} actions, {figures['activities_per_run']} activities "
        f"and {figures['local_activities_per_run']} local activities per run"
    )
    for name, value, target in (
        ("history_bytes", figures["history_bytes"], HISTORY_TARGET_BYTES),
        ("activities_per_run", figures["activities_per_run"], ACTIVITIES_TARGET),
    ):
        verdict = "PASS" if value <= target else "FAIL"
        print(f"{verdict}: {name} {value:,} (target <= {target:,})")
    if not args.no_record:
        record("history", figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
