"""A whole run against a small local model's replies (issue 25): tool calls written as text
are made or refused, never taken as an answer; a failing model degrades its step, never
the run; a slow generation keeps heartbeating; each subagent's call stays small.

The model is tests/support/fake_openai.py's `SmallModel`: the turns of `ChatModel`, written
the way a 1.5B model served by llama.cpp writes them."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

import pytest
from temporalio.worker import Replayer

from contracts.model_calls import ModelLimits
from contracts.run import KnowledgeMinerResponse, MiningRequest, Phase, Workspace
from kminer.config import Settings
from kminer.stack import embedded_stack
from kminer.worker import deepagents_plugin
from temporal_client.runs import start_run
from tests.support.fake_openai import ServeFakeOpenAi, SmallModel, llm_settings, payload, text
from workflows.mining import MiningWorkflow

QUESTION = "Which suppliers of lithium carry geopolitical risk?"
MAX_TOOL_SCHEMA_BYTES = 4096


async def _mine(
    settings: Settings, request: MiningRequest | None = None
) -> tuple[KnowledgeMinerResponse, Workspace]:
    """The demo question (or `request`) mined with `settings`; its history replays on the
    current code."""
    request = request or MiningRequest(query=QUESTION, domainTags=["supply_chain"], review="auto")
    async with embedded_stack(settings, with_api=False) as stack:
        handle = await start_run(stack.client, settings.task_queue, request)
        result = await handle.result()
        workspace = await handle.query(MiningWorkflow.workspace)
        history = await handle.fetch_history()
    replayer = Replayer(workflows=[MiningWorkflow], plugins=[deepagents_plugin(settings)])
    replayed = await replayer.replay_workflow(history, raise_on_replay_failure=False)
    assert replayed.replay_failure is None, replayed.replay_failure
    return result, workspace


def _role(request: dict[str, Any]) -> str:
    system = text(request["body"]["messages"][0]["content"])
    found = re.search(r"You are the ([a-z-]+) subagent", system)
    return found.group(1) if found else ""


def _corrected(request: dict[str, Any]) -> bool:
    """Whether the request's last turn is the worker's correction of a refused reply."""
    return "could not be used" in text(request["body"]["messages"][-1]["content"])


def _of(model: SmallModel, role: str) -> list[dict[str, Any]]:
    return [r["body"] for r in model.requests if _role(r) == role]


def _answered(body: dict[str, Any]) -> dict[str, str]:
    """The tool calls a request's conversation answered: call id -> tool name."""
    calls = {c["id"]: c["function"]["name"] for m in body["messages"] if m["role"] == "assistant"
             for c in m.get("tool_calls") or []}  # fmt: skip
    return {m["tool_call_id"]: calls[m["tool_call_id"]] for m in body["messages"]
            if m["role"] == "tool" and m["tool_call_id"] in calls}  # fmt: skip


def _claims(result: KnowledgeMinerResponse) -> list[dict[str, Any]]:
    return [a for a in result.candidateAssets if a["candidateKind"] == "claim"]


@pytest.fixture
def serve(settings: Settings, fake_openai: ServeFakeOpenAi) -> Any:
    """serve(model, limits) -> the test's settings with the model behind OPENAI_BASE_URL."""
    models: list[SmallModel] = []

    def settings_for(model: SmallModel, limits: ModelLimits | None = None) -> Settings:
        models.append(model)
        llm = llm_settings(settings, fake_openai(model))
        return replace(llm, model_limits=limits or ModelLimits())

    yield settings_for
    for model in models:
        model.release()  # no stalled answer outlives the test


async def test_tool_calls_written_as_text_are_made_and_never_end_a_subagent(serve: Any) -> None:
    model = SmallModel(shapes={"discovery": ["fenced"], "enrichment": ["tagged"],
                               "validation": ["bare"]})  # fmt: skip
    result, workspace = await _mine(serve(model))

    assert result.phase == Phase.COMPLETED and result.degradedSteps == []
    # Each call written as text was made: the role's next turn carries the tool's answer.
    for role, tool in (("discovery", "web_search"), ("enrichment", "propose_knowledge_assets"),
                       ("validation", "score_candidates")):  # fmt: skip
        answered = _answered(_of(model, role)[1])
        assert [n for i, n in answered.items() if i.startswith("call_text_")] == [tool], role
        assert workspace.usageBySubagent[role].toolCallsFromText == 1, role
    assert result.usage.toolCallsFromText == 3 and result.usage.repliesRefused == 0
    # No subagent ended on its text: discovery went on to extract, enrichment's claims
    # were proposed from those statements and scored.
    assert "extract_statements" in _answered(_of(model, "discovery")[-1]).values()
    claims = _claims(result)
    assert claims and all(c["trustSignals"]["confidence"] is not None for c in claims)


