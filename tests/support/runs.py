"""Starting a reviewed run of the demo question, waiting for its review, and counting the
activities its history shows executed (dispatched or run as a local activity)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from temporalio.api.enums.v1 import EventType
from temporalio.client import WorkflowHandle

from contracts.run import MiningRequest, Phase, Workspace
from kminer.stack import Stack
from temporal_client.runs import start_run
from workflows.mining import MiningWorkflow

QUESTION = "Which suppliers of lithium carry geopolitical risk?"


async def wait_for_review(handle: WorkflowHandle, timeout: float = 120) -> Workspace:
    async def poll() -> Workspace:
        while True:
            try:
                ws = await handle.query(MiningWorkflow.workspace)
            except Exception:  # noqa: BLE001 (the first workflow task may not have run yet)
                ws = None
            if ws is not None and ws.phase == Phase.REVIEW:
                return ws
            if ws is not None and ws.phase in (Phase.FAILED, Phase.COMPLETED):
                raise AssertionError(f"run ended in {ws.phase} without review: {ws.errors}")
            await asyncio.sleep(0.2)

    return await asyncio.wait_for(poll(), timeout)


async def scheduled(handle: WorkflowHandle, activity_type: str) -> int:
    count = 0
    async for event in handle.fetch_history_events():
        if event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
            attrs = event.activity_task_scheduled_event_attributes
            count += attrs.activity_type.name == activity_type
    return count


def local_activity_type(event: Any) -> str | None:
    """The activity type of a local activity's marker event (None for any other event)."""
    if event.event_type != EventType.EVENT_TYPE_MARKER_RECORDED:
        return None
    attrs = event.marker_recorded_event_attributes
    if "local_activity" not in attrs.marker_name or "data" not in attrs.details:
        return None
    return json.loads(attrs.details["data"].payloads[0].data).get("activity_type")


async def executed(handle: WorkflowHandle, activity_type: str) -> int:
    """Executions of `activity_type`, dispatched to a task queue or run as a local activity."""
    count = 0
    async for event in handle.fetch_history_events():
        count += local_activity_type(event) == activity_type
    return count + await scheduled(handle, activity_type)


async def start_reviewed_run(
    stack: Stack, task_queue: str, timeout_seconds: int = 3600
) -> tuple[WorkflowHandle, Workspace]:
    request = MiningRequest(
        query=QUESTION,
        domainTags=["supply_chain", "general_risk"],
        reviewTimeoutSeconds=timeout_seconds,
    )
    handle = await start_run(stack.client, task_queue, request)
    return handle, await wait_for_review(handle)
