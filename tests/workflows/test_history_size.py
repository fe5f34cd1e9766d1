"""The workspace reports the run's Temporal history size, as the server counts it."""

from __future__ import annotations

from temporalio.api.enums.v1 import EventType

from contracts.run import MiningRequest
from kminer.config import Settings
from kminer.stack import Stack
from temporal_client.runs import start_run
from tests.support.runs import wait_for_review
from workflows.mining import MiningWorkflow


async def test_the_workspace_reports_history_events_and_bytes(
    stack: Stack, settings: Settings
) -> None:
    request = MiningRequest(
        query="Which suppliers of lithium carry geopolitical risk?",
        domainTags=["supply_chain"],
    )
    handle = await start_run(stack.client, settings.task_queue, request)
    waiting = await wait_for_review(handle)
    events = (await handle.fetch_history()).events
    # As of the last workflow task: only that task's own commands (its local activities'
    # markers among them) come after it, no later task.
    later = events[waiting.historyEvents :]
    assert later and later[0].event_type == EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED
    assert not any(e.event_type == EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED for e in later)
    stored = sum(e.ByteSize() for e in events)
    # The bytes of exactly those events, as the server counts them (within its framing).
    counted = sum(e.ByteSize() for e in events[: waiting.historyEvents])
    assert counted * 0.99 <= waiting.historyBytes <= min(counted * 1.01, stored), (
        counted, waiting.historyBytes, stored,
    )  # fmt: skip
    await handle.cancel()
    again = await handle.query(MiningWorkflow.workspace)
    assert again.historyEvents >= waiting.historyEvents
