"""The worker's chat model against a llama.cpp-shaped chat-completions API: a tool call
written as text is made or refused once, and a slow generation keeps heartbeating."""

from __future__ import annotations

import copy
import json
import threading
import uuid
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from temporalio import activity, workflow
from temporalio.client import Client
from temporalio.common import RetryPolicy
from temporalio.exceptions import ApplicationError
from temporalio.worker import UnsandboxedWorkflowRunner, Worker

from activities.chat_model import ToolCallingChatOpenAI
from contracts.model_calls import PARSED_FROM_TEXT, REFUSED, UNUSABLE_REPLY
from contracts.tools import SearchArgs
from kminer.config import Settings
from kminer.worker import HEARTBEAT_THROTTLE
from tests.support.fake_openai import FAKE_API_KEY, FIXTURES, SMALL_MODEL, fenced, text
from tests.support.replay import replay_server
from workflows.degradation import spent_on_failure

SEARCH = {
    "type": "function",
    "function": {
        "name": "web_search",
        "description": "Search.",
        "parameters": SearchArgs.model_json_schema(),
    },
}
CALL = {"query": "lithium export controls", "maxResults": 5}


class Replies:
    """Answers each request with the next scripted reply (text, finish reason), as
    llama.cpp's server shapes them; `stall` holds the first answer back that long."""

    def __init__(self, *replies: tuple[str, str], stall: float = 0.0) -> None:
        self.replies = list(replies)
        self.requests: list[dict[str, Any]] = []
        self.stall = stall
        self.released = threading.Event()

    def answer(self, method: str, path: str, body: Any, headers: dict[str, str]) -> Any:
        self.requests.append(body)
        if self.stall:
            self.released.wait(self.stall)
        content, finish = self.replies.pop(0)
        fixture = "llamacpp_length.json" if finish == "length" else "llamacpp_text.json"
        reply = copy.deepcopy(json.loads((FIXTURES / fixture).read_text()))
        reply["choices"][0]["message"]["content"] = content
        return 200, reply


@pytest.fixture
def serve() -> Iterator[Any]:
    """serve(replies) -> the model with the search tool bound, at a local fake API."""
    with replay_server(lambda *a: served[0].answer(*a)) as url:
        served: list[Replies] = []

        def model_for(replies: Replies) -> Any:
            served.append(replies)
            chat = ToolCallingChatOpenAI(
                model=SMALL_MODEL, base_url=f"{url}/v1", api_key=FAKE_API_KEY, max_retries=0
            )
            return chat.bind_tools([SEARCH])

        yield model_for
        for replies in served:
            replies.released.set()


async def test_a_call_written_as_text_becomes_the_tool_call(serve: Any) -> None:
    model = serve(Replies((fenced("web_search", CALL), "stop")))
    reply = await model.ainvoke([HumanMessage("Which suppliers of lithium carry risk?")])
    [call] = reply.tool_calls
    assert call["name"] == "web_search" and call["args"] == CALL
    assert reply.content == "" and reply.response_metadata[PARSED_FROM_TEXT] == 1


async def test_an_unusable_call_is_refused_once_and_the_retry_taken(serve: Any) -> None:
    replies = Replies((fenced("web_search", {"maxResults": 5}), "stop"),
                      (fenced("web_search", CALL), "stop"))  # fmt: skip
    reply = await serve(replies).ainvoke([HumanMessage("Which suppliers carry risk?")])
    assert reply.tool_calls[0]["args"] == CALL and reply.response_metadata[REFUSED] == 1
    first, second = replies.requests
    # The retry carries the refused text and one correction naming what was wrong.
    said, correction = second["messages"][-2:]
    assert said["role"] == "assistant" and "maxResults" in text(said["content"])
    assert correction["role"] == "user" and "'query' is a required property" in correction[
        "content"]  # fmt: skip
    assert second["tools"] == first["tools"]
    # Both calls' tokens count (llamacpp_text.json: 4517 in, 41 out each).
    assert reply.usage_metadata["input_tokens"] == 2 * 4517


async def test_a_reply_cut_at_the_token_limit_is_refused(serve: Any) -> None:
    cut = fenced("web_search", CALL)[:40]
    replies = Replies((cut, "length"), (json.dumps({"summary": "none found"}), "stop"))
    reply = await serve(replies).ainvoke([HumanMessage("Which suppliers carry risk?")])
    assert "cut off at the token limit" in replies.requests[1]["messages"][-1]["content"]
    assert reply.tool_calls == [] and json.loads(reply.content) == {"summary": "none found"}


async def test_a_second_unusable_reply_fails_the_call_without_retry(serve: Any) -> None:
    bad = fenced("web_search", {})
    with pytest.raises(ApplicationError) as raised:
        await serve(Replies((bad, "stop"), (bad, "stop"))).ainvoke([HumanMessage("Go.")])
    assert raised.value.type == UNUSABLE_REPLY and raised.value.non_retryable
    # What the two replies spent travels with the error, for the run to count.
    assert raised.value.details == ({"modelCalls": 2, "inputTokens": 2 * 4517,
                                     "outputTokens": 2 * 41},)  # fmt: skip
    assert spent_on_failure(raised.value) == raised.value.details[0]
    assert spent_on_failure(ApplicationError("other", {"modelCalls": 9}, type="Other")) == {}


