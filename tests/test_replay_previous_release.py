"""Histories recorded by the previous release (commit 9afa725, before issue 10) replay
against the current workflow code; a deliberately non-deterministic change fails them."""

from __future__ import annotations

import gzip
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from temporalio import workflow
from temporalio.client import WorkflowHistory
from temporalio.worker import Replayer, UnsandboxedWorkflowRunner

from kminer.config import Settings
from kminer.worker import deepagents_plugin
from workflows.mining import MiningWorkflow

HISTORIES = Path(__file__).parent / "fixtures" / "histories"
RECORDED = {
    "previous_release_completed.json.gz": "prev-auto",  # review auto, published
    "previous_release_reviewed.json.gz": "prev-reviewed",  # waited, decide update, published
}


def _history(name: str) -> WorkflowHistory:
    return WorkflowHistory.from_json(
        RECORDED[name], gzip.decompress((HISTORIES / name).read_bytes()).decode()
    )


@workflow.defn(name="MiningWorkflow", sandboxed=False)
class MiningWithAnExtraTimer(MiningWorkflow):
    """The kind of change that must go behind workflow.patched: a new command up front."""

    @workflow.run
    async def run(self, raw: Any) -> Any:
        await workflow.sleep(timedelta(seconds=1))
        return await super().run(raw)


@pytest.mark.parametrize("name", sorted(RECORDED))
async def test_the_previous_release_replays_on_the_current_code(
    name: str, settings: Settings
) -> None:
    history = _history(name)
    assert len(history.events) > 100
    replayer = Replayer(workflows=[MiningWorkflow], plugins=[deepagents_plugin(settings)])
    replayed = await replayer.replay_workflow(history, raise_on_replay_failure=False)
    assert replayed.replay_failure is None, replayed.replay_failure


@pytest.mark.parametrize("name", sorted(RECORDED))
async def test_a_non_deterministic_change_fails_the_replay(name: str, settings: Settings) -> None:
    replayer = Replayer(
        workflows=[MiningWithAnExtraTimer],
        plugins=[deepagents_plugin(settings)],
        workflow_runner=UnsandboxedWorkflowRunner(),
    )
    replayed = await replayer.replay_workflow(_history(name), raise_on_replay_failure=False)
    assert replayed.replay_failure is not None
    assert "nondetermin" in str(replayed.replay_failure).lower()
