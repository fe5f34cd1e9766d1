"""The demo question and one question of each labeled set mined by a real model (issue 25).

    KM_BENCH_MODEL_URL=http://127.0.0.1:8080/v1 [KM_BENCH_MODEL=<name>] \\
        .venv/bin/python bench/real_model.py [--set PATH ...] [--no-sets] [--no-demo] [--no-record]

Mines the demo question on the embedded stack with the model at KM_BENCH_MODEL_URL
(KM_BENCH_MODEL names it; unset, the server's first listed model), the offline MiniLM
for relevance, and the worker's KM_MODEL_* limits (a small model on CPU wants
KM_MODEL_CALL_TIMEOUT_SECONDS=1200 KM_MODEL_HEARTBEAT_SECONDS=60). Then, for each set
in ../shared/quality-sets/ (or each --set; none with --no-sets), the set's first
answerable question on a data dir of its own, loaded as a user loads it (`kminer dkg
load`, `kminer corpus add`; bench/real_model_sets.py), scored by the sets' score.py.
Prints, per question, the run's phase and wall time, model calls, tokens in and out, the
tool-schema bytes each subagent's calls carried (read from the model-call activities'
inputs in the run's history), tool calls taken from a reply's text and replies refused,
the degraded steps, and for a set's question its quality line (gold-pair recall,
off-topic, answered). The figures go to bench/results.json under `real_model` (the
demo's at the top, each set's question under `questions`), merged into what is there:
a question replaces only the earlier entry of its own set, and `--no-demo` (the sets'
questions only, so one set can be run alone) keeps the demo's earlier figures. Nothing
is downloaded or installed here: without KM_BENCH_MODEL_URL it says so in one line and
exits 0 (bench/local_model.py, `make real-model`, serves a model of its own first).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
import tempfile
import time
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from temporalio.api.enums.v1 import EventType  # noqa: E402
from temporalio.client import WorkflowHandle  # noqa: E402

from bench.real_model_sets import first_answerable, score_one  # noqa: E402
from bench.results_file import read_results, write_results  # noqa: E402
from bench.shared_sets import line, load_set, set_dirs  # noqa: E402
from contracts.activity_names import PROPOSE_KNOWLEDGE_ASSETS  # noqa: E402
from contracts.run import KnowledgeMinerResponse, MiningRequest  # noqa: E402
from kminer.config import Settings, load_settings  # noqa: E402
from kminer.stack import embedded_stack  # noqa: E402
from temporal_client.runs import start_run  # noqa: E402

QUESTION = "Which suppliers of lithium carry geopolitical risk?"
TAGS = ["supply_chain", "general_risk"]
MODEL_CALL = "deepagents.invoke_model"
ROLE = re.compile(r"You are the ([a-z-]+) subagent")


def model_name(url: str) -> str:
    """KM_BENCH_MODEL, else the first model the server lists."""
    named = os.environ.get("KM_BENCH_MODEL")
    if named:
        return named
    listed = httpx.get(f"{url.rstrip('/')}/models", timeout=10).json()
    return str(listed["data"][0]["id"])


def propose_call(args: dict[str, Any], query: str) -> dict[str, Any]:
    """What one propose_knowledge_assets call was given, as resolved for the activity:
    a model's arguments are what set how many candidates a run gets."""
    return {
        "statements": len(args.get("statements") or []),
        "maxCandidates": args.get("maxCandidates"),
        "links": len(args.get("links") or {}),
        "query_is_the_question": args.get("query") == query,
        "domainTags": args.get("domainTags") or [],
    }


async def history_figures(
    handle: WorkflowHandle, query: str
) -> tuple[dict[str, list[int]], list[dict[str, Any]]]:
    """Bytes of the tool schemas each model call carried, by the subagent that made it,
    and the arguments of each propose call, read from the run's scheduled activities."""
    by_role: dict[str, list[int]] = {}
    proposes: list[dict[str, Any]] = []
    async for event in handle.fetch_history_events():
        if event.event_type != EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
            continue
        attributes = event.activity_task_scheduled_event_attributes
        name = attributes.activity_type.name
        if name == PROPOSE_KNOWLEDGE_ASSETS:
            proposes.append(propose_call(json.loads(attributes.input.payloads[0].data), query))
        if name != MODEL_CALL:
            continue
        call = json.loads(attributes.input.payloads[0].data)
        if not call.get("tool_schemas"):
            continue  # the research planner binds none
        found = ROLE.search(json.dumps(call.get("messages", [])[:1]))
        role = found.group(1) if found else "unknown"
        by_role.setdefault(role, []).append(len(json.dumps(call.get("tool_schemas") or [])))
    return by_role, proposes


def model_settings(data_dir: Path, url: str, model: str) -> Settings:
    """The data dir's settings with the served model and the offline relevance model."""
    base = load_settings(data_dir)
    return replace(
        base, temporal_address=None, model_name=model, openai_base_url=url, embeddings="minilm"
    )


async def mine(
    settings: Settings, query: str, tags: list[str]
) -> tuple[dict[str, Any], KnowledgeMinerResponse]:
    """One question mined on its own embedded stack: its figures and its result."""
    async with embedded_stack(settings, with_api=False) as stack:
        began = time.monotonic()
        handle = await start_run(
            stack.client, settings.task_queue,
            MiningRequest(query=query, domainTags=tags, review="auto"),
        )  # fmt: skip
        result = await handle.result()
        wall = time.monotonic() - began
        schemas, proposes = await history_figures(handle, query)
    usage = result.usage
    figures = {
        "question": query,
        "phase": result.phase.value,
        "wall_seconds": round(wall, 1),
        "model_calls": usage.modelCalls,
        "input_tokens": usage.inputTokens,
        "output_tokens": usage.outputTokens,
        "tool_schema_bytes_per_call": {r: max(sizes) for r, sizes in sorted(schemas.items())},
        "tool_calls_from_text": usage.toolCallsFromText,
        "replies_refused": usage.repliesRefused,
        "degraded_steps": [s.model_dump() for s in result.degradedSteps],
        "candidates": len(result.candidateAssets),
        "propose_calls": proposes,
        "answer": result.answer.text,
    }
    return figures, result


