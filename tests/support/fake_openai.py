"""A fake OpenAI chat-completions API for the tests of the LLM path.

`ChatModel` plays the model's side of each agent, turn by turn, in the recorded response
shape of gpt-4o-mini (tests/fixtures/openai/); a test subclasses it to script other turns.
`SmallModel` plays the same turns the way a small local model served by llama.cpp
answers them (issue 25): tool calls written as text, replies cut at the token limit,
calls that stall. The `fake_openai` fixture (tests/conftest.py) serves any such model on
a local port.
"""

from __future__ import annotations

import copy
import json
import re
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

from kminer.config import Settings
from tests.support import paths

FIXTURES = paths.FIXTURES / "openai"
FAKE_API_KEY = "sk-test-not-a-real-key"


class AnswersRequests(Protocol):
    def answer(self, method: str, path: str, body: Any, headers: dict[str, str]) -> Any: ...


# fake_openai(model) -> the base URL ChatOpenAI is given (".../v1").
ServeFakeOpenAi = Callable[[AnswersRequests], str]


def llm_settings(settings: Settings, base_url: str) -> Settings:
    """A test's settings with gpt-4o-mini at the fake API; relevance stays on MiniLM."""
    return replace(
        settings, model_name="gpt-4o-mini", openai_base_url=base_url, embeddings="minilm"
    )


def text(content: Any) -> str:
    """A message's content as text (a string, or a list of content parts)."""
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content or ""


def payload(user_text: str) -> dict[str, Any]:
    match = re.search(r"```json\n(.*?)\n```", user_text, re.DOTALL)
    return json.loads(match.group(1)) if match else {}


def tool_rows(messages: list[dict[str, Any]], name: str, calls: dict[str, str]) -> list[dict]:
    rows: list[dict] = []
    for m in messages:
        if m.get("role") == "tool" and calls.get(m.get("tool_call_id", "")) == name:
            body = json.loads(text(m["content"]))
            rows += body.get("results", []) if body.get("success") else []
    return rows


