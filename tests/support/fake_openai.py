"""A fake OpenAI chat-completions API for the tests of the LLM path.

`ChatModel` plays the model's side of each agent, turn by turn, in the recorded response
shape of gpt-4o-mini (tests/fixtures/openai/); a test subclasses it to script other turns.
The `fake_openai` fixture (tests/conftest.py) serves any such model on a local port.
"""

from __future__ import annotations

import copy
import json
import re
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
