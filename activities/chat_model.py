"""The chat model a worker calls for the agents: a tool call is made, or refused, never
left in the text.

`ChatOpenAI` takes a reply's `tool_calls` as the model's calls and anything else as its
answer. A small model behind an OpenAI-compatible server often writes the call in the
text instead (activities/text_tool_calls.py), and the agent then ends on it as if it had
answered. Here every reply to a call with tools bound is read first:
- a call written as text that validates against the bound tool's schema is taken as
  that tool call, marked in `response_metadata` (the run counts it in its usage);
- one that does not validate, a call whose arguments are not JSON, or a reply cut at the
  token limit is refused back to the model with one corrective message, in the same
  activity; a second unusable reply fails the call without retry (`UNUSABLE_REPLY`),
  and the workflow degrades the step (workflows/degradation.py);
- a reply in prose before the conversation has called any tool (every agent here is given
  a job its tools do: a small model often describes the search it would make instead) is
  asked once for the call, with the reply's format constrained to a call of a bound tool
  (`call_format`). A server that constrains output to a JSON schema can then only write a
  call; one that refuses the format, or a reply that is still no call, leaves the prose
  answer, and the step degrades as before.

While a call generates, a side task heartbeats every second (a quarter of a shorter
heartbeat timeout): the plugin's own heartbeat comes at half the timeout, and the worker
then sends one at most every 0.8 x the timeout, too close to it when a local model
shares the machine's cores with the worker (10 s heartbeat timeouts ended the issue 25
run). With the worker's throttle at 1 s (kminer/worker.py) the server hears from a slow
generation every second, so only a dead worker misses the heartbeat timeout.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.messages.ai import add_usage
from langchain_core.outputs import ChatResult
from langchain_openai import ChatOpenAI
from temporalio import activity
from temporalio.exceptions import ApplicationError

from activities.metrics import MODEL_REPLIES, TOOL_SCHEMA_BYTES
from activities.model_view import model_view
from activities.text_tool_calls import (
    ReplyReading,
    call_format,
    read_reply,
    tool_schemas_by_name,
)
from contracts.model_calls import PARSED_FROM_TEXT, REFUSED, UNUSABLE_REPLY

BEAT_SECONDS = 1.0


@asynccontextmanager
async def heartbeating() -> AsyncIterator[None]:
    """Heartbeats from a side task while the body runs, when in an activity that has a
    heartbeat timeout (see the module doc)."""
    timeout = activity.info().heartbeat_timeout if activity.in_activity() else None
    if not timeout:
        yield
        return
    interval = min(BEAT_SECONDS, timeout.total_seconds() / 4)

    async def beat() -> None:
        while True:
            activity.heartbeat()
            await asyncio.sleep(interval)

    task = asyncio.create_task(beat())
    try:
        yield
    finally:
        task.cancel()
        await asyncio.wait([task])


# What the call asking for a tool call does not send: its format is the call itself.
UNBOUND_FOR_FORMAT = frozenset({"tools", "tool_choice", "parallel_tool_calls"})
ASK_FOR_CALL = (
    "You have not called a tool yet, and your task is done with them. Reply with the one "
    'tool call to make now, as a JSON object: {"name": <tool name>, "arguments": {...}}.'
)


def _has_called(messages: list[BaseMessage]) -> bool:
    return any(isinstance(m, ToolMessage) for m in messages)


def correction(problem: str) -> str:
    """The one corrective turn a refused reply gets."""
    return (
        f"Your last reply could not be used: {problem}. Call a tool through the "
        "tool-calling interface (not as text), with arguments that match its schema, or "
        "give your final answer as the short JSON object your instructions ask for."
    )


def _text(message: BaseMessage) -> str:
    content = message.content
    if isinstance(content, list):
        return "".join(p.get("text", "") if isinstance(p, dict) else str(p) for p in content)
    return str(content or "")


def _reading(result: ChatResult, schemas: dict[str, dict[str, Any]]) -> ReplyReading:
    generation = result.generations[0]
    message = generation.message
    finish = (generation.generation_info or {}).get("finish_reason")
    return read_reply(
        _text(message),
        list(getattr(message, "tool_calls", None) or []),
        list(getattr(message, "invalid_tool_calls", None) or []),
        finish or message.response_metadata.get("finish_reason"),
        schemas,
    )


def _taken(result: ChatResult, reading: ReplyReading, refused: AIMessage | None) -> ChatResult:
    """The reply as the agent gets it: calls read from its text made real, marks set."""
    message = result.generations[0].message
    if reading.calls and isinstance(message, AIMessage):
        message.tool_calls = reading.calls
        message.content = ""
        message.response_metadata[PARSED_FROM_TEXT] = len(reading.calls)
        MODEL_REPLIES.labels(reading="parsed_from_text").inc()
    else:
        MODEL_REPLIES.labels(reading="tool_calls" if message.tool_calls else "final").inc()
    if refused is not None and isinstance(message, AIMessage):
        message.response_metadata[REFUSED] = 1
        # Both calls' tokens were spent on this reply.
        message.usage_metadata = add_usage(refused.usage_metadata, message.usage_metadata)
    return result


class ToolCallingChatOpenAI(ChatOpenAI):
    """`ChatOpenAI` whose replies to a call with tools are read as the module doc says.

    Async only, as the plugin's model activity calls it; streaming is off so that every
    reply passes through `_agenerate`.
    """

    disable_streaming: bool = True

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        async with heartbeating():
            return await self._answer(messages, stop, run_manager, **kwargs)

    async def _answer(
        self, messages: list[BaseMessage], stop: Any, run_manager: Any, **kwargs: Any
    ) -> ChatResult:
        messages = model_view(messages)  # large tool answers as compact rows
        result = await super()._agenerate(messages, stop, run_manager, **kwargs)
        tools = kwargs.get("tools") or []
        if not tools:
            return result  # a plain completion (the research planner's) is the caller's
        TOOL_SCHEMA_BYTES.observe(len(json.dumps(tools)))
        schemas = tool_schemas_by_name(tools)
        reading = _reading(result, schemas)
        first = result.generations[0].message
        if reading.problem is None:
            if reading.calls or getattr(first, "tool_calls", None) or _has_called(messages):
                return _taken(result, reading, None)
            asked = await self._asked_for_a_call(messages, first, schemas, stop, run_manager,
                                                 **kwargs)  # fmt: skip
            return asked or _taken(result, reading, None)
        MODEL_REPLIES.labels(reading="refused").inc()
        said = _text(first) or "(a tool call whose arguments were not valid JSON)"
        retry = [*messages, AIMessage(content=said), HumanMessage(correction(reading.problem))]
        second = await super()._agenerate(retry, stop, run_manager, **kwargs)
        again = _reading(second, schemas)
        if again.problem is not None:
            MODEL_REPLIES.labels(reading="unusable").inc()
            # Both replies were generated and paid for: the run counts them from here.
            spent = add_usage(
                getattr(first, "usage_metadata", None),
                getattr(second.generations[0].message, "usage_metadata", None),
            )
            raise ApplicationError(
                f"the model's reply could not be used, twice: {again.problem}",
                {"modelCalls": 2, "inputTokens": int(spent.get("input_tokens", 0)),
                 "outputTokens": int(spent.get("output_tokens", 0))},  # fmt: skip
                type=UNUSABLE_REPLY,
                non_retryable=True,
            )
        return _taken(second, again, first if isinstance(first, AIMessage) else None)

    async def _asked_for_a_call(
        self,
        messages: list[BaseMessage],
        first: BaseMessage,
        schemas: dict[str, dict[str, Any]],
        stop: Any,
        run_manager: Any,
        **kwargs: Any,
    ) -> ChatResult | None:
        """The prose reply asked once for the call it describes, its format constrained to
        a call (see the module doc); None when that gives no call (the prose reply
        stands, with the second reply's tokens counted on it)."""
        unbound = {k: v for k, v in kwargs.items() if k not in UNBOUND_FOR_FORMAT}
        retry = [*messages, AIMessage(content=_text(first)), HumanMessage(ASK_FOR_CALL)]
        try:
            second = await super()._agenerate(
                retry, stop, run_manager, response_format=call_format(schemas), **unbound
            )
        except Exception:  # noqa: BLE001 - a server that refuses the format: prose stands
            MODEL_REPLIES.labels(reading="format_refused").inc()
            return None
        again = _reading(second, schemas)
        if not again.calls:
            if isinstance(first, AIMessage):
                first.usage_metadata = add_usage(
                    first.usage_metadata,
                    getattr(second.generations[0].message, "usage_metadata", None),
                )
            return None
        MODEL_REPLIES.labels(reading="asked_for_call").inc()
        return _taken(second, again, first if isinstance(first, AIMessage) else None)
