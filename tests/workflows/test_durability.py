"""A worker killed mid-run: a new worker finishes it without redoing finished work."""

from __future__ import annotations

import asyncio
import signal
from collections import Counter
from pathlib import Path

from sqlmodel import Session, select
from temporalio.api.enums.v1 import EventType
from temporalio.client import Client

from contracts.run import MiningRequest, Phase
from kminer.config import Settings
from kminer.worker import connect
from storage.dkg.embedded import EmbeddedDkg
from storage.sql.db import make_engine
from storage.sql.tables import AuditEvent, PublishRecord
from temporal_client.runs import start_run
from tests.support.processes import start_worker
from tests.support.runs import local_activity_type
from workflows.mining import MiningWorkflow

MID_RUN = {Phase.ENRICHMENT, Phase.VALIDATION}


async def wait_for_phase(client: Client, run_id: str, phases: set[Phase]) -> Phase:
    handle = client.get_workflow_handle(run_id)
    while True:
        try:
            ws = await handle.query(MiningWorkflow.workspace)
            if ws.phase in phases:
                return ws.phase
            assert ws.phase not in (Phase.PUBLISHING, Phase.COMPLETED), "run passed validation"
        except AssertionError:
            raise
        except Exception:  # noqa: BLE001 (the run's first task may not have run yet)
            pass
        await asyncio.sleep(0.02)


async def activity_history(client: Client, run_id: str) -> tuple[list[tuple[int, str]], dict]:
    """(scheduled or local-activity marker event id, activity type) in order, and the
    attempt each dispatched activity completed on."""
    scheduled: list[tuple[int, str]] = []
    attempts: dict[int, int] = {}
    async for event in client.get_workflow_handle(run_id).fetch_history_events():
        local = local_activity_type(event)
        if local is not None:
            # A tool run beside the workflow (a cheap DKG read, the scoring) executed once.
            scheduled.append((event.event_id, local))
        elif event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
            attrs = event.activity_task_scheduled_event_attributes
            scheduled.append((event.event_id, attrs.activity_type.name))
        elif event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED:
            attrs = event.activity_task_started_event_attributes
            attempts[attrs.scheduled_event_id] = attrs.attempt
    return scheduled, attempts


async def test_killed_worker_resumes_without_redoing_completed_activities(
    settings: Settings, tmp_path: Path
) -> None:
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    log = tmp_path / "worker.log"
    client = await connect(settings, settings.temporal_address or "")
    request = MiningRequest(
        query="Which suppliers of lithium carry geopolitical risk?",
        domainTags=["supply_chain", "general_risk"],
        review="auto",
    )
    first = start_worker(settings, log)
    second = None
    try:
        handle = await start_run(client, settings.task_queue, request)
        await asyncio.wait_for(wait_for_phase(client, handle.id, MID_RUN), 120)
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
        before_kill, _ = await activity_history(client, handle.id)
        # Discovery gathers through the research plan (runs before it: the agent's tools).
        gathered = {"extract_statements", "research_gather"}
        assert any(name in gathered for _, name in before_kill), "discovery ran"

        second = start_worker(settings, log)
        result = await asyncio.wait_for(handle.result(), 240)
    finally:
        for proc in (first, second):
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                proc.wait(timeout=15)

    assert result.phase == Phase.COMPLETED
    scheduled, attempts = await activity_history(client, handle.id)
    # Nothing that finished before the kill was scheduled again...
    assert scheduled[: len(before_kill)] == before_kill
    assert len({eid for eid, _ in scheduled}) == len(scheduled)
    # ...and the worker-side audit trail shows each tool executed once per scheduling,
    # except at most the one activity that was in flight when the worker died.
    engine = make_engine(settings.database_url)
    with Session(engine) as session:
        trail = session.exec(select(AuditEvent).where(AuditEvent.run_id == handle.id)).all()
        audited = Counter(e.tool for e in trail if e.kind == "tool")
        decided = [e.event_key for e in trail if e.kind == "decision"]
        records = session.exec(select(PublishRecord).where(PublishRecord.run_id == handle.id)).all()
    tools = Counter(
        name
        for _, name in scheduled
        if name in audited
        or name
        in {
            "web_search",
            "extract_statements",
            "dkg_find_related_assets",
            "dkg_sparql",
            "score_candidates",
        }
    )
    extra = sum((audited - tools).values())
    assert extra <= 1, f"re-executed tool calls: {audited - tools}"
    # Decisions are audited once each, whatever was retried.
    assert sorted(decided) == sorted(f"decision:{i}" for i in range(len(result.decisions)))
    retried = [eid for eid, attempt in attempts.items() if attempt > 1]
    assert len(retried) <= 1
    # Published exactly once: one record and one DKG asset per published candidate.
    assert result.publishedAssets, "auto review publishes the accepted candidates"
    assert len(records) == len(result.publishedAssets)
    assert {r.ual for r in records} == {p.ual for p in result.publishedAssets}
    dkg = EmbeddedDkg(settings.dkg_dir)
    try:
        for item in result.publishedAssets:
            rows = dkg.query(
                f"SELECT (COUNT(DISTINCT ?g) AS ?n) WHERE {{ GRAPH ?g {{ ?s ?p ?o }} "
                f"FILTER(?g = <{item.ual}>) }}"
            ).rows
            assert int(rows[0]["n"]) == 1
    finally:
        dkg.close()
