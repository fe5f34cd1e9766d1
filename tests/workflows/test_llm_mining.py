"""A whole MiningWorkflow driven by ChatOpenAI against a replayed chat-completions API.

The replay (tests/support/fake_openai.py) answers each agent turn the way gpt-4o-mini does
(recorded response shape), calling the tools with the arguments a model derives from what
it was shown: the search hits become `extract_statements` documents (passage provenance
kept, the question given), the task's statements go to `propose_knowledge_assets` by its
reference, the candidates to `score_candidates`. So the new tool contracts are exercised
through the LLM path."""

from __future__ import annotations

import json
import re
from typing import Any

from contracts.run import MiningRequest, Phase
from kminer.config import Settings
from kminer.stack import embedded_stack
from mining.relevance import RELEVANCE_FLOOR
from temporal_client.runs import start_run
from tests.support.fake_openai import (
    ChatModel,
    ServeFakeOpenAi,
    llm_settings,
    payload,
    text,
    tool_rows,
)

QUESTION = "Which suppliers of lithium carry geopolitical risk?"


def strings(value: Any) -> list[str]:
    """Every string of a request, JSON written inside strings (tool arguments and
    answers) read as JSON too."""
    if isinstance(value, dict):
        return [t for v in value.values() for t in strings(v)]
    if isinstance(value, list):
        return [t for v in value for t in strings(v)]
    if isinstance(value, str) and value[:1] in "{[":
        try:
            return [value, *strings(json.loads(value))]
        except json.JSONDecodeError:
            return [value]
    return [value] if isinstance(value, str) else []


async def test_an_llm_drives_the_new_tools_end_to_end(
    settings: Settings, fake_openai: ServeFakeOpenAi
) -> None:
    model = ChatModel()
    # Relevance stays on the offline MiniLM here: only the chat model is replayed.
    llm = llm_settings(settings, fake_openai(model))
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
    # The discovery model is shown what extract_statements found as compact rows
    # (activities/model_view.py); the workflow keeps the whole statements.
    found = tool_rows(last_discovery, "extract_statements", calls)
    assert found and all("sentence" not in s and "subjectUal" not in s and
                         {"subject", "predicate", "object"} <= set(s) for s in found)  # fmt: skip
    sentences = {e["snippet"] for claim in claims for e in claim["provenance"]["evidence"]
                 if e.get("snippet")}  # fmt: skip
    # ... and no request after discovery carries a statement's sentence (one is in a
    # passage discovery sent to be read: the check can see them).
    later = [r["body"] for r in model.requests if "discovery subagent" not in
             text(r["body"]["messages"][0]["content"])]  # fmt: skip
    assert any(sentence in t for t in strings(last_discovery) for sentence in sentences)
    assert not any(sentence in t for t in strings(later) for sentence in sentences)
