"""The demo question mined by a real model behind an OpenAI-compatible server (issue 25).

    KM_BENCH_MODEL_URL=http://127.0.0.1:8080/v1 [KM_BENCH_MODEL=<name>] \\
        .venv/bin/python bench/real_model.py [--no-record]

Mines the demo question on the embedded stack with the model at KM_BENCH_MODEL_URL
(KM_BENCH_MODEL names it; unset, the server's first listed model), the offline MiniLM
for relevance, and the worker's KM_MODEL_* limits (a small model on CPU wants
KM_MODEL_CALL_TIMEOUT_SECONDS=1200 KM_MODEL_HEARTBEAT_SECONDS=60). Prints the run's
phase and wall time, model calls, tokens in and out, the tool-schema bytes each
subagent's calls carried (read from the model-call activities' inputs in the run's
history), tool calls taken from a reply's text and replies refused, and the degraded
steps; the figures go to bench/results.json under `real_model`. Nothing is downloaded or
installed: without KM_BENCH_MODEL_URL it says so in one line and exits 0.
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

from bench.results_file import record  # noqa: E402
from contracts.run import MiningRequest  # noqa: E402
from kminer.config import load_settings  # noqa: E402
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


async def schema_bytes(handle: WorkflowHandle) -> dict[str, list[int]]:
    """Bytes of the tool schemas each model call carried, by the subagent that made it."""
    by_role: dict[str, list[int]] = {}
    async for event in handle.fetch_history_events():
        if event.event_type != EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
            continue
        attributes = event.activity_task_scheduled_event_attributes
        if attributes.activity_type.name != MODEL_CALL:
            continue
        call = json.loads(attributes.input.payloads[0].data)
        if not call.get("tool_schemas"):
            continue  # the research planner binds none
        found = ROLE.search(json.dumps(call.get("messages", [])[:1]))
        role = found.group(1) if found else "unknown"
        by_role.setdefault(role, []).append(len(json.dumps(call.get("tool_schemas") or [])))
    return by_role


async def measure(url: str, model: str) -> dict[str, Any]:
    # ChatOpenAI wants a key; a local server ignores it.
    os.environ.setdefault("OPENAI_API_KEY", "local")
    with tempfile.TemporaryDirectory(prefix="kminer-bench-real-model-") as tmp:
        base = load_settings(Path(tmp) / "data")
        settings = replace(
            base, temporal_address=None, model_name=model, openai_base_url=url,
            embeddings="minilm",
        )  # fmt: skip
        async with embedded_stack(settings, with_api=False) as stack:
            began = time.monotonic()
            handle = await start_run(
                stack.client, settings.task_queue,
                MiningRequest(query=QUESTION, domainTags=TAGS, review="auto"),
            )  # fmt: skip
            result = await handle.result()
            wall = time.monotonic() - began
            schemas = await schema_bytes(handle)
    usage = result.usage
    return {
        "measured": date.today().isoformat(),
        "model": model,
        "limits": settings.model_limits.model_dump(),
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
        "answer": result.answer.text,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--no-record", action="store_true", help="do not write results.json")
    args = parser.parse_args()
    url = os.environ.get("KM_BENCH_MODEL_URL")
    if not url:
        print("real_model: no model configured (set KM_BENCH_MODEL_URL to a /v1 URL); skipped")
        return 0
    model = model_name(url)
    figures = asyncio.run(measure(url, model))
    schemas = ", ".join(f"{r} {b:,} B" for r, b in figures["tool_schema_bytes_per_call"].items())
    degraded = "; ".join(f"{s['step']} ({s['reason']})" for s in figures["degraded_steps"])
    print(
        f"real_model {model}: {figures['phase']} in {figures['wall_seconds']} s; "
        f"{figures['model_calls']} model calls, {figures['input_tokens']:,} tokens in, "
        f"{figures['output_tokens']:,} out; tool schemas per call (largest): {schemas}; "
        f"{figures['tool_calls_from_text']} tool calls taken from text, "
        f"{figures['replies_refused']} replies refused; degraded: {degraded or 'none'}; "
        f"{figures['candidates']} candidates"
    )
    if not args.no_record:
        record("real_model", figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
