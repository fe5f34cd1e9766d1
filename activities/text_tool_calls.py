"""Reading a model reply that writes its tool call as text instead of making it.

Small models served behind an OpenAI-compatible API (llama.cpp, vLLM, Ollama) often
answer a tool turn with the call in the message text and `tool_calls` empty: fenced
(```` ```json {"name": ..., "arguments": {...}} ``` ````), bare JSON, or inside Qwen's and
Hermes' `<tool_call>...</tool_call>` tags, with `arguments` or `parameters`. Taken as
it stands, such a reply is the agent's final answer: the subagent ends having called
nothing. `read_reply` says what a reply is instead: tool calls that validate against the
schemas the call bound (taken as made), or a problem to refuse back to the model once.
Pure: no I/O, so a reply reads the same on every attempt.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator

TAGGED = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.DOTALL)
FENCED = re.compile(r"```[a-zA-Z_]*\s*\n?(.*?)```", re.DOTALL)
ARGUMENT_KEYS = ("arguments", "parameters", "args")
MAX_PROBLEMS = 4


@dataclass
class ReplyReading:
    """What a reply is: `calls` read from its text (LangChain tool calls), or `problem`,
    why it cannot be used as it stands (refuse it); neither: use the reply as it is."""

    calls: list[dict[str, Any]] = field(default_factory=list)
    problem: str | None = None


def _loaded(texts: list[str]) -> list[Any]:
    values = []
    for text in texts:
        try:
            values.append(json.loads(text))
        except json.JSONDecodeError:
            continue
    return values


def _embedded(text: str) -> list[Any]:
    """JSON objects and arrays written inside prose, each outermost one once."""
    decoder = json.JSONDecoder()
    values: list[Any] = []
    at = 0
    while (at := _next_object(text, at)) >= 0:
        try:
            value, end = decoder.raw_decode(text, at)
        except json.JSONDecodeError:
            at += 1
            continue
        values.append(value)
        at = end
    return values


def _json_sources(text: str) -> Iterator[list[Any]]:
    """The JSON values the text holds, by where they are written, most explicit first:
    in tags, in fences, the whole text, then embedded in prose."""
    yield _loaded([m.group(1) for m in TAGGED.finditer(text)])
    yield _loaded([m.group(1) for m in FENCED.finditer(text)])
    yield _loaded([text.strip()])
    yield _embedded(text)


def _next_object(text: str, start: int) -> int:
    found = [i for i in (text.find("{", start), text.find("[", start)) if i >= 0]
    return min(found) if found else -1


def _call_shapes(value: Any) -> Iterator[dict[str, Any]]:
    """Objects shaped like a call: {"name", "arguments"|"parameters"}, OpenAI's
    {"function": {...}}, or lists and {"tool_calls": [...]} of them."""
    if isinstance(value, list):
        for item in value:
            yield from _call_shapes(item)
    elif isinstance(value, dict):
        if isinstance(value.get("tool_calls"), list):
            yield from _call_shapes(value["tool_calls"])
        elif isinstance(value.get("function"), dict):
            yield value["function"]
        elif isinstance(value.get("name"), str):
            yield value


def _arguments(shape: dict[str, Any]) -> tuple[Any, str | None]:
    raw = next((shape[k] for k in ARGUMENT_KEYS if k in shape), {})
    if isinstance(raw, str):
        try:
            raw = json.loads(raw) if raw.strip() else {}
        except json.JSONDecodeError as exc:
            return None, f"its arguments are not JSON ({exc.msg})"
    if not isinstance(raw, dict):
        return None, "its arguments are not a JSON object"
    return raw, None


def _schema_problems(args: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    errors = sorted(Draft202012Validator(schema).iter_errors(args), key=lambda e: list(e.path))
    return [
        f"{'.'.join(str(p) for p in e.path) or 'arguments'}: {e.message}"
        for e in errors[:MAX_PROBLEMS]
    ]


def _call_id(text: str, index: int) -> str:
    # Stable for the same reply (a retried activity reads the same ids), distinct per reply.
    return f"call_text_{hashlib.sha1(text.encode()).hexdigest()[:12]}_{index}"


def tool_schemas_by_name(tools: list[Any]) -> dict[str, dict[str, Any]]:
    """The bound tools' argument schemas (OpenAI function format) by tool name."""
    schemas: dict[str, dict[str, Any]] = {}
    for tool in tools:
        function = tool.get("function", tool) if isinstance(tool, dict) else {}
        if isinstance(function.get("name"), str):
            schemas[function["name"]] = function.get("parameters") or {"type": "object"}
    return schemas


def call_format(schemas: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """An OpenAI `response_format` whose JSON schema is one call of a bound tool, written
    `{"name": ..., "arguments": {...}}`: a server that constrains its output to a schema
    (llama.cpp, vLLM and OpenAI do) can then only write a call `read_text_calls` takes."""
    options = [
        {"type": "object", "properties": {"name": {"const": name}, "arguments": params},
         "required": ["name", "arguments"]}
        for name, params in schemas.items()
    ]  # fmt: skip
    schema = options[0] if len(options) == 1 else {"anyOf": options}
    return {"type": "json_schema", "json_schema": {"name": "tool_call", "schema": schema}}


def read_text_calls(text: str, schemas: dict[str, dict[str, Any]]) -> ReplyReading:
    """The tool calls `text` writes out, validated against the bound tools' `schemas`."""
    shapes: list[dict[str, Any]] = []
    for values in _json_sources(text):
        shapes = [
            shape
            for value in values
            for shape in _call_shapes(value)
            if shape["name"] in schemas or any(k in shape for k in ARGUMENT_KEYS)
        ]
        if shapes:
            break
    if not shapes:
        return ReplyReading()
    calls: list[dict[str, Any]] = []
    problems: list[str] = []
    for index, shape in enumerate(shapes):
        name = shape["name"]
        if name not in schemas:
            problems.append(f"{name} is not a tool you have (you have: {', '.join(schemas)})")
            continue
        args, problem = _arguments(shape)
        if args is not None:
            problems += [f"{name} {p}" for p in _schema_problems(args, schemas[name])]
        else:
            problems.append(f"{name}: {problem}")
        calls.append({"name": name, "args": args, "id": _call_id(text, index), "type": "tool_call"})
    if problems:
        return ReplyReading(problem="it wrote a tool call as text that cannot be used: "
                            + "; ".join(problems[:MAX_PROBLEMS]))  # fmt: skip
    return ReplyReading(calls=calls)


def read_reply(
    text: str,
    tool_calls: list[Any],
    invalid_calls: list[Any],
    finish_reason: str | None,
    schemas: dict[str, dict[str, Any]],
) -> ReplyReading:
    """What a reply to a call with tools bound is (see `ReplyReading`)."""
    if tool_calls:
        return ReplyReading()  # made through the API: the agent's tools validate them
    if invalid_calls:
        names = ", ".join(str(c.get("name")) for c in invalid_calls if isinstance(c, dict))
        return ReplyReading(problem=f"its call of {names} had arguments that are not valid JSON")
    if finish_reason == "length":
        return ReplyReading(problem="it was cut off at the token limit")
    return read_text_calls(text, schemas)
