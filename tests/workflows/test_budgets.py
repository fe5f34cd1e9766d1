"""A model that keeps calling tools inside a `task` helper stops at the subagent's budget.

The chat model is a replayed OpenAI API (tests/support/fake_openai.py): discovery
spawns a general-purpose helper with `task`, and the helper asks for one more web search
on every turn, forever. The budget (workflow code, before each model call) stops the
discovery tree; the run completes with the research plan's evidence (partial results).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from temporalio.api.enums.v1 import EventType

from activities.metrics import MODEL_COST
from contracts.budget import Budget, Limits
from contracts.run import MiningRequest, Phase, Usage
from kminer.config import Settings
from kminer.stack import embedded_stack
from temporal_client.runs import start_run
from temporal_client.telemetry import drain_metrics
from tests.support.fake_openai import ChatModel, ServeFakeOpenAi, llm_settings, payload, text
from workflows.budget import PRICES_PER_MILLION, cost_usd

QUESTION = "Which suppliers of lithium carry geopolitical risk?"
HELPER_TASK = "Keep searching for more lithium suppliers until told to stop."
SUBAGENT_CALLS = 6


class LoopingModel(ChatModel):
    """Discovery hands work to a helper that never stops searching."""

    def answer(self, method: str, path: str, body: Any, headers: dict[str, str]) -> Any:
        messages = body["messages"]
        users = [text(m["content"]) for m in messages if m["role"] == "user"]
        if any(HELPER_TASK in u for u in users):
            self.requests.append({"path": path, "body": body, "helper": True})
            n = sum(1 for m in messages if m.get("role") == "assistant")
            return 200, self.reply(None, [("web_search", {"query": f"lithium supplier {n}"})])
        system = text(messages[0]["content"])
        if "You are the discovery subagent" in system:
            self.requests.append({"path": path, "body": body})
            called = any(m.get("role") == "assistant" for m in messages)
            if not called:
                task = {"subagent_type": "general-purpose", "description": HELPER_TASK}
                return 200, self.reply(None, [("task", task)])
            return 200, self.reply(json.dumps({"summary": "helper done", "notes": []}))
        return super().answer(method, path, body, headers)


async def test_a_looping_task_helper_stops_at_the_budget_and_the_run_completes(
    settings: Settings, fake_openai: ServeFakeOpenAi
) -> None:
    model = LoopingModel()
    llm = llm_settings(settings, fake_openai(model))
    budget = Budget(subagent=Limits(modelCalls=SUBAGENT_CALLS))
    drain_metrics()  # earlier runs of this process are counted before we look
    cost_before = MODEL_COST.labels(model="gpt-4o-mini")._value.get()
    async with embedded_stack(llm, with_api=False) as stack:
        handle = await start_run(
            stack.client, llm.task_queue,
            MiningRequest(query=QUESTION, domainTags=["supply_chain"], review="auto",
                          budget=budget),
        )  # fmt: skip
        result = await handle.result()
        searches = 0
        async for event in handle.fetch_history_events():
            if event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
                name = event.activity_task_scheduled_event_attributes.activity_type.name
                searches += name == "web_search"

    assert result.phase == Phase.COMPLETED
    helper_calls = [r for r in model.requests if r.get("helper")]
    assert helper_calls, "the helper ran"
    discovery = result.usageBySubagent["discovery"]
    # Exactly the budget: one discovery call, then the helper until the limit.
    assert discovery.modelCalls == SUBAGENT_CALLS
    assert len(helper_calls) == SUBAGENT_CALLS - 1
    assert searches == SUBAGENT_CALLS - 1, "no tool call past the budget"
    assert any(s.startswith("discovery:") and "6 model calls" in s for s in result.budgetStops)
    # Partial results: the research plan's evidence still became candidates.
    assert result.candidateAssets, "the run went on with what discovery had"
    # The other subagents had their own budgets and finished.
    assert {"enrichment", "validation"} <= set(result.usageBySubagent)
    assert not any(s.startswith(("enrichment", "validation")) for s in result.budgetStops)
    assert result.usage.modelCalls >= discovery.modelCalls + 2
    assert result.usage.costUsd is not None and result.usage.costUsd > 0
    assert discovery.costUsd == cost_usd("gpt-4o-mini", discovery)
    drain_metrics()
    grown = MODEL_COST.labels(model="gpt-4o-mini")._value.get() - cost_before
    assert grown == pytest.approx(result.usage.costUsd, abs=1e-6), "the cost reached /metrics"
    # The first helper request carried the helper's task as its human turn.
    first = helper_calls[0]["body"]["messages"]
    assert any(HELPER_TASK in text(m["content"]) for m in first if m["role"] == "user")
    assert payload  # the shared replay helpers are the LLM test's own


def test_cost_is_estimated_from_the_price_table() -> None:
    usage = Usage(inputTokens=1_000_000, outputTokens=500_000)
    assert cost_usd("gpt-4o-mini", usage) == pytest.approx(0.15 + 0.30)
    assert cost_usd("rules", usage) == 0.0
    assert cost_usd("some-unpriced-model", usage) is None
    assert set(PRICES_PER_MILLION) >= {"rules", "gpt-4o-mini"}