class ChatModel:
    """Plays the model's side of each agent, turn by turn."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.turn = 0
        self.role = ""  # whose turn is being answered

    def reply(self, content: str | None, calls: list[tuple[str, dict]] = ()) -> dict:  # type: ignore[assignment]
        name = "tool_call.json" if calls else "final.json"
        body = copy.deepcopy(json.loads((FIXTURES / name).read_text()))
        self.turn += 1
        body["id"] = f"chatcmpl-replay{self.turn:04d}"
        message = body["choices"][0]["message"]
        if calls:
            message["tool_calls"] = [
                {"id": f"call_{self.turn}_{i}", "type": "function",
                 "function": {"name": n, "arguments": json.dumps(a)}}
                for i, (n, a) in enumerate(calls)
            ]  # fmt: skip
        else:
            message["content"] = content
        return body

    def answer(self, method: str, path: str, body: Any, headers: dict[str, str]) -> Any:
        self.requests.append({"path": path, "body": body})
        messages = body["messages"]
        system = text(messages[0]["content"])
        role = re.search(r"You are the ([a-z-]+) subagent", system).group(1)  # type: ignore[union-attr]
        self.role = role
        task = payload(text(next(m["content"] for m in messages if m["role"] == "user")))
        calls = {
            c["id"]: c["function"]["name"]
            for m in messages if m.get("role") == "assistant"
            for c in m.get("tool_calls") or []
        }  # fmt: skip
        done = set(calls.values())
        if role == "discovery":
            if "web_search" not in done:
                return 200, self.reply(None, [("web_search", {"query": task["query"],
                                                              "maxResults": 8})])  # fmt: skip
            if "extract_statements" not in done:
                hits = tool_rows(messages, "web_search", calls)
                docs = [
                    {"text": h["content"], "source": h["url"], "title": h.get("title"),
                     "passageId": h.get("passageId"), "start": h.get("start"),
                     "published": h.get("published")}
                    for h in hits
                ]  # fmt: skip
                args = {"documents": docs, "query": task["query"]}
                return 200, self.reply(None, [("extract_statements", args)])
            found = tool_rows(messages, "extract_statements", calls)
            return 200, self.reply(json.dumps({"summary": f"{len(found)} statements",
                                               "notes": ["search passages"]}))  # fmt: skip
        if role == "enrichment":
            if "propose_knowledge_assets" not in done:
                args = {"statementsRef": task["statementsRef"], "links": {},
                        "domainTags": task["domainTags"], "query": task["query"],
                        "maxCandidates": task["maxCandidates"]}  # fmt: skip
                return 200, self.reply(None, [("propose_knowledge_assets", args)])
            return 200, self.reply(json.dumps({"summary": "proposed", "notes": []}))
        if role == "validation":
            if "score_candidates" not in done:
                args = {"candidates": task["candidates"],
                        "validationRules": task["validationRules"]}  # fmt: skip
                return 200, self.reply(None, [("score_candidates", args)])
            return 200, self.reply(json.dumps({"summary": "validated", "notes": []}))
        return 200, self.reply(json.dumps({"summary": "nothing to do", "notes": []}))


# How a small model writes a tool call it was asked to make (SmallModel's shapes):
# "native" through `tool_calls`; as text "fenced" (```json), "bare" (plain JSON with
# `parameters`) or "tagged" (<tool_call>); "bad-args" as fenced text without its arguments;
# "cut" cut at the token limit (finish_reason "length").
SHAPES = ("native", "fenced", "bare", "tagged", "bad-args", "cut")
SMALL_MODEL = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"


def fenced(name: str, args: dict[str, Any]) -> str:
    return "```json\n" + json.dumps({"name": name, "arguments": args}, indent=2) + "\n```"


def written(shape: str, name: str, args: dict[str, Any]) -> str:
    if shape == "bare":
        return json.dumps({"name": name, "parameters": args})
    if shape == "tagged":
        return f"<tool_call>\n{json.dumps({'name': name, 'arguments': args})}\n</tool_call>"
    if shape == "bad-args":
        return fenced(name, {})
    return fenced(name, args)


class SmallModel(ChatModel):
    """ChatModel's turns as a small llama.cpp-served model answers them.

    `shapes`: per role, how its next tool calls are written, one shape a turn (then
    "native"). `stall`: per role, how many of its calls stall and for how many seconds
    before the answer (a slow generation, or one the client gave up on).
    """

    def __init__(
        self,
        shapes: dict[str, list[str]] | None = None,
        stall: dict[str, tuple[int, float]] | None = None,
    ) -> None:
        super().__init__()
        self.shapes = {role: list(s) for role, s in (shapes or {}).items()}
        self.stall = dict(stall or {})
        self.calls_by_role: dict[str, int] = {}
        # Every request body as it arrived, stalled ones included (`requests` has those
        # answered).
        self.received: list[dict[str, Any]] = []
        self._released = threading.Event()

    def release(self) -> None:
        """Ends every stall at once (the test is over)."""
        self._released.set()

    def llamacpp(self, content: str, finish_reason: str = "stop") -> dict:
        name = "llamacpp_length.json" if finish_reason == "length" else "llamacpp_text.json"
        body = copy.deepcopy(json.loads((FIXTURES / name).read_text()))
        body["id"] = f"chatcmpl-small{self.turn:04d}"
        body["choices"][0]["message"]["content"] = content
        return body

    def reply(self, content: str | None, calls: list[tuple[str, dict]] = ()) -> dict:  # type: ignore[assignment]
        queue = self.shapes.get(self.role) or []
        if not calls or not queue:
            return super().reply(content, calls)
        shape = queue.pop(0)
        if shape == "native":
            return super().reply(content, calls)
        self.turn += 1
        name, args = calls[0]
        text = written(shape, name, args)
        if shape == "cut":
            return self.llamacpp(text[: len(text) // 2], finish_reason="length")
        return self.llamacpp(text)

    def answer(self, method: str, path: str, body: Any, headers: dict[str, str]) -> Any:
        system = text(body["messages"][0]["content"])
        found = re.search(r"You are the ([a-z-]+) subagent", system)
        role = found.group(1) if found else ""
        self.calls_by_role[role] = self.calls_by_role.get(role, 0) + 1
        self.received.append(body)
        times, seconds = self.stall.get(role, (0, 0.0))
        if times > 0:
            self.stall[role] = (times - 1, seconds)
            self._released.wait(seconds)
        return super().answer(method, path, body, headers)