async def test_each_subagent_is_shown_its_own_tools_in_at_most_4_kb(serve: Any) -> None:
    model = SmallModel()
    await _mine(serve(model))

    shown: dict[str, set[str]] = {}
    for request in model.requests:
        tools = request["body"].get("tools")
        if not tools:
            continue  # the research planner binds none
        size = len(json.dumps(tools))
        assert size <= MAX_TOOL_SCHEMA_BYTES, (_role(request), size)
        shown.setdefault(_role(request), set()).update(t["function"]["name"] for t in tools)
    assert shown["discovery"] >= {"web_search", "extract_statements", "dkg_find_related_assets"}
    assert "propose_knowledge_assets" in shown["enrichment"]
    assert "score_candidates" in shown["validation"]
    assert not any({"ls", "glob", "grep", "edit_file"} & names for names in shown.values())


async def test_an_unusable_reply_is_refused_once_and_the_retry_is_used(serve: Any) -> None:
    # Discovery's call written without its arguments; enrichment's cut at the token limit.
    model = SmallModel(shapes={"discovery": ["bad-args"], "enrichment": ["cut"]})
    result, workspace = await _mine(serve(model))

    assert result.phase == Phase.COMPLETED and result.degradedSteps == []
    assert [_role(r) for r in model.requests if _corrected(r)] == ["discovery", "enrichment"]
    discovery = next(r for r in model.requests if _role(r) == "discovery" and _corrected(r))
    assert "query" in text(discovery["body"]["messages"][-1]["content"]), "says what is wrong"
    assert result.usage.repliesRefused == 2
    assert workspace.usageBySubagent["enrichment"].repliesRefused == 1
    assert _claims(result), "the retried calls went on to propose"


async def test_a_discovery_that_never_makes_a_usable_call_degrades_to_the_rules_policy(
    serve: Any,
) -> None:
    model = SmallModel(shapes={"discovery": ["bad-args", "bad-args"]})
    result, workspace = await _mine(serve(model))

    assert result.phase == Phase.COMPLETED
    (step,) = workspace.degradedSteps
    assert step.step == "discovery" and step.fallback == "rules policy"
    assert "could not be used" in step.reason
    # The rules policy searched and extracted in its place; the run went on with the model.
    assert _claims(result) and _of(model, "enrichment")
    # Every reply the model generated counts, discovery's two unusable ones too (they were
    # paid for); the policy's turns in discovery's place are no model calls.
    assert len(_of(model, "discovery")) == 2
    assert result.usage.modelCalls == len(model.requests)
    assert result.usage.toolCalls > 0


async def test_a_model_that_keeps_failing_degrades_its_steps_and_the_run_completes(
    serve: Any,
) -> None:
    # The planner's and enrichment's calls never answer within the call's 3 s, twice.
    model = SmallModel(stall={"research-planner": (99, 30.0), "enrichment": (99, 30.0)})
    limits = ModelLimits(callSeconds=3, heartbeatSeconds=1, attempts=2)
    result, workspace = await _mine(serve(model, limits))

    assert result.phase == Phase.COMPLETED
    assert model.calls_by_role["enrichment"] == 2, "the call's attempts, then no more"
    steps = {s.step: s for s in result.degradedSteps}
    assert steps.keys() == {"research-planner", "enrichment"}
    assert steps["research-planner"].fallback == "rules plan"
    assert steps["enrichment"].fallback == "rules policy"
    assert "timeout" in steps["enrichment"].reason.lower()
    assert workspace.degradedSteps == result.degradedSteps
    # The answer and the report say so.
    assert "The enrichment step degraded" in result.answer.text
    assert "The enrichment step degraded" in result.synthesizedReport
    # What discovery gathered before was kept: the rules policy proposed from it.
    enrichment = next(b for b in model.received if _role({"body": b}) == "enrichment")["messages"]
    task = payload(text(next(m["content"] for m in enrichment if m["role"] == "user")))
    assert task["statements"]
    claims = _claims(result)
    assert claims and all(c["provenance"]["evidence"] for c in claims)
    assert _of(model, "validation"), "the run went on with the model after the degraded step"


async def test_a_generation_longer_than_the_heartbeat_timeout_is_not_retried(
    serve: Any,
) -> None:
    # Validation's first call generates for 12 s; the heartbeat timeout is 3 s.
    model = SmallModel(stall={"validation": (1, 12.0)})
    limits = ModelLimits(callSeconds=60, heartbeatSeconds=3, attempts=3)
    result, _ = await _mine(serve(model, limits))

    assert result.phase == Phase.COMPLETED and result.degradedSteps == []
    # Its two turns (score, then the final answer), each called once: no attempt timed out.
    assert model.calls_by_role["validation"] == 2


async def test_a_requests_own_limits_apply_to_its_model_calls(serve: Any) -> None:
    # The worker keeps its defaults (5 minutes a call); this request allows 3 s, twice.
    model = SmallModel(stall={"enrichment": (99, 30.0)})
    limits = ModelLimits(callSeconds=3, heartbeatSeconds=1, attempts=2)
    request = MiningRequest(
        query=QUESTION, domainTags=["supply_chain"], review="auto", modelLimits=limits
    )
    result, _ = await _mine(serve(model), request)

    assert result.phase == Phase.COMPLETED
    assert model.calls_by_role["enrichment"] == 2, "the request's attempts, then no more"
    assert [s.step for s in result.degradedSteps] == ["enrichment"]
    assert "timeout" in result.degradedSteps[0].reason.lower()
