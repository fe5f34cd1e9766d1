"""Workflow code is deterministic: a finished run's history replays without divergence."""

from __future__ import annotations

from temporalio.worker import Replayer

from kminer.config import Settings
from kminer.runs import start_run
from kminer.stack import Stack
from kminer.worker import deepagents_plugin
from workflows.contracts import MiningRequest, Phase
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
    history = await handle.fetch_history()
    replayer = Replayer(workflows=[MiningWorkflow], plugins=[deepagents_plugin(settings)])
    replayed = await replayer.replay_workflow(history, raise_on_replay_failure=False)
    assert replayed.replay_failure is None, replayed.replay_failure
