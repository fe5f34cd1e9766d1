"""The research plan's decomposition, its configuration, a gather retried mid-group, and a
passage over its reading budget reported by the sub-question that met it."""

from __future__ import annotations

import dataclasses
import uuid
from typing import Any

import pytest
from pydantic import ValidationError
from temporalio.testing import ActivityEnvironment

from activities.common import Auditor
from activities.embeddings import shared_minilm
from activities.research_gather import ResearchGatherActivities
from activities.statements import StatementActivities
from contracts.research import (
    NODE_TYPES,
    GatherArgs,
    PlanArgs,
    ResearchConfig,
    ResearchQuestion,
    ResearchTaskStatus,
    SubtaskOutcome,
)
from contracts.run import MiningRequest
from kminer.config import ConfigError, research_from_env
from mining import extraction
from mining.nlp import Resolver
from mining.research_plan import decompose
from storage.dkg.embedded import SEED_DIR, EmbeddedDkg
from workflows.research_synthesis import merged

QUESTION = "Which suppliers of lithium carry geopolitical risk?"


@pytest.fixture(scope="module")
def dkg() -> Any:
    store = EmbeddedDkg(None)
    store.ensure_seeded(SEED_DIR)
    yield store
    store.close()


def plan(dkg: Any, **kw: Any) -> list[ResearchQuestion]:
    args = PlanArgs(query=kw.pop("query", QUESTION), **kw)
    gazetteer = dkg.gazetteer()
    related = dkg.find_related(args.query, limit=8)
    return decompose(args, gazetteer, related, Resolver(gazetteer)).questions


def test_the_plan_starts_with_the_question_and_adds_angles_by_priority(dkg: Any) -> None:
    questions = plan(dkg, primaryResults=12, memory={"/m/supply_chain/discovery-notes.md": "- x"})
    first = questions[0]
    assert first.question == QUESTION and first.execution_priority == 1
    assert first.node_type == "document_search" and first.node_config["maxResults"] == 12
    assert [q.id for q in questions] == list(range(1, len(questions) + 1))
    priorities = [q.execution_priority for q in questions]
    assert priorities == sorted(priorities) and 2 in priorities
    types = {q.node_type for q in questions}
    assert types <= set(NODE_TYPES) and {"dkg_sparql", "memory_search"} <= types
    angles = " ".join(q.question for q in questions if q.execution_priority == 2)
    assert "supplies lithium" in angles and "exports of lithium" in angles
    assert all(q.keywords for q in questions)
    assert len({q.question for q in questions}) == len(questions)
    assert plan(dkg, memory={"/m/supply_chain/discovery-notes.md": "- x"}) == plan(
        dkg, memory={"/m/supply_chain/discovery-notes.md": "- x"}
    ), "deterministic"


def test_the_plan_respects_max_subtasks_and_the_search_backend(dkg: Any) -> None:
    for n in range(1, 7):
        assert 1 <= len(plan(dkg, maxSubtasks=n)) <= n
    assert [q.question for q in plan(dkg, maxSubtasks=1)] == [QUESTION]
    assert "memory_search" not in {q.node_type for q in plan(dkg)}, "no notes, no memory step"
    web = plan(dkg, search="tavily")
    assert "document_search" not in {q.node_type for q in web}
    assert web[0].node_type == "web_search"


def test_research_config_from_env_and_requests_is_validated() -> None:
    config = research_from_env(
        {"KM_RESEARCH_MAX_SUBTASKS": "4", "KM_RESEARCH_ENABLE_CACHING": "false"}
    )
    assert config.max_subtasks == 4 and config.enable_caching is False
    assert research_from_env({}) == ResearchConfig()
    with pytest.raises(ConfigError, match="KM_RESEARCH_MAX_SUBTASKS"):
        research_from_env({"KM_RESEARCH_MAX_SUBTASKS": "11"})
    with pytest.raises(ConfigError, match="KM_RESEARCH_SIMILARITY_THRESHOLD"):
        research_from_env({"KM_RESEARCH_SIMILARITY_THRESHOLD": "high"})
    request = MiningRequest(query="q", research={"max_concurrent_subtasks": 2})
    assert request.research is not None and request.research.max_concurrent_subtasks == 2
    for bad in ({"max_concurrent_subtasks": 0}, {"max_age_days": 400}, {"unknown": 1}):
        with pytest.raises(ValidationError):
            MiningRequest(query="q", research=bad)


