"""A long run continues as new between its stages and ends as the uncontinued run does.

KM_CONTINUE_AS_NEW_BYTES (Settings.continue_as_new_bytes) set to 1 byte makes every safe
point due, so the run is a chain of five runs of one workflow id; the API, the CLI and
these tests read it by that id, which Temporal resolves to the chain's latest run.
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
from temporalio.api.enums.v1 import EventType
from temporalio.client import Client, WorkflowHandle, WorkflowHistory
from temporalio.worker import Replayer

from api.auth import TokenIssuer, load_secret
from contracts.research import ResearchConfig
from contracts.run import (
    Decision,
    KnowledgeMinerResponse,
    MiningRequest,
    Phase,
    Workspace,
)
from kminer.config import Settings
from kminer.stack import embedded_stack
from kminer.worker import deepagents_plugin
from temporal_client.runs import start_run
from tests.support.runs import wait_for_review
from workflows.mining import MiningWorkflow

QUESTION = "Which suppliers of lithium carry geopolitical risk?"
EVERY_SAFE_POINT = 1  # bytes: any history is past it


def request(review: str = "auto") -> MiningRequest:
    # No research cache: the two runs compared must each do their own discovery.
    return MiningRequest(
        query=QUESTION,
        domainTags=["supply_chain"],
        review=review,  # type: ignore[arg-type]
        research=ResearchConfig(enable_caching=False),
    )


def fresh(settings: Settings, tmp_path: Path, name: str, **changes: Any) -> Settings:
    """A data dir, database and queue of its own: one run's memory notes never reach the
    other's research plan."""
    return replace(
        settings,
        data_dir=tmp_path / name,
        database_url=f"sqlite:///{tmp_path / name / 'kminer.db'}",
        task_queue=f"can-{uuid.uuid4().hex[:8]}",
        **changes,
    )


async def chain(client: Client, handle: WorkflowHandle) -> list[WorkflowHistory]:
    """The history of every run of the workflow id, first to last."""
    runs = []
    run_id: str | None = handle.first_execution_run_id or handle.result_run_id
    while run_id:
        history = await client.get_workflow_handle(handle.id, run_id=run_id).fetch_history()
        runs.append(history)
        last = history.events[-1]
        run_id = None
        if last.event_type == EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW:
            run_id = last.workflow_execution_continued_as_new_event_attributes.new_execution_run_id
    return runs


def until_last_task(events: list[Any]) -> int:
    """Bytes of a run's events up to its last workflow task's start."""
    last = max(
        i for i, e in enumerate(events)
        if e.event_type == EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED
    )  # fmt: skip
    return sum(e.ByteSize() for e in events[: last + 1])


def outcome(result: KnowledgeMinerResponse) -> dict[str, Any]:
    """What a run found and decided, without what is per run (ids, UALs, timings)."""
    return {
        "candidates": sorted(
            (a["candidateId"], a["reviewStatus"], a["trustSignals"]["confidence"])
            for a in result.candidateAssets
        ),
        "answer": result.answer.text,
        "triplets": sorted(t.model_dump_json() for t in result.triplets),
        "published": sorted(p.candidateId for p in result.publishedAssets),
        "memoryWrites": result.memoryWrites,
        "todos": result.todos,
        "report": result.synthesizedReport,
        "modelCalls": result.usage.modelCalls,
        "toolCalls": result.usage.toolCalls,
    }


