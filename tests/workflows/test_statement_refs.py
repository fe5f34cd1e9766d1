"""Discovery statements travel to enrichment by reference (workflows/statement_refs.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from contracts.tools import (
    ProposeToolArgs,
    Statement,
    ToolMetadata,
    ToolResponse,
    unknown_reference,
)
from workflows.agent_tools import activity_tool
from workflows.candidate_refs import CANDIDATES_FILE, CandidateLedger
from workflows.local_model import LocalModel
from workflows.statement_refs import (
    STATEMENTS_FILE,
    resolve_statements,
    statement_view,
    statement_views,
)

FOUND = {
    "subject": "Ganfeng Lithium", "subjectUal": "did:dkg:otp/0xabc/7",
    "subjectType": "Organization", "predicate": "supplies", "object": "Tesla",
    "objectUal": None, "goods": "lithium hydroxide",
    "sentence": "Ganfeng Lithium supplies lithium hydroxide to Tesla.", "source": "https://x.test/a",
    "passageId": "p-3", "start": 120, "end": 172, "published": "2026-01-02", "tier": "news",
    "negated": False, "hedged": True, "method": "dependency", "relevance": 0.61,
}  # fmt: skip
OWN = Statement(subject="Tesla", predicate="operatesIn", object="Nevada",
                sentence="Tesla runs a plant in Nevada.", source="https://x.test/b")  # fmt: skip


def test_the_model_sees_what_a_statement_relates_without_its_provenance() -> None:
    view = statement_view(4, FOUND)
    assert view == {
        "id": 4, "subject": "Ganfeng Lithium", "subjectUal": "did:dkg:otp/0xabc/7",
        "subjectType": "Organization", "predicate": "supplies", "object": "Tesla",
        "goods": "lithium hydroxide", "relevance": 0.61, "hedged": True,
    }  # fmt: skip


def test_each_statement_is_numbered_by_its_place_in_the_list() -> None:
    views = statement_views([FOUND, {**FOUND, "object": "BYD", "hedged": False}])
    assert [(v["id"], v["object"]) for v in views] == [(0, "Tesla"), (1, "BYD")]
    assert "hedged" not in views[1]
    assert statement_views([]) == []


def test_the_reference_stands_for_every_discovery_statement_and_own_statements_follow() -> None:
    args = ProposeToolArgs(statementsRef=STATEMENTS_FILE, statements=[OWN], query="q",
                           links={"Tesla": "did:dkg:otp/0xabc/9"}, maxCandidates=5)  # fmt: skip
    resolved = resolve_statements(args, [FOUND, {**FOUND, "object": "BYD"}])
    assert [s.object for s in resolved.statements] == ["Tesla", "BYD", "Nevada"]
    assert resolved.statements[0].sentence == FOUND["sentence"]
    assert (resolved.query, resolved.links, resolved.maxCandidates) == (
        "q", {"Tesla": "did:dkg:otp/0xabc/9"}, 5
    )
    assert not hasattr(resolved, "statementsRef")


def test_a_reference_left_out_still_stands_so_the_research_is_never_dropped() -> None:
    # A small model often writes a few statements of its own and no reference.
    resolved = resolve_statements(ProposeToolArgs(statements=[OWN]), [FOUND])
    assert [s.object for s in resolved.statements] == ["Tesla", "Nevada"]
    assert [s.object for s in resolve_statements(ProposeToolArgs(), [FOUND]).statements] == [
        "Tesla"
    ]


def test_a_call_leaving_max_candidates_out_gets_the_runs_room() -> None:
    left_out = resolve_statements(ProposeToolArgs(), [FOUND], room=20)
    assert left_out.maxCandidates == 20  # not the field's default of 8
    chosen = resolve_statements(ProposeToolArgs(maxCandidates=5), [FOUND], room=20)
    assert chosen.maxCandidates == 5  # the model's own choice stands
    assert resolve_statements(ProposeToolArgs(), [FOUND]).maxCandidates == 8  # no room known


def test_an_unknown_reference_is_refused_naming_the_right_one() -> None:
    assert unknown_reference("statementsRef", STATEMENTS_FILE, STATEMENTS_FILE) is None
    assert unknown_reference("statementsRef", None, STATEMENTS_FILE) is None
    refusal = unknown_reference("statementsRef", "/research/other.json", STATEMENTS_FILE)
    assert refusal and "/research/other.json" in refusal and STATEMENTS_FILE in refusal


async def test_the_tool_refuses_an_unknown_reference_before_any_activity_runs() -> None:
    # Outside a workflow a dispatch would raise: the refusal answers first.
    tool = activity_tool("propose_knowledge_assets", routing=None, ledger=CandidateLedger())  # type: ignore[arg-type]
    answer: dict[str, Any] = json.loads(await tool.coroutine(statementsRef="/elsewhere"))  # type: ignore[misc]
    assert answer["success"] is False and STATEMENTS_FILE in answer["error"]


async def test_the_score_tool_refuses_an_unknown_candidates_reference_the_same_way() -> None:
    tool = activity_tool("score_candidates", routing=None, ledger=CandidateLedger())  # type: ignore[arg-type]
    answer: dict[str, Any] = json.loads(await tool.coroutine(candidatesRef="/elsewhere"))  # type: ignore[misc]
    assert answer["success"] is False
    assert answer["error"] == f"unknown candidatesRef '/elsewhere': use {CANDIDATES_FILE}"


async def test_a_given_dispatch_gets_the_resolved_call_and_its_answer_goes_to_the_ledger() -> None:
    # How bench/overhead_direct.py runs the same tools without Temporal: only the dispatch differs.
    ledger = CandidateLedger()
    ledger.statements = [FOUND]
    ledger.room = 20
    seen: list[tuple[str, Any]] = []
    row = {"candidateId": "cand-1", "asset": {"@id": "urn:x", "name": "Ganfeng supplies Tesla"}}

    async def direct(name: str, args: Any, routing: Any) -> ToolResponse:
        seen.append((name, args))
        return ToolResponse(success=True, results=[row], metadata=ToolMetadata())

    tool = activity_tool("propose_knowledge_assets", routing=None, ledger=ledger, dispatch=direct)  # type: ignore[arg-type]
    call = tool.coroutine(statementsRef=STATEMENTS_FILE, statements=[OWN.model_dump()])  # type: ignore[misc]
    answer = json.loads(await call)
    [(name, args)] = seen
    assert name == "propose_knowledge_assets"
    assert [s.object for s in args.statements] == ["Tesla", "Nevada"]
    assert args.maxCandidates == 20  # left out of the call: the run's room
    assert answer["candidatesRef"] == CANDIDATES_FILE
    assert ledger.proposed_rows() == [row]


def test_the_rules_model_is_sent_no_tool_schemas() -> None:
    tool = activity_tool("dkg_get_asset", routing=None)  # type: ignore[arg-type]
    bound = LocalModel(model="rules").bind_tools([tool], tool_choice="auto")
    assert bound.kwargs == {"tool_choice": "auto"}


@pytest.mark.parametrize("ref", [None, STATEMENTS_FILE])
def test_the_model_facing_arguments_accept_a_call_with_no_statements(ref: str | None) -> None:
    assert ProposeToolArgs(statementsRef=ref).statements == []
