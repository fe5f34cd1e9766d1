"""Recorded histories replay against the current workflow code; a deliberately
non-deterministic change fails them.

Recorded by the release before issue 10 (commit 9afa725), and by the first with the rules
policy deciding in the workflow (commit 63cce09): a change to what that policy decides
fails these replays unless it goes behind a patch. `under_load_completed` is one of 50
runs started at once on one stack, by the first release asking its patches at the start
of the run (workflows/patches.py; tests/workflows/test_replay_under_load.py)."""

from __future__ import annotations

import gzip
from datetime import timedelta
from typing import Any

import pytest
from temporalio import workflow
from temporalio.client import WorkflowHistory
from temporalio.worker import Replayer, UnsandboxedWorkflowRunner

from kminer.config import Settings
from kminer.worker import deepagents_plugin
from tests.support.paths import FIXTURES
from workflows.agents import policy
from workflows.mining import MiningWorkflow

HISTORIES = FIXTURES / "histories"
RECORDED = {
    "previous_release_completed.json.gz": "prev-auto",  # review auto, published
    "previous_release_reviewed.json.gz": "prev-reviewed",  # waited, decide update, published
    "policy_in_workflow_completed.json.gz": "prev-auto",
    "policy_in_workflow_reviewed.json.gz": "prev-reviewed",
    "under_load_completed.json.gz": "mine-ee757914cf2c",  # review auto, under load
}
POLICY_IN_WORKFLOW = sorted(n for n in RECORDED if n.startswith("policy_in_workflow"))


def _history(name: str) -> WorkflowHistory:
    return WorkflowHistory.from_json(
        RECORDED[name], gzip.decompress((HISTORIES / name).read_bytes()).decode()
    )


@workflow.defn(name="MiningWorkflow", sandboxed=False)
class MiningWithAnExtraTimer(MiningWorkflow):
    """The kind of change that must go behind a patch: a new command up front."""

    @workflow.run
    async def run(self, raw: Any) -> Any:
        await workflow.sleep(timedelta(seconds=1))
        return await super().run(raw)


@pytest.mark.parametrize("name", sorted(RECORDED))
async def test_the_previous_release_replays_on_the_current_code(
    name: str, settings: Settings
) -> None:
    history = _history(name)
    assert len(history.events) > 50
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


@pytest.mark.parametrize("name", POLICY_IN_WORKFLOW)
async def test_a_policy_deciding_otherwise_fails_the_replay(
    name: str, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Validation finishing at once instead of scoring: a different command sequence.
    monkeypatch.setitem(policy.POLICIES, "validation", lambda turn: policy._final("done"))
    replayer = Replayer(workflows=[MiningWorkflow], plugins=[deepagents_plugin(settings)])
    replayed = await replayer.replay_workflow(_history(name), raise_on_replay_failure=False)
    assert replayed.replay_failure is not None
    assert "nondetermin" in str(replayed.replay_failure).lower()