async def test_a_run_continued_at_every_stage_ends_as_the_uncontinued_run(
    settings: Settings, tmp_path: Path
) -> None:
    plain = fresh(settings, tmp_path, "plain")
    async with embedded_stack(plain, with_api=False) as stack:
        handle = await start_run(stack.client, plain.task_queue, request())
        expected = await handle.result()
        assert len(await chain(stack.client, handle)) == 1  # the default threshold: no chain

    continued = fresh(settings, tmp_path, "continued", continue_as_new_bytes=EVERY_SAFE_POINT)
    async with embedded_stack(continued, with_api=True) as stack:
        handle = await start_run(stack.client, continued.task_queue, request())
        result = await handle.result()  # follows the chain to its last run
        runs = await chain(stack.client, handle)
        # The API reads a run by workflow id: the chain's latest run answers for all of it,
        # and the list shows the chain once.
        token = TokenIssuer(load_secret(continued.data_dir)).mint("tester", "admin")
        headers = {"Authorization": f"Bearer {token}"}
        async with httpx.AsyncClient(base_url=stack.api_url or "", headers=headers) as http:
            got = await http.get(f"/api/runs/{handle.id}")
            listed = await http.get("/api/runs", params={"limit": 50})
    assert got.status_code == 200 and listed.status_code == 200, (got.text, listed.text)
    ws = Workspace.model_validate(got.json())
    assert [r["runId"] for r in listed.json()["runs"]].count(handle.id) == 1

    assert result.phase == Phase.COMPLETED
    # One run per stage: discovery | enrichment | validation | review | publishing.
    assert len(runs) == 5, [len(h.events) for h in runs]
    got, want = outcome(result), outcome(expected)
    for key in want:
        assert got[key] == want[key], f"{key}: {got[key]!r} != {want[key]!r}"
    assert result.publishedAssets and result.summary == expected.summary
    assert ws.runId == handle.id and ws.phase == Phase.COMPLETED
    assert ws.phaseHistory == [
        Phase.PLANNING, Phase.DISCOVERY, Phase.ENRICHMENT, Phase.VALIDATION,
        Phase.PUBLISHING, Phase.COMPLETED,
    ]  # fmt: skip
    assert ws.research is not None and ws.research.subtasks
    # History size summed over the chain, each run counted up to its last workflow task
    # (a continued run's closing events, the checkpoint among them, come after it).
    assert ws.historyRuns == 5
    stored = sum(e.ByteSize() for h in runs for e in h.events)
    measured = sum(until_last_task(h.events) for h in runs)
    assert 0.8 * measured <= ws.historyBytes <= stored, (measured, ws.historyBytes, stored)
    total_events = sum(len(h.events) for h in runs)
    assert 0 <= total_events - ws.historyEvents <= 10 * len(runs)
    # Each run of the chain, the checkpoint it started from included, replays as it ran.
    replayer = Replayer(workflows=[MiningWorkflow], plugins=[deepagents_plugin(continued)])
    for history in runs:
        replayed = await replayer.replay_workflow(history, raise_on_replay_failure=False)
        assert replayed.replay_failure is None, replayed.replay_failure


async def test_reviewer_decisions_survive_the_continuation_before_publishing(
    settings: Settings, tmp_path: Path
) -> None:
    continued = fresh(settings, tmp_path, "reviewed", continue_as_new_bytes=EVERY_SAFE_POINT)
    async with embedded_stack(continued, with_api=False) as stack:
        handle = await start_run(stack.client, continued.task_queue, request("required"))
        ws = await wait_for_review(handle)  # in the chain's fourth run
        assert ws.historyRuns == 4
        claim = next(c for c in ws.candidates if c.accepted and c.kind == "claim")
        edited = {**claim.asset, "name": f"{claim.asset.get('name', 'claim')} (edited)"}
        (revalidated,) = await handle.execute_update(
            MiningWorkflow.decide, [Decision(candidateId=claim.id, action="edit", asset=edited)]
        )
        others = [c for c in ws.pendingApprovals if c != claim.id]
        assert len(others) >= 2, ws.pendingApprovals
        approved, rejected = others[: len(others) // 2], others[len(others) // 2 :]
        for candidate_id in approved:
            await handle.signal(MiningWorkflow.approve, candidate_id)
        # The last batch settles the review as soon as it is recorded, while its handler
        # still awaits the decision audit: the run may continue only once it has answered.
        last = [Decision(candidateId=c, action="reject") for c in rejected]
        if revalidated.status == "pending":  # re-validation did not accept the edit
            last.append(Decision(candidateId=claim.id, action="approve"))
        answered = await handle.execute_update(MiningWorkflow.decide, last)
        assert [r.candidateId for r in answered] == [d.candidateId for d in last]
        assert {r.status for r in answered} <= {"approved", "rejected"}
        result = await handle.result()
        runs = await chain(stack.client, handle)

    assert len(runs) == 5
    decided = {d.candidateId: d.action for d in result.decisions}
    assert {d.candidateId: d.action for d in result.decisions[:1]} == {claim.id: "edit"}
    assert decided == {
        **{c: "approve" for c in approved},
        **{c: "reject" for c in rejected},
        claim.id: "edit" if revalidated.status == "approved" else "approve",
    }
    status = {a["candidateId"]: a["reviewStatus"] for a in result.candidateAssets}
    assert all(status[c] == "rejected" for c in rejected)
    published = {p.candidateId for p in result.publishedAssets}
    assert published == {c for c in decided if status[c] == "published"}
    assert set(approved) <= published
    assert claim.id in published
    edited_asset = next(a for a in result.candidateAssets if a["candidateId"] == claim.id)
    assert edited_asset["name"] == edited["name"]