class Backend:
    name = "local-corpus"

    def __init__(self) -> None:
        self.queries: list[str] = []

    def search(self, query: str, max_results: int) -> list[dict[str, Any]]:
        self.queries.append(query)
        if "fails" in query:
            raise OSError("backend down")
        return []


def questions(*texts: str) -> list[ResearchQuestion]:
    return [
        ResearchQuestion(id=i, question=t, node_type="document_search", execution_priority=2)
        for i, t in enumerate(texts, start=1)
    ]


async def test_a_retried_gather_skips_the_sub_questions_it_had_finished() -> None:
    backend = Backend()
    gather = ResearchGatherActivities(backend, backend, None, None, Auditor(None))  # type: ignore[arg-type]
    finished = SubtaskOutcome(
        id=1, status=ResearchTaskStatus.COMPLETED, finding="from the first attempt", started=1.0
    )
    env = ActivityEnvironment()
    beats: list[Any] = []
    env.on_heartbeat = lambda *details: beats.append(details)
    env.info = dataclasses.replace(
        env.info, attempt=2, heartbeat_details=[[finished.model_dump(mode="json")]]
    )
    args = GatherArgs(
        runId="r", query="q", questions=questions("one", "two", "this one fails"), maxConcurrent=2
    )
    result = await env.run(gather.research_gather, args)
    assert backend.queries == ["two", "this one fails"], "the finished one is not searched again"
    assert [o.id for o in result.outcomes] == [1, 2, 3]
    assert result.outcomes[0].finding == "from the first attempt"
    assert result.outcomes[1].status == ResearchTaskStatus.COMPLETED
    assert result.outcomes[2].status == ResearchTaskStatus.FAILED
    assert "backend down" in (result.outcomes[2].error_message or "")
    # Progress is checkpointed as it happens: the last heartbeat holds all three.
    assert {row["id"] for row in beats[-1][0]} == {1, 2, 3}


def test_merged_statements_keep_each_fact_once_best_first() -> None:
    a = {"subject": "A", "predicate": "supplies", "object": "B", "source": "s", "relevance": 0.5}
    b = {"subject": "C", "predicate": "supplies", "object": "D", "source": "s", "relevance": 0.9}
    rows = merged([[a, b], [dict(a, relevance=0.99)]])
    assert rows == [b, a]


def test_statements_of_the_other_angles_must_be_more_relevant() -> None:
    own = {"subject": "A", "predicate": "supplies", "object": "B", "source": "s", "relevance": 0.5}
    weak = dict(own, subject="C", relevance=0.5)
    strong = dict(own, subject="D", relevance=0.65)
    assert merged([[own], [weak, strong]], later=0.6) == [strong, own]


async def test_a_passage_over_its_reading_budget_is_skipped_and_named_in_its_sub_question(
    dkg: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = uuid.uuid4().hex  # a text no earlier test read (reads are memoised)
    source = f"file:///reports/{marker}.txt"
    passage = f"{marker[:12]}:0"

    class Passages:
        name = "local-corpus"

        def search(self, query: str, max_results: int) -> list[dict[str, Any]]:
            text = f"Ganfeng Lithium supplies lithium to Tesla. Report {marker} says so."
            hit = {"title": "Lithium notes", "url": source, "content": text, "score": 1.0}
            return [hit | {"passageId": passage, "start": 0, "end": len(text), "documentId": 1}]

    statements = StatementActivities(dkg, shared_minilm(), Auditor(None))
    gather = ResearchGatherActivities(Passages(), Passages(), dkg, statements, Auditor(None))
    args = GatherArgs(runId="r", query=QUESTION, questions=questions("Who supplies Tesla?"))
    monkeypatch.setattr(extraction, "READING_BUDGET_S", 0.0)  # every text is over it
    (outcome,) = (await ActivityEnvironment().run(gather.research_gather, args)).outcomes
    assert outcome.status == ResearchTaskStatus.COMPLETED and outcome.statements == []
    said = f"1 passage(s) not read, over their reading budget: {source}#{passage}"
    assert outcome.error_message == said
    # Remembered as read: with time enough it is still not read again, and still reported.
    monkeypatch.undo()
    (again,) = (await ActivityEnvironment().run(gather.research_gather, args)).outcomes
    assert again.statements == [] and again.error_message == said
