"""The real worker with its search backend slowed or failing, and what a research run's
history and workspace show (research_gather groups)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from typing import Any

from temporalio.api.enums.v1 import EventType
from temporalio.client import Client, WorkflowHandle

from contracts.research import GatherResult
from contracts.run import Workspace
from kminer.config import Settings
from kminer.worker import Services, build_worker, connect, open_services
from workflows.mining import MiningWorkflow

TAGS = ["supply_chain", "general_risk"]


@contextlib.asynccontextmanager
async def research_worker(
    settings: Settings, delay: float = 0.0, fail_on: str | None = None
) -> AsyncIterator[tuple[Client, Services, list[str]]]:
    """The real worker; its search backend slowed by `delay` and failing on `fail_on`."""
    services = await asyncio.to_thread(open_services, settings)
    searched: list[str] = []
    inner = services.search.search

    def search(query: str, max_results: int) -> list[dict[str, Any]]:
        searched.append(query)
        if fail_on and fail_on in query:
            raise OSError(f"search backend unavailable for {query!r}")
        time.sleep(delay)
        return inner(query, max_results)

    services.search.search = search
    try:
        client = await connect(settings, settings.temporal_address or "", services.engine)
        async with build_worker(client, settings, services):
            yield client, services, searched
    finally:
        services.close()


async def workspace(handle: WorkflowHandle) -> Workspace:
    return await handle.query(MiningWorkflow.workspace)


async def gather_groups(client: Client, handle: WorkflowHandle) -> list[dict[str, Any]]:
    """Each research_gather activity: scheduled and completed event ids, decoded result."""
    groups: dict[int, dict[str, Any]] = {}
    async for event in handle.fetch_history_events():
        if event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
            attrs = event.activity_task_scheduled_event_attributes
            if attrs.activity_type.name == "research_gather":
                groups[event.event_id] = {"scheduled": event.event_id}
        elif event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
            done = event.activity_task_completed_event_attributes
            if done.scheduled_event_id in groups:
                [result] = await client.data_converter.decode(
                    list(done.result.payloads), [GatherResult]
                )
                groups[done.scheduled_event_id] |= {"completed": event.event_id, "result": result}
    return [groups[k] for k in sorted(groups)]
