"""Deep research inside discovery (seed 004) on the real Temporal dev server.

The worker is the real one (`build_worker`) over the demo DKG and corpus; only the
search backend's `search` is wrapped to make each call take a measurable time or to
fail for one sub-question, so parallelism and failure are visible in the run's history.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

from sqlmodel import Session, select
from temporalio.api.enums.v1 import EventType
from temporalio.client import Client, WorkflowHandle

from contracts.research import ResearchConfig, ResearchTaskStatus
from contracts.run import MiningRequest, Phase
from kminer.config import Settings
from storage.sql.tables import ResearchRun
from temporal_client.runs import start_run
from tests.support.research import TAGS, gather_groups, research_worker, workspace
from tests.support.runs import QUESTION

PARAPHRASE = "What lithium suppliers are exposed to geopolitical risks?"
UNRELATED = "Which companies sponsor Alzheimer's clinical trials?"
SEARCH_SECONDS = 0.6


async def mine(client: Client, settings: Settings, query: str, **kw: Any) -> WorkflowHandle:
    request = MiningRequest(
        query=query, domainTags=kw.pop("tags", TAGS), review="auto", maxIterations=2, **kw
    )
    handle = await start_run(client, settings.task_queue, request)
    result = await asyncio.wait_for(handle.result(), 180)
    assert result.phase == Phase.COMPLETED
    return handle


async def scheduled_types(handle: WorkflowHandle) -> list[str]:
    names = []
    async for event in handle.fetch_history_events():
        if event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
            names.append(event.activity_task_scheduled_event_attributes.activity_type.name)
    return names


def most_at_once(intervals: list[tuple[float, float]]) -> int:
    """The largest number of intervals open at one instant (an end before a start on ties)."""
    edges = sorted([(s, 1) for s, _ in intervals] + [(e, -1) for _, e in intervals])
    open_now = most = 0
    for _, step in edges:
        open_now += step
        most = max(most, open_now)
    return most


async def test_priority_groups_run_in_order_in_parallel_within_the_limit(
    settings: Settings,
) -> None:
    config = ResearchConfig(max_concurrent_subtasks=2, enable_caching=False)
    async with research_worker(settings, delay=SEARCH_SECONDS, fail_on="sanctions") as (
        client, _, _,
    ):  # fmt: skip
        handle = await mine(client, settings, QUESTION, research=config)
        ws = await workspace(handle)
        groups = await gather_groups(client, handle)

    task = ws.research
    assert task is not None and task.status == ResearchTaskStatus.COMPLETED
    priorities = [s.question.execution_priority for s in task.subtasks]
    assert priorities == sorted(priorities) and set(priorities) == {1, 2}
    assert 1 <= len(task.subtasks) <= 6

    # One gather activity per priority, the second scheduled only after the first completed.
    assert len(groups) == 2
    first, second = groups
    assert first["completed"] < second["scheduled"]
    p1 = first["result"].outcomes
    p2 = second["result"].outcomes
    by_id = {s.id: s for s in task.subtasks}
    assert {o.id for o in p1} == {i for i, s in by_id.items() if s.question.execution_priority == 1}
    assert {o.id for o in p2} == {i for i, s in by_id.items() if s.question.execution_priority == 2}
    assert max(o.ended for o in p1) <= min(o.started for o in p2)

    # Within a group: in parallel, never more than max_concurrent_subtasks at once.
    assert len(p2) >= 3, "the lithium question plans at least three priority-2 angles"
    intervals = [(o.started, o.ended) for o in p2]
    assert most_at_once(intervals) == 2
    assert second["result"].maxInFlight == 2
    span = max(e for _, e in intervals) - min(s for s, _ in intervals)
    assert span < sum(e - s for s, e in intervals), "overlapping, not one after another"

    # The failing sub-question is recorded with its error; the others and the run go on.
    failed = [s for s in task.subtasks if s.status == ResearchTaskStatus.FAILED]
    assert [s.question.question for s in failed] == [
        q.question.question for q in task.subtasks if "sanctions" in q.question.question
    ]
    assert failed and "search backend unavailable" in (failed[0].error_message or "")
    assert failed[0].result is not None and failed[0].result.error_message
    others = [s for s in task.subtasks if s not in failed]
    assert all(s.status == ResearchTaskStatus.COMPLETED for s in others)
    assert any("sub-question" in e and "failed" in e for e in ws.errors)
    # The evidence reached enrichment: candidates carry passage-level evidence.
    assert ws.candidates, "research statements became candidates"
    claims = [c for c in ws.candidates if c.kind == "claim"]
    assert any(e.get("id") for c in claims for e in c.asset["provenance"]["evidence"])
    # Provenance triplets name the sub-question that found each candidate's evidence.
    found = [t for t in ws.triplets if t.predicate == "foundByResearchQuestion"]
    assert found and {t.subject for t in found} <= {c.id for c in ws.candidates}
    assert {t.object.split()[0] for t in found} <= {f"Q{s.id}" for s in task.subtasks}
    # The plan is the discovery's todos, all done.
    mine_todos = [t for t in ws.todos if t.agent == "discovery"]
    assert len(mine_todos) == len(task.subtasks)
    assert all(t.status == "completed" for t in mine_todos)


async def test_a_paraphrase_on_the_same_thread_reuses_the_research(settings: Settings) -> None:
    async with research_worker(settings) as (client, services, searched):
        cold = await mine(client, settings, QUESTION)
        cold_ws = await workspace(cold)
        assert cold_ws.research and not cold_ws.research.cacheHit
        assert cold_ws.research.cacheLookup is not None
        assert not cold_ws.research.cacheLookup.cache_hit
        assert cold_ws.research.cacheLookup.source_id is None
        assert "research_gather" in await scheduled_types(cold)
        with Session(services.engine) as session:
            row = session.get(ResearchRun, cold.id)
        assert row is not None and row.thread_id == "general_risk__supply_chain"
        assert row.statement_count > 0 and row.evidence_ref

        searched.clear()
        warm = await mine(client, settings, PARAPHRASE)
        ws = await workspace(warm)
        types = await scheduled_types(warm)
        assert "research_gather" not in types and "web_search" not in types
        assert searched == [], "no search ran at all"
        assert ws.research is not None and ws.research.cacheHit
        assert ws.research.reusedTaskId == cold.id
        assert (ws.research.similarity or 0) >= 0.8
        lookup = ws.research.cacheLookup
        assert lookup is not None and lookup.cache_hit and lookup.source_id == cold.id
        assert lookup.count > 0
        assert ws.candidates, "the reused evidence fed enrichment"
        assert "reused task" in (await warm.result()).summary


async def test_the_cache_misses_other_threads_old_tasks_other_questions_and_when_off(
    settings: Settings,
) -> None:
    async with research_worker(settings) as (client, services, searched):
        await mine(client, settings, QUESTION)

        async def missed(handle: WorkflowHandle) -> bool:
            ws = await workspace(handle)
            assert ws.research is not None
            gathered = "research_gather" in await scheduled_types(handle)
            return not ws.research.cacheHit and gathered

        assert await missed(await mine(client, settings, PARAPHRASE, tags=["climate"]))
        assert await missed(await mine(client, settings, UNRELATED))
        off = ResearchConfig(enable_caching=False)
        assert await missed(await mine(client, settings, PARAPHRASE, research=off))

        # Every stored task of this thread made older than max_age_days: a miss.
        with Session(services.engine) as session:
            for row in session.exec(
                select(ResearchRun).where(ResearchRun.thread_id == "general_risk__supply_chain")
            ).all():
                row.created_at = row.created_at - timedelta(days=31)
                session.add(row)
            session.commit()
        assert await missed(await mine(client, settings, PARAPHRASE))
        # ...and that cold run stored itself, so the next paraphrase hits again.
        again = await workspace(await mine(client, settings, QUESTION))
        assert again.research is not None and again.research.cacheHit