async def measure(url: str, model: str) -> dict[str, Any]:
    """The demo question, on a fresh data dir of its own."""
    with tempfile.TemporaryDirectory(prefix="kminer-bench-real-model-") as tmp:
        settings = model_settings(Path(tmp) / "data", url, model)
        figures, _ = await mine(settings, QUESTION, TAGS)
    return {
        "measured": date.today().isoformat(),
        "model": model,
        "limits": settings.model_limits.model_dump(),
        **figures,
    }


async def measure_set(url: str, model: str, set_dir: Path) -> dict[str, Any]:
    """The set's first answerable question, with the scorer's figures under `quality`."""
    index, question = first_answerable(set_dir)
    with tempfile.TemporaryDirectory(prefix=f"kminer-bench-real-{set_dir.name}-") as tmp:
        data_dir = Path(tmp) / "data"
        load_set(set_dir, data_dir)
        figures, result = await mine(
            model_settings(data_dir, url, model), question["q"], question.get("tags", [])
        )
        quality = score_one(set_dir, question, result.model_dump_json(), Path(tmp) / "out")
    # Dated and named per question: a set run alone is recorded beside older entries.
    return {
        "set": set_dir.name,
        "index": index,
        "measured": date.today().isoformat(),
        "model": model,
        **figures,
        "quality": quality,
    }


async def measure_all(
    url: str, model: str, sets: list[Path], *, demo: bool
) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """The demo question (unless not asked) and each set's, printed as they finish."""
    figures = None
    if demo:
        figures = await measure(url, model)
        print(model_line(f"{model} demo", figures), flush=True)
    questions = []
    for set_dir in sets:
        one = await measure_set(url, model, set_dir)
        questions.append(one)
        print(model_line(f"{model} {one['set']} q{one['index']}", one), flush=True)
        # The shared sets' own line, with this question's wall time.
        print(f"  quality {line(one['set'], one['quality'] | {'seconds': one['wall_seconds']})}")
    return figures, questions


def merged(
    earlier: dict[str, Any], demo: dict[str, Any] | None, questions: list[dict[str, Any]]
) -> dict[str, Any]:
    """The `real_model` section with this run's figures over the earlier ones.

    One set is often run alone (an hour a question on CPU): its question must not erase
    the other sets' entries, nor a run without the demo the demo's figures.
    """
    section = {**earlier, **(demo or {})}
    run = {q["set"] for q in questions}
    kept = [q for q in earlier.get("questions", []) if q.get("set") not in run]
    section["questions"] = sorted(kept + questions, key=lambda q: str(q.get("set")))
    return section


def record_run(demo: dict[str, Any] | None, questions: list[dict[str, Any]]) -> None:
    """Merge this run into bench/results.json, every other benchmark's figures kept."""
    results = read_results()
    results["real_model"] = merged(results.get("real_model", {}), demo, questions)
    write_results(results)


def model_line(label: str, figures: dict[str, Any]) -> str:
    schemas = ", ".join(f"{r} {b:,} B" for r, b in figures["tool_schema_bytes_per_call"].items())
    degraded = "; ".join(f"{s['step']} ({s['reason']})" for s in figures["degraded_steps"])
    proposes = "; ".join(
        f"{c['statements']} statements, maxCandidates {c['maxCandidates']}, "
        f"{'the question' if c['query_is_the_question'] else 'another query'}"
        for c in figures.get("propose_calls", [])
    )
    return (
        f"real_model {label}: {figures['phase']} in {figures['wall_seconds']} s; "
        f"{figures['model_calls']} model calls, {figures['input_tokens']:,} tokens in, "
        f"{figures['output_tokens']:,} out; tool schemas per call (largest): {schemas or 'none'}; "
        f"{figures['tool_calls_from_text']} tool calls taken from text, "
        f"{figures['replies_refused']} replies refused; degraded: {degraded or 'none'}; "
        f"{figures['candidates']} candidates; propose calls: {proposes or 'none'}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--set",
        action="append",
        type=Path,
        metavar="PATH",
        help="a labeled set folder (repeatable; default: every shared set)",
    )
    parser.add_argument("--sets", action="store_true", help="every shared set (the default)")
    parser.add_argument("--no-sets", action="store_true", help="the demo question only")
    parser.add_argument(
        "--no-demo", action="store_true", help="the sets' questions only, not the demo question"
    )
    parser.add_argument("--no-record", action="store_true", help="do not write results.json")
    args = parser.parse_args()
    if args.no_demo and args.no_sets:
        parser.error("--no-demo with --no-sets leaves nothing to mine")
    url = os.environ.get("KM_BENCH_MODEL_URL")
    if not url:
        print("real_model: no model configured (set KM_BENCH_MODEL_URL to a /v1 URL); skipped")
        return 0
    # ChatOpenAI wants a key; a local server ignores it.
    os.environ.setdefault("OPENAI_API_KEY", "local")
    model = model_name(url)
    sets = [] if args.no_sets else [p.resolve() for p in args.set or set_dirs()]
    # One event loop for every question: the OpenAI client keeps its HTTP connections
    # (langchain_openai caches one per base URL), and a second asyncio.run would find
    # them bound to the first, closed loop ("Event loop is closed" on its first call).
    figures, questions = asyncio.run(measure_all(url, model, sets, demo=not args.no_demo))
    if not args.no_record:
        record_run(figures, questions)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