PROSE = "I would search the web for lithium export controls and list what I find."


class RefusingFormat(Replies):
    """A server that answers plain requests and refuses a `response_format` (400)."""

    def answer(self, method: str, path: str, body: Any, headers: dict[str, str]) -> Any:
        if "response_format" in body:
            self.requests.append(body)
            return 400, {"error": {"message": "response_format is not supported"}}
        return super().answer(method, path, body, headers)


async def test_a_first_reply_in_prose_is_asked_once_for_its_call_in_the_call_format(
    serve: Any,
) -> None:
    call = json.dumps({"name": "web_search", "arguments": CALL})
    replies = Replies((PROSE, "stop"), (call, "stop"))
    reply = await serve(replies).ainvoke([HumanMessage("Which suppliers carry risk?")])
    assert reply.tool_calls[0]["name"] == "web_search" and reply.tool_calls[0]["args"] == CALL
    assert reply.response_metadata[PARSED_FROM_TEXT] == 1 and reply.response_metadata[REFUSED] == 1
    first, second = replies.requests
    assert "response_format" not in first and first["tools"]
    # The second asks for the call with no tools bound, its output held to a call's shape.
    assert "tools" not in second and "tool_choice" not in second
    shape = second["response_format"]["json_schema"]["schema"]
    assert shape["properties"]["name"] == {"const": "web_search"}
    assert shape["properties"]["arguments"] == SEARCH["function"]["parameters"]
    said, ask = second["messages"][-2:]
    assert said["role"] == "assistant" and text(said["content"]) == PROSE
    assert ask["role"] == "user" and "tool call" in ask["content"]
    assert reply.usage_metadata["input_tokens"] == 2 * 4517  # both calls count


async def test_prose_after_a_tool_was_called_is_the_answer(serve: Any) -> None:
    replies = Replies((PROSE, "stop"))
    asked = AIMessage(content="", tool_calls=[{"name": "web_search", "args": CALL, "id": "c1"}])
    conversation = [HumanMessage("Go."), asked, ToolMessage(content="[]", tool_call_id="c1")]
    reply = await serve(replies).ainvoke(conversation)
    assert reply.content == PROSE and reply.tool_calls == [] and len(replies.requests) == 1


async def test_prose_stands_when_asking_gives_no_call(serve: Any) -> None:
    still = Replies((PROSE, "stop"), ("Sorry, I cannot search.", "stop"))
    reply = await serve(still).ainvoke([HumanMessage("Go.")])
    assert reply.content == PROSE and reply.tool_calls == []
    assert reply.usage_metadata["input_tokens"] == 2 * 4517


async def test_prose_stands_when_the_server_refuses_the_call_format(serve: Any) -> None:
    refusing = RefusingFormat((PROSE, "stop"))
    reply = await serve(refusing).ainvoke([HumanMessage("Go.")])
    assert reply.content == PROSE and reply.tool_calls == [] and len(refusing.requests) == 2


@activity.defn(name="one_slow_model_call")
async def one_slow_model_call(url: str) -> str:
    chat = ToolCallingChatOpenAI(model=SMALL_MODEL, base_url=url, api_key=FAKE_API_KEY,
                                 max_retries=0)  # fmt: skip
    reply = await chat.ainvoke([HumanMessage("Which suppliers of lithium carry risk?")])
    return str(reply.content)


@workflow.defn(sandboxed=False)
class OneSlowModelCall:
    @workflow.run
    async def run(self, url: str) -> str:
        # One attempt: a missed heartbeat would fail the call.
        return await workflow.execute_activity(
            one_slow_model_call, url, start_to_close_timeout=timedelta(seconds=60),
            heartbeat_timeout=timedelta(seconds=1), retry_policy=RetryPolicy(maximum_attempts=1),
        )  # fmt: skip


async def test_a_generation_five_times_the_heartbeat_timeout_keeps_heartbeating(
    settings: Settings,
) -> None:
    replies = Replies((json.dumps({"summary": "done"}), "stop"), stall=5.0)
    client = await Client.connect(settings.temporal_address or "")
    with replay_server(replies.answer) as url:
        async with Worker(
            client, task_queue=settings.task_queue, workflows=[OneSlowModelCall],
            activities=[one_slow_model_call], workflow_runner=UnsandboxedWorkflowRunner(),
            max_heartbeat_throttle_interval=HEARTBEAT_THROTTLE,
        ):  # fmt: skip
            answer = await client.execute_workflow(
                OneSlowModelCall.run, f"{url}/v1", id=f"slow-{uuid.uuid4().hex[:8]}",
                task_queue=settings.task_queue,
            )  # fmt: skip
    assert json.loads(answer) == {"summary": "done"} and len(replies.requests) == 1
