"""A whole MiningWorkflow driven by ChatOpenAI against a replayed chat-completions API.

The replay answers each agent turn the way gpt-4o-mini does (recorded response shape),
calling the tools with the arguments a model derives from what it was shown: the search
hits become `extract_statements` documents (passage provenance kept, the question
given), the task's statements go to `propose_knowledge_assets` by its reference, the
candidates to `score_candidates`. So the new tool contracts are exercised through the LLM path.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from contracts.run import MiningRequest, Phase
from kminer.config import Settings
from kminer.stack import embedded_stack
from mining.relevance import RELEVANCE_FLOOR
from temporal_client.runs import start_run
from tests.replay import replay_server

FIXTURES = Path(__file__).parent / "fixtures/openai"
QUESTION = "Which suppliers of lithium carry geopolitical risk?"


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


@pytest.fixture
def openai(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[ChatModel, str]]:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    model = ChatModel()
    with replay_server(model.answer) as url:
        yield model, f"{url}/v1"


async def test_an_llm_drives_the_new_tools_end_to_end(
    settings: Settings, openai: tuple[ChatModel, str]
) -> None:
    model, url = openai
    # Relevance stays on the offline MiniLM here: only the chat model is replayed.
    llm = replace(settings, model_name="gpt-4o-mini", openai_base_url=url, embeddings="minilm")
    async with embedded_stack(llm, with_api=False) as stack:
        handle = await start_run(
            stack.client, llm.task_queue,
            MiningRequest(query=QUESTION, domainTags=["supply_chain"], review="auto"),
        )  # fmt: skip
        result = await handle.result()

    assert result.phase == Phase.COMPLETED
    # The research planner's call comes first and binds no tools; the agents' calls do.
    first = next(r["body"] for r in model.requests if "tools" in r["body"])
    assert first["model"] == "gpt-4o-mini" and first["temperature"] == 0.2
    schemas = {t["function"]["name"]: t["function"]["parameters"] for t in first["tools"]}
    extract = schemas["extract_statements"]
    assert "query" in extract["properties"]
    items = extract["properties"]["documents"]["items"]
    document = (
        items.get("properties") or extract["$defs"][items["$ref"].rsplit("/", 1)[-1]]["properties"]
    )
    assert {"passageId", "start", "published", "tier"} <= set(document)

    # What the model sent on reached the tools and came back as evidence-backed claims.
    claims = [a for a in result.candidateAssets if a["candidateKind"] == "claim"]
    assert claims, "the LLM path proposes candidates"
    for claim in claims:
        assert claim["trustSignals"]["relevance"] >= RELEVANCE_FLOOR
        assert any(e.get("id") for e in claim["provenance"]["evidence"]), "passage provenance"
    assert result.answer.text and result.usage.modelCalls >= 6
    roles = {
        re.search(
            r"You are the ([a-z-]+) subagent", text(r["body"]["messages"][0]["content"])
        ).group(1)  # type: ignore[union-attr]
        for r in model.requests
    }
    assert {"discovery", "enrichment", "validation"} <= roles
    # Candidates reach the model by reference: no request carries a candidate's JSON-LD
    # (its provenance.discoveredAt is in no compact view, statement or score).
    assert not any("discoveredAt" in json.dumps(r["body"]) for r in model.requests)
    # Statements reach enrichment by reference too: its task shows each one's ends and
    # relation, and no request after discovery carries a statement's sentence.
    enrichment = [r["body"]["messages"] for r in model.requests if "enrichment subagent" in
                  text(r["body"]["messages"][0]["content"])]  # fmt: skip
    task = payload(text(next(m["content"] for m in enrichment[0] if m["role"] == "user")))
    assert task["statementsRef"] == "/research/statements.json" and task["statements"]
    assert all("sentence" not in s and {"subject", "predicate", "object"} <= set(s)
               for s in task["statements"])  # fmt: skip
    last_discovery = [r["body"]["messages"] for r in model.requests if "discovery subagent" in
                      text(r["body"]["messages"][0]["content"])][-1]  # fmt: skip
    calls = {c["id"]: c["function"]["name"] for m in last_discovery if m.get("role") == "assistant"
             for c in m.get("tool_calls") or []}  # fmt: skip
    found = tool_rows(last_discovery, "extract_statements", calls)
    sentences = {s["sentence"] for s in found if s.get("sentence")}
    assert sentences and not any(
        sentence in json.dumps(messages) for messages in enrichment for sentence in sentences
    )
