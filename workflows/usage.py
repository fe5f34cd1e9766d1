"""Counts model and tool calls of an agent tree, sub-agents included, as they happen."""

from __future__ import annotations

from typing import Any

from temporalio import workflow

from contracts.model_calls import PARSED_FROM_TEXT, REFUSED
from contracts.run import Usage

with workflow.unsafe.imports_passed_through():
    from langchain_core.callbacks import AsyncCallbackHandler


def count_model_call(usage: Usage, response: Any) -> None:
    """Adds one model call, the tokens its response reports (LangChain's LLMResult) and how
    the worker read it (tool calls taken from its text, a reply refused once)."""
    usage.modelCalls += 1
    for generations in response.generations:
        for generation in generations:
            message = getattr(generation, "message", None)
            meta = getattr(message, "usage_metadata", None)
            if meta:
                usage.inputTokens += int(meta.get("input_tokens", 0))
                usage.outputTokens += int(meta.get("output_tokens", 0))
            read = getattr(message, "response_metadata", None) or {}
            usage.toolCallsFromText += int(read.get(PARSED_FROM_TEXT, 0))
            usage.repliesRefused += int(read.get(REFUSED, 0))


def count_spent(usage: Usage, spent: dict[str, int]) -> None:
    """Adds what a failed model call still spent (`degradation.spent_on_failure`)."""
    usage.modelCalls += spent.get("modelCalls", 0)
    usage.inputTokens += spent.get("inputTokens", 0)
    usage.outputTokens += spent.get("outputTokens", 0)


class UsageCounter(AsyncCallbackHandler):
    """A LangChain callback: it only counts, so it is safe inside the workflow.

    `models=False` counts tool calls only: the turns of the rules policy standing in for a
    model that failed are no model calls of the run (they cost nothing and read no reply)."""

    def __init__(self, usage: Usage, *, models: bool = True) -> None:
        self.usage = usage
        self.models = models

    async def on_llm_end(self, response: Any, **kwargs: Any) -> None:
        if self.models:
            count_model_call(self.usage, response)

    async def on_tool_end(self, output: Any, **kwargs: Any) -> None:
        self.usage.toolCalls += 1
