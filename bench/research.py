"""The research cache: a cold run against a paraphrase that reuses its research.

    .venv/bin/python bench/research.py [--runs 3] [--no-record]

On the embedded stack (rules policy, review "auto", offline), each round asks a new
question cold in a fresh thread, then a paraphrase of it on the same thread. Figures:
wall time of each whole run (start to result), the research step's own time (the
research task's created_at → completed_at, workflow time), and how many times the search
backend was called during the cached run (`cached_search_calls`, target 0).

Then the plan against one search per question, on both labeled sets of bench/quality.py
(each question a real run, as `make quality` runs it): once with the research plan as
configured by default, once with `max_subtasks` 1, which leaves the plan's first
sub-question only (the question itself, searched once at the breadth discovery always
used). Printed and recorded: precision, recall and off-topic rate of each (under
`plan_vs_one_search`); the target is issue 11's, the plan must not lower precision.
`--no-quality` skips this part (about a minute).

Recorded in bench/results.json under `research`. A benchmark, not a test: it always exits
0 and says PASS/FAIL per target (issue 11 asks cache_speedup >= 10).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from datetime import date, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.results_file import record  # noqa: E402
from contracts.run import MiningRequest  # noqa: E402
from kminer.config import load_settings  # noqa: E402
from kminer.stack import embedded_stack  # noqa: E402
from temporal_client.runs import start_run  # noqa: E402
from workflows.mining import MiningWorkflow  # noqa: E402

PAIRS = [
    (
        "Which suppliers of lithium carry geopolitical risk?",
        "What lithium suppliers are exposed to geopolitical risks?",
    ),
    ("Who are Tesla's lithium suppliers?", "Which companies supply lithium to Tesla?"),
    (
        "Which companies run lithium brine projects in Argentina?",
        "Which firms operate lithium brine projects in Argentina?",
    ),
]
SPEEDUP_TARGET = 10.0
# The request's research config for "one search per question": the plan's first
# sub-question only (mining/research_plan.py puts the question itself first).
ONE_SEARCH = {"max_subtasks": 1}
QUALITY_KEYS = ("precision", "recall", "off_topic_rate", "claims")


def seconds_between(start: str, end: str | None) -> float:
    if not end:
        return 0.0
    return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()


async def one_run(stack: Any, settings: Any, query: str, tag: str) -> dict[str, Any]:
    request = MiningRequest(query=query, domainTags=[tag], review="auto")
    began = time.perf_counter()
    handle = await start_run(stack.client, settings.task_queue, request)
    await handle.result()
    wall = time.perf_counter() - began
    ws = await handle.query(MiningWorkflow.workspace)
    task = ws.research
    assert task is not None
    return {
        "wall_s": wall,
        "research_s": seconds_between(task.created_at, task.completed_at),
        "cache_hit": task.cacheHit,
        "similarity": task.similarity,
    }


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="kminer-bench-research-") as tmp:
        settings = replace(load_settings(Path(tmp) / "data"), temporal_address=None)
        async with embedded_stack(settings, with_api=False) as stack:
            calls: list[str] = []
            inner = stack.services.search.search

            def counted(query: str, max_results: int) -> list[dict[str, Any]]:
                calls.append(query)
                return inner(query, max_results)

            stack.services.search.search = counted
            # A first run loads spaCy and the embedder: not part of any figure.
            await one_run(stack, settings, "Which companies mine cobalt?", "warmup")
            rounds = []
            for i in range(args.runs):
                cold_q, warm_q = PAIRS[i % len(PAIRS)]
                tag = f"bench_{i}"
                calls.clear()
                cold = await one_run(stack, settings, cold_q, tag)
                cold["search_calls"] = len(calls)
                calls.clear()
                warm = await one_run(stack, settings, warm_q, tag)
                warm["search_calls"] = len(calls)
                rounds.append({"cold": cold, "cached": warm, "question": cold_q})
    cold_wall = statistics.median(r["cold"]["wall_s"] for r in rounds)
    warm_wall = statistics.median(r["cached"]["wall_s"] for r in rounds)
    cold_research = statistics.median(r["cold"]["research_s"] for r in rounds)
    warm_research = statistics.median(r["cached"]["research_s"] for r in rounds)
    return {
        "measured": date.today().isoformat(),
        "rounds": len(rounds),
        "cold_run_s": round(cold_wall, 3),
        "cached_run_s": round(warm_wall, 3),
        "cache_speedup": round(cold_wall / warm_wall, 2) if warm_wall else None,
        "cold_research_s": round(cold_research, 3),
        "cached_research_s": round(warm_research, 3),
        "research_speedup": round(cold_research / warm_research, 1) if warm_research else None,
        "cached_search_calls": sum(r["cached"]["search_calls"] for r in rounds),
        "cold_search_calls": sum(r["cold"]["search_calls"] for r in rounds),
        "cache_hits": sum(1 for r in rounds if r["cached"]["cache_hit"]),
        "per_round": [
            {
                "question": r["question"],
                "similarity": r["cached"]["similarity"],
                "cold_s": round(r["cold"]["wall_s"], 3),
                "cached_s": round(r["cached"]["wall_s"], 3),
            }
            for r in rounds
        ],
    }


def plan_vs_one_search() -> dict[str, Any]:
    """Per labeled set: the quality figures with the plan and with one search."""
    from bench.quality import run_set

    out: dict[str, Any] = {}
    for name in ("demo", "heldout"):
        plan = run_set(name, False)
        one = run_set(name, False, ONE_SEARCH)
        out[name] = {
            "plan": {k: plan[k] for k in QUALITY_KEYS},
            "one_search": {k: one[k] for k in QUALITY_KEYS},
        }
        print(
            f"{name}: with the plan precision {plan['precision']}, recall {plan['recall']}, "
            f"off-topic {plan['off_topic_rate']} ({plan['claims']} claims); one search "
            f"precision {one['precision']}, recall {one['recall']}, off-topic "
            f"{one['off_topic_rate']} ({one['claims']} claims)",
            flush=True,
        )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="question pairs to ask")
    parser.add_argument(
        "--no-quality", action="store_true", help="skip the plan against one search"
    )
    parser.add_argument("--no-record", action="store_true", help="do not write results.json")
    args = parser.parse_args()
    figures = asyncio.run(measure(args))
    print(json.dumps(figures, indent=2))
    checks: list[tuple[str, float, str, float]] = [
        ("cache_speedup", figures["cache_speedup"] or 0, ">=", SPEEDUP_TARGET),
        ("cached_search_calls", figures["cached_search_calls"], "<=", 0),
        ("cache_hits", figures["cache_hits"], ">=", figures["rounds"]),
    ]
    if not args.no_quality:
        compared = plan_vs_one_search()
        figures["plan_vs_one_search"] = compared
        for name, pair in compared.items():
            plan, one = pair["plan"]["precision"], pair["one_search"]["precision"]
            checks.append((f"{name} precision with the plan (one search's)", plan, ">=", one))
    for name, value, op, target in checks:
        ok = value >= target if op == ">=" else value <= target
        print(f"{'PASS' if ok else 'FAIL'}: {name} {value} (target {op} {target})")
    if not args.no_record:
        record("research", figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
