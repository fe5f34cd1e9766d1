"""Tool-call schemas shared across runs, for the summarization's token counting.

Deep Agents' summarization counts the tools' JSON schemas before every model call, and
langchain memoizes a tool's call schema (a pydantic model built from its arguments) only
on that tool instance. Every run builds new tools (ours and the agent's built-in file,
todo and task tools), so each run rebuilt every schema: the largest single cost of a
run's workflow tasks (docs/benchmarks.md, "Where a worker's CPU goes").

A call schema is a pure function of the tool's class, name, description and argument
model, all fixed in code, so one built once serves every later tool with the same four.
This module is passed through the sandbox (workflows/passthrough.py): the table outlives
a run, holds no run's state, and gives every run the very schema it would have built.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from langchain_core.messages.utils import count_tokens_approximately
    from langchain_core.tools import BaseTool

# Tools are declared in code, so the table stays small; the cap only guards against a
# tool built with a run's data in its description.
MAX_SHARED_SCHEMAS = 512
_shared: dict[tuple[type, str, str, type], Any] = {}
MEMO_SLOT = "_tool_call_schema_memo"
_ABSENT = object()


def share_call_schemas(tools: Iterable[Any]) -> None:
    """Give each tool the call schema an equal tool built before, or record its own."""
    for tool in tools:
        if not isinstance(tool, BaseTool) or not isinstance(tool.args_schema, type):
            continue  # a dict schema costs nothing to read
        key = (type(tool), tool.name, tool.description, tool.args_schema)
        schema = _shared.get(key)
        if schema is None:
            if len(_shared) < MAX_SHARED_SCHEMAS:
                _shared[key] = tool.tool_call_schema
        # langchain's private memo slot: a release without it just builds its own schema.
        elif getattr(tool, MEMO_SLOT, _ABSENT) is None:
            setattr(tool, MEMO_SLOT, schema)


def count_tokens(messages: Sequence[Any], *, tools: list[Any] | None = None) -> int:
    """langchain's approximate count, the tools' schemas shared across runs first."""
    if tools:
        share_call_schemas(tools)
    return count_tokens_approximately(messages, tools=tools)
