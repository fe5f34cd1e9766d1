"""The run log is deterministic: replaying a run's history rebuilds the very log the live
run answered with (the same entries, numbers, times and values), and the log adds no
command (the history replays without divergence)."""

from __future__ import annotations

import asyncio
from typing import Any

from temporalio import workflow
from temporalio.worker import (
    ExecuteWorkflowInput,
    Interceptor,
    Replayer,
    WorkflowInboundInterceptor,
    WorkflowInterceptorClassInput,
)

from contracts.run import Decision, Phase
from contracts.run_log import RunLogPage
from kminer.config import Settings
from kminer.stack import Stack
from kminer.worker import deepagents_plugin
from tests.support.runs import start_reviewed_run
from workflows.mining import MiningWorkflow
from workflows.run_log import rebuilt, workspace_view

REPLAYED: list[RunLogPage] = []


class _ReadLogAtTheEnd(WorkflowInboundInterceptor):
    async def execute_workflow(self, input: ExecuteWorkflowInput) -> Any:
        try:
            return await super().execute_workflow(input)
        finally:
            REPLAYED.append(workflow.instance()._log.page(-1, 10**6))


class ReadLog(Interceptor):
    def workflow_interceptor_class(
        self, input: WorkflowInterceptorClassInput
    ) -> type[WorkflowInboundInterceptor]:
        return _ReadLogAtTheEnd


async def whole_log(handle: Any) -> RunLogPage:
    entries, after = [], -1
    while True:
        page = await handle.query(MiningWorkflow.run_log, args=[after, 500])
        entries += page.entries
        if not page.more:
            return RunLogPage(floor=page.floor, last=page.last, entries=entries)
        after = page.entries[-1].seq


async def replayed_log(handle: Any, settings: Settings) -> RunLogPage:
    """The log a replay of the run's history rebuilds (the replay must not diverge)."""
    REPLAYED.clear()
    replayer = Replayer(
        workflows=[MiningWorkflow], interceptors=[ReadLog()], plugins=[deepagents_plugin(settings)]
    )
    replayed = await replayer.replay_workflow(
        await handle.fetch_history(), raise_on_replay_failure=False
    )
    assert replayed.replay_failure is None, replayed.replay_failure
    [from_history] = REPLAYED
    return from_history


async def test_a_replayed_history_rebuilds_the_log_the_live_run_answered_with(
    stack: Stack, settings: Settings
) -> None:
    handle, ws = await start_reviewed_run(stack, settings.task_queue)
    during_review = await whole_log(handle)
    await handle.execute_update(
        MiningWorkflow.decide,
        [Decision(candidateId=c, action="reject") for c in ws.pendingApprovals],
    )
    await handle.result()
    live = await whole_log(handle)
    final = await handle.query(MiningWorkflow.workspace)

    from_history = await replayed_log(handle, settings)
    assert from_history.entries == live.entries
    assert live.entries[: len(during_review.entries)] == during_review.entries
    # Every phase the run went through is an entry of its own, in order.
    phases = [e.value[0] for e in live.entries if e.key == "phaseHistory"]
    assert ["PLANNING", *phases] == [p.value for p in final.phaseHistory]
    assert final.phase == Phase.COMPLETED
    assert rebuilt(from_history.model_copy(update={"base": workspace_view(type(final)())})) == (
        workspace_view(final)
    )


async def test_decisions_sent_at_once_beside_an_edit_replay_to_the_same_log(
    stack: Stack, settings: Settings
) -> None:
    """Each update waits for the local activities in flight (an edit's audit and
    re-validation): all are applied, once each, and a replay rebuilds the same log."""
    handle, ws = await start_reviewed_run(stack, settings.task_queue)
    edit_id = next(c.id for c in ws.candidates if c.accepted and c.kind == "claim")
    edited = dict(next(c.asset for c in ws.candidates if c.id == edit_id))
    edited["name"] = "Edited at once: " + edited["name"]
    others = [c for c in ws.pendingApprovals if c != edit_id]
    batches = [[Decision(candidateId=edit_id, action="edit", asset=edited)]] + [
        [Decision(candidateId=c, action="reject")] for c in others
    ]
    answered = await asyncio.gather(
        *(handle.execute_update(MiningWorkflow.decide, batch) for batch in batches)
    )
    assert [r.candidateId for rows in answered for r in rows] == [edit_id, *others]
    await handle.result()
    live = await whole_log(handle)

    from_history = await replayed_log(handle, settings)
    assert from_history.entries == live.entries
    decided = [e for e in live.entries if e.kind == "decided"]
    ids = [d["candidateId"] for e in decided for d in e.value["decisions"]]
    assert sorted(ids) == sorted([edit_id, *others]), decided
