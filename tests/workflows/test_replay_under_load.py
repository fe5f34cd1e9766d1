"""A run's commands do not depend on when its activations arrive.

Under a burst of concurrent starts a local activity can outlive its workflow task: the
task heartbeats, and the activity's marker is written in one workflow task while the run
learns its result only in the next. A replay resolves the activity from its marker at
once, in the earlier task. A `workflow.patched` asked right after such a step therefore
landed one task later live than where a replay asked for it, and the replay failed with
"[TMPRL1100] Non-deprecated patch marker encountered" (issue 24: 2 of 50 runs of one
burst, for `agent-budgets`, asked after `load_memory_notes`). A run now asks its patches
once, before it schedules anything (workflows/patches.py).

`under_load_completed.json.gz` is one of 50 runs started at once on one stack (2 cores,
2026-11-26) with that shape after `load_memory_notes`, recorded by this release; the
replays in tests/workflows/test_replay_previous_release.py include it.
"""

from __future__ import annotations

import gzip

from temporalio.api.enums.v1 import EventType
from temporalio.client import WorkflowHistory
from temporalio.worker import Replayer

from contracts.run import MiningRequest, Phase
from kminer.config import Settings
from kminer.stack import Stack
from kminer.worker import deepagents_plugin
from temporal_client.runs import start_run
from tests.support.history_shapes import deferred_local_results, patch_markers
from tests.support.paths import FIXTURES
from tests.support.runs import QUESTION
from workflows.mining import MiningWorkflow
from workflows.patches import ASKED_AT_START, PATCHES_AT_START

UNDER_LOAD = FIXTURES / "histories" / "under_load_completed.json.gz"


def _under_load() -> WorkflowHistory:
    text = gzip.decompress(UNDER_LOAD.read_bytes()).decode()
    return WorkflowHistory.from_json("mine-ee757914cf2c", text)


def test_under_load_a_local_result_reached_the_run_one_workflow_task_late() -> None:
    deferred = deferred_local_results(_under_load().events)
    assert any(types == ["load_memory_notes"] for _, types in deferred), deferred


async def test_the_history_recorded_under_load_replays(settings: Settings) -> None:
    replayer = Replayer(workflows=[MiningWorkflow], plugins=[deepagents_plugin(settings)])
    replayed = await replayer.replay_workflow(_under_load(), raise_on_replay_failure=False)
    assert replayed.replay_failure is None, replayed.replay_failure


def test_under_load_the_run_asked_its_patches_in_its_first_workflow_task() -> None:
    events = _under_load().events
    first_task_done = next(
        e.event_id for e in events if e.event_type == EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED
    )
    assert patch_markers(events) == [(first_task_done + 1, PATCHES_AT_START)]


async def test_a_new_run_asks_its_patches_before_anything_else(
    stack: Stack, settings: Settings
) -> None:
    request = MiningRequest(query=QUESTION, domainTags=["supply_chain"], review="auto")
    handle = await start_run(stack.client, settings.task_queue, request)
    assert (await handle.result()).phase == Phase.COMPLETED
    events = (await handle.fetch_history()).events
    # Event 4 completes the first workflow task; its first commands are the patch markers
    # (each followed by the search-attribute upsert that the SDK's core adds for
    # a patch, UpsertSearchAttributeOnPatch).
    assert events[3].event_type == EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED
    markers = patch_markers(events)
    assert [patch for _, patch in markers] == [PATCHES_AT_START, *ASKED_AT_START]
    upsert = EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES
    first_own = next(
        e.event_id for e in events[4:] if e.event_type != upsert and e.event_id not in dict(markers)
    )
    assert markers[0][0] == 5 and all(at < first_own for at, _ in markers), (markers, first_own)
