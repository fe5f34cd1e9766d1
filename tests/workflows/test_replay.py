"""Workflow code is deterministic: a finished run's history replays without divergence."""

from __future__ import annotations

from temporalio.worker import Replayer

from contracts.run import MiningRequest, Phase
from kminer.config import Settings
from kminer.stack import Stack
from kminer.worker import deepagents_plugin
from temporal_client.runs import start_run
from workflows.mining import MiningWorkflow


async def test_a_completed_run_replays_deterministically(stack: Stack, settings: Settings) -> None:
    request = MiningRequest(
        query="Which suppliers of lithium carry geopolitical risk?",
        domainTags=["supply_chain"],
        review="auto",
    )
    handle = await start_run(stack.client, settings.task_queue, request)
    result = await handle.result()
    assert result.phase == Phase.COMPLETED
    from tests.support.runs import executed

    assert await executed(handle, "score_candidates") == 1, "the agent's faithful scores stand"
    history = await handle.fetch_history()
    replayer = Replayer(workflows=[MiningWorkflow], plugins=[deepagents_plugin(settings)])
    replayed = await replayer.replay_workflow(history, raise_on_replay_failure=False)
    assert replayed.replay_failure is None, replayed.replay_failure


async def test_a_reviewed_run_with_signals_and_updates_replays(
    stack: Stack, settings: Settings
) -> None:
    from contracts.run import Decision
    from tests.support.runs import start_reviewed_run

    handle, ws = await start_reviewed_run(stack, settings.task_queue)
    second = next(c.id for c in ws.candidates if c.accepted and c.kind == "claim")
    first, *rest = [c for c in ws.pendingApprovals if c != second]
    edited = {**next(c.asset for c in ws.candidates if c.id == second), "name": "edited"}
    await handle.signal(MiningWorkflow.approve, first)
    await handle.execute_update(
        MiningWorkflow.decide,
        [Decision(candidateId=second, action="edit", asset=edited)]
        + [Decision(candidateId=c, action="reject") for c in rest],
    )
    await handle.result()
    replayer = Replayer(workflows=[MiningWorkflow], plugins=[deepagents_plugin(settings)])
    replayed = await replayer.replay_workflow(
        await handle.fetch_history(), raise_on_replay_failure=False
    )
    assert replayed.replay_failure is None, replayed.replay_failure
