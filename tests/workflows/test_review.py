"""Review through signals and the `decide` update on the real Temporal dev server."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from temporalio.client import WorkflowFailureError, WorkflowUpdateFailedError

from contracts.run import Decision, Phase
from kminer.stack import Stack
from tests.support.runs import executed, start_reviewed_run
from workflows.mining import MiningWorkflow


async def test_required_review_waits_and_each_decision_changes_the_outcome(
    stack: Stack, settings: Any
) -> None:
    handle, ws = await start_reviewed_run(stack, settings.task_queue)
    assert len(ws.candidates) >= 3, "the demo question should yield several candidates"
    assert sorted(ws.pendingApprovals) == sorted(c.id for c in ws.candidates)
    assert all(c.status == "pending" for c in ws.candidates)

    # The edit keeps an accepted claim's evidence, so re-validation accepts it again.
    edit_id = next(c.id for c in ws.candidates if c.accepted and c.kind == "claim")
    approve_id, reject_id, *rest = [c.id for c in ws.candidates if c.id != edit_id]
    edited = dict(next(c.asset for c in ws.candidates if c.id == edit_id))
    edited["name"] = "Edited by reviewer: " + edited["name"]
    edited.pop("trustSignals")  # so a confidence in the answer can only come from re-validation

    await handle.signal(MiningWorkflow.approve, approve_id)
    await handle.signal(MiningWorkflow.reject, args=[reject_id, "not supported by sources"])
    results = await handle.execute_update(
        MiningWorkflow.decide,
        [Decision(candidateId=edit_id, action="edit", asset=edited)]
        + [Decision(candidateId=cid, action="reject", reason="out of scope") for cid in rest],
    )
    edit_result = next(r for r in results if r.candidateId == edit_id)
    assert edit_result.status == "approved"
    assert edit_result.confidence is not None, "an edited asset is re-validated"

    result = await handle.result()
    published = {p.candidateId: p.ual for p in result.publishedAssets}
    assert set(published) == {approve_id, edit_id}
    asset = stack.services.dkg.get_asset(published[edit_id])
    assert asset is not None and asset["name"].startswith("Edited by reviewer: ")
    statuses = {a["candidateId"]: a["reviewStatus"] for a in result.candidateAssets}
    assert statuses[reject_id] == "rejected"
    assert result.phase == Phase.COMPLETED
    assert await executed(handle, "score_candidates") == 2, "validation, then the one edit"


@pytest.mark.parametrize(
    "bad,message",
    [
        (Decision(candidateId="cand-nope", action="approve"), "unknown candidate"),
        (
            Decision(candidateId="{first}", action="edit", asset={"name": "no type"}),
            "invalid JSON-LD",
        ),
        (Decision(candidateId="{first}", action="edit"), "needs the edited asset"),
    ],
)
async def test_an_invalid_decision_is_refused_clearly_and_changes_nothing(
    stack: Stack, settings: Any, bad: Decision, message: str
) -> None:
    handle, ws = await start_reviewed_run(stack, settings.task_queue)
    first = ws.candidates[0].id
    bad = bad.model_copy(update={"candidateId": bad.candidateId.replace("{first}", first)})
    with pytest.raises(WorkflowUpdateFailedError) as refused:
        await handle.execute_update(MiningWorkflow.decide, [bad])
    assert message in str(refused.value.cause)
    after = await handle.query(MiningWorkflow.workspace)
    # The refused update is itself recorded in the history, so only its size moves.
    moving = {"usage", "historyEvents", "historyBytes"}
    assert after.model_dump(exclude=moving) == ws.model_dump(exclude=moving)
    await handle.cancel()


async def test_a_bad_signal_is_recorded_and_ignored(stack: Stack, settings: Any) -> None:
    handle, ws = await start_reviewed_run(stack, settings.task_queue)
    await handle.signal(MiningWorkflow.approve, "cand-does-not-exist")
    for _ in range(50):
        after = await handle.query(MiningWorkflow.workspace)
        if after.errors:
            break
        await asyncio.sleep(0.1)
    assert any("unknown candidate" in e for e in after.errors), after.errors
    assert after.pendingApprovals == ws.pendingApprovals
    await handle.cancel()


async def test_an_edit_validation_does_not_accept_goes_back_to_the_reviewer(
    stack: Stack, settings: Any
) -> None:
    handle, ws = await start_reviewed_run(stack, settings.task_queue)
    # A claim validation did not accept, edited without its links: still not accepted.
    target = next(c for c in ws.candidates if c.kind == "claim" and not c.accepted)
    weak = {k: v for k, v in target.asset.items() if k not in ("linkedAssets", "trustSignals")}
    [result] = await handle.execute_update(
        MiningWorkflow.decide, [Decision(candidateId=target.id, action="edit", asset=weak)]
    )
    assert result.status == "pending" and result.accepted is False
    after = await handle.query(MiningWorkflow.workspace)
    again = next(c for c in after.candidates if c.id == target.id)
    assert "re-validation did not accept the edit" in (again.reviewNote or "")
    assert target.id in after.pendingApprovals

    await handle.execute_update(
        MiningWorkflow.decide,
        [Decision(candidateId=target.id, action="approve")]
        + [
            Decision(candidateId=c, action="reject")
            for c in after.pendingApprovals
            if c != target.id
        ],
    )
    final = await handle.result()
    assert [p.candidateId for p in final.publishedAssets] == [target.id]


async def test_the_review_deadline_expires_what_is_left(stack: Stack, settings: Any) -> None:
    handle, ws = await start_reviewed_run(stack, settings.task_queue, timeout_seconds=2)
    first = ws.candidates[0].id
    await handle.execute_update(
        MiningWorkflow.decide, [Decision(candidateId=first, action="approve")]
    )
    result = await asyncio.wait_for(handle.result(), 60)
    statuses = {a["candidateId"]: a["reviewStatus"] for a in result.candidateAssets}
    assert statuses.pop(first) == "published"
    assert set(statuses.values()) == {"expired"}
    assert [p.candidateId for p in result.publishedAssets] == [first]


async def test_a_cancelled_run_says_canceled(stack: Stack, settings: Any) -> None:
    handle, _ = await start_reviewed_run(stack, settings.task_queue)
    await handle.cancel()
    with pytest.raises(WorkflowFailureError):
        await handle.result()
    ws = await handle.query(MiningWorkflow.workspace)
    assert ws.phase == Phase.CANCELED and ws.phaseHistory[-2:] == [Phase.REVIEW, Phase.CANCELED]
