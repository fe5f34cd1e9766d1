"""The offline rules policy is a real chat model that sequences the same tools an LLM has."""

from __future__ import annotations

import json

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from kminer.model_provider import build_model_provider
from workflows import prompts
from workflows.agents.policy import RulesPolicyModel


def discovery_start() -> list:
    return [
        SystemMessage(content=prompts.DISCOVERY),
        HumanMessage(
            content=prompts.task_message(
                "Collect raw signals.",
                {"query": "lithium risk", "domainTags": ["supply_chain"], "maxIterations": 2},
            )
        ),
    ]


def test_the_provider_gives_the_rules_model_without_a_key() -> None:
    model = build_model_provider()("rules")
    assert isinstance(model, RulesPolicyModel) and isinstance(model, BaseChatModel)


def test_discovery_plans_then_searches_dkg_and_web_in_one_turn() -> None:
    reply = RulesPolicyModel().invoke(discovery_start())
    names = [c["name"] for c in reply.tool_calls]
    assert names == ["write_todos", "dkg_find_related_assets", "web_search"]
    search = next(c for c in reply.tool_calls if c["name"] == "web_search")
    # Breadth grows with maxIterations: 4 + 2 per iteration passages to read.
    assert search["args"] == {"query": "lithium risk", "maxResults": 8}
    assert reply.usage_metadata["input_tokens"] > 0


def test_discovery_extracts_statements_from_what_the_search_found() -> None:
    first = RulesPolicyModel().invoke(discovery_start())
    hits = {
        "success": True,
        "results": [
            {"url": "https://x.example/a", "content": "text A", "title": "A",
             "passageId": "d1:0", "start": 120, "published": "2025-01-02"},
            {"url": "https://x.example/b", "content": "text B"},
        ],
    }  # fmt: skip
    answers = [
        ToolMessage(
            content=json.dumps(
                hits if c["name"] == "web_search" else {"success": True, "results": []}
            ),
            tool_call_id=c["id"],
            name=c["name"],
        )
        for c in first.tool_calls
    ]
    second = RulesPolicyModel().invoke([*discovery_start(), first, *answers])
    extract = next(c for c in second.tool_calls if c["name"] == "extract_statements")
    # Passage provenance goes with the text, and the question scores relevance.
    assert extract["args"]["documents"] == [
        {"text": "text A", "source": "https://x.example/a", "title": "A", "passageId": "d1:0",
         "start": 120, "published": "2025-01-02"},
        {"text": "text B", "source": "https://x.example/b"},
    ]  # fmt: skip
    assert extract["args"]["query"] == "lithium risk"


def test_the_final_answer_is_json_with_summary_and_notes() -> None:
    messages = discovery_start()
    for step in range(3):
        messages.append(
            AIMessage(content="", tool_calls=[{"name": "noop", "args": {}, "id": f"s{step}"}])
        )
    reply = RulesPolicyModel().invoke(messages)
    body = json.loads(reply.content)
    assert set(body) == {"summary", "notes"} and body["notes"]
