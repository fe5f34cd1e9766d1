"""What a model call is sent of its conversation (activities/model_view.py): the answers of
`extract_statements` as compact rows, everything else as the workflow holds it."""

from __future__ import annotations

import json

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from activities.model_view import model_view
from contracts.activity_names import EXTRACT_STATEMENTS, WEB_SEARCH

FOUND = {
    "subject": "Orkney Ferries", "subjectUal": "did:dkg:otp/0xabc/7",
    "subjectType": "Organization", "predicate": "partnerOf", "object": "Hoy Shipping",
    "objectUal": "did:dkg:otp/0xabc/9", "objectType": "Organization",
    "sentence": "Orkney Ferries signed a charter with Hoy Shipping.", "source": "https://x.test/a",
    "passageId": "p-3", "start": 120, "end": 172, "published": "2026-01-02",
    "negated": False, "hedged": True, "method": "dependency", "relevance": 0.61,
}  # fmt: skip


def answer(name: str, content: str) -> ToolMessage:
    return ToolMessage(content=content, name=name, tool_call_id="call-1")


def test_found_statements_reach_the_model_as_their_ends_relation_and_relevance() -> None:
    body = {"success": True, "results": [FOUND], "metadata": {"durationMs": 12}}
    held = answer(EXTRACT_STATEMENTS, json.dumps(body))
    [sent] = model_view([held])
    shown = json.loads(sent.content)
    assert shown["results"] == [
        {"id": 0, "subject": "Orkney Ferries", "predicate": "partnerOf",
         "object": "Hoy Shipping", "relevance": 0.61, "hedged": True}
    ]  # fmt: skip
    assert shown["metadata"] == {"durationMs": 12} and shown["success"] is True
    # The workflow's own message keeps every statement whole: its statements come from it.
    assert json.loads(held.content)["results"] == [FOUND]


def test_every_other_message_and_an_answer_that_is_no_statement_list_go_as_they_are() -> None:
    messages = [
        SystemMessage("You are the discovery subagent"),
        HumanMessage("Find who charters ferries"),
        AIMessage(content="", tool_calls=[{"name": WEB_SEARCH, "args": {}, "id": "c"}]),
        answer(WEB_SEARCH, json.dumps({"success": True, "results": [{"url": "u"}]})),
        answer(EXTRACT_STATEMENTS, "not JSON at all"),
        answer(EXTRACT_STATEMENTS, json.dumps({"success": False, "error": "over budget"})),
        answer(EXTRACT_STATEMENTS, json.dumps({"success": True, "results": ["odd", FOUND]})),
    ]
    assert [m.content for m in model_view(messages)] == [m.content for m in messages]
