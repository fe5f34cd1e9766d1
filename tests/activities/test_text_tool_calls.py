"""How a reply that writes its tool call as text is read (activities/text_tool_calls.py)."""

from __future__ import annotations

import json

import pytest

from activities.text_tool_calls import (
    call_format,
    read_reply,
    read_text_calls,
    tool_schemas_by_name,
)
from contracts.tools import FindRelatedArgs, SearchArgs

TOOLS = [
    {"type": "function", "function": {"name": "web_search", "description": "Search.",
                                      "parameters": SearchArgs.model_json_schema()}},
    {"type": "function", "function": {"name": "dkg_find_related_assets", "description": "Find.",
                                      "parameters": FindRelatedArgs.model_json_schema()}},
]  # fmt: skip
SCHEMAS = tool_schemas_by_name(TOOLS)
CALL = {"query": "lithium export controls", "maxResults": 5}


@pytest.mark.parametrize(
    "text",
    [
        # Qwen2.5-Coder through llama.cpp: a fenced block, often with a line of prose.
        "```json\n" + json.dumps({"name": "web_search", "arguments": CALL}, indent=2) + "\n```",
        "I will search first.\n```\n" + json.dumps({"name": "web_search", "arguments": CALL})
        + "\n```",
        json.dumps({"name": "web_search", "parameters": CALL}),
        "<tool_call>\n" + json.dumps({"name": "web_search", "arguments": CALL}) + "\n</tool_call>",
        # OpenAI's own shape, arguments as a JSON string, written out as text.
        json.dumps({"function": {"name": "web_search", "arguments": json.dumps(CALL)}}),
        "Calling the tool: " + json.dumps({"name": "web_search", "arguments": CALL}) + " now.",
    ],
)
def test_a_call_written_as_text_in_any_common_shape_is_read(text: str) -> None:
    reading = read_text_calls(text, SCHEMAS)
    assert reading.problem is None
    [call] = reading.calls
    assert call["name"] == "web_search" and call["args"] == CALL
    assert call["id"].startswith("call_text_") and call["type"] == "tool_call"


def test_several_calls_are_read_in_order_each_with_its_own_id() -> None:
    text = "\n".join(
        "<tool_call>" + json.dumps({"name": n, "arguments": a}) + "</tool_call>"
        for n, a in (("dkg_find_related_assets", {"text": "Tianqi"}), ("web_search", CALL))
    )
    calls = read_text_calls(text, SCHEMAS).calls
    assert [c["name"] for c in calls] == ["dkg_find_related_assets", "web_search"]
    assert len({c["id"] for c in calls}) == 2
    assert read_text_calls(text, SCHEMAS).calls == calls, "the same reply, the same ids"


def test_a_final_answer_is_not_a_call() -> None:
    final = json.dumps({"summary": "12 statements from 5 sources", "notes": ["use USGS"]})
    assert read_text_calls(final, SCHEMAS).calls == []
    assert read_text_calls("```json\n" + final + "\n```", SCHEMAS).problem is None
    assert read_reply("Lithium comes from Chile.", [], [], "stop", SCHEMAS).problem is None


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (json.dumps({"name": "web_search", "arguments": {"maxResults": 5}}),
         "'query' is a required property"),
        (json.dumps({"name": "web_search", "arguments": {"query": "x", "maxResults": 99}}),
         "maxResults: 99 is greater than the maximum of 20"),
        (json.dumps({"name": "web_search", "arguments": "{\"query\": "}),
         "arguments are not JSON"),
        (json.dumps({"name": "write_file", "arguments": {"file_path": "/a"}}),
         "write_file is not a tool you have (you have: web_search, dkg_find_related_assets)"),
    ],
)  # fmt: skip
def test_a_call_that_cannot_be_used_is_refused_saying_why(text: str, said: str) -> None:
    reading = read_text_calls(text, SCHEMAS)
    assert reading.calls == [] and reading.problem is not None
    assert said in reading.problem


def test_a_reply_cut_at_the_token_limit_or_with_broken_arguments_is_refused() -> None:
    cut = read_reply('```json\n{"name": "web_search", "argum', [], [], "length", SCHEMAS)
    assert cut.problem == "it was cut off at the token limit"
    broken = [{"name": "web_search", "args": '{"query": ', "id": "call_1", "error": None}]
    assert "web_search" in (read_reply("", [], broken, "stop", SCHEMAS).problem or "")


def test_calls_made_through_the_api_are_left_as_they_are() -> None:
    made = [{"name": "web_search", "args": CALL, "id": "call_1", "type": "tool_call"}]
    text = json.dumps({"name": "web_search", "arguments": {}})
    reading = read_reply(text, made, [], "tool_calls", SCHEMAS)
    assert reading.calls == [] and reading.problem is None


def test_the_call_format_is_one_call_of_any_bound_tool() -> None:
    search = {"type": "object", "properties": {"query": {"type": "string"}}}
    propose = {"type": "object", "properties": {"statements": {"type": "array"}}}
    one = call_format({"web_search": search})["json_schema"]["schema"]
    assert one["required"] == ["name", "arguments"]
    assert one["properties"] == {"name": {"const": "web_search"}, "arguments": search}
    both = call_format({"web_search": search, "propose": propose})
    assert both["type"] == "json_schema"
    options = both["json_schema"]["schema"]["anyOf"]
    assert [o["properties"]["name"]["const"] for o in options] == ["web_search", "propose"]
    assert options[1]["properties"]["arguments"] == propose
