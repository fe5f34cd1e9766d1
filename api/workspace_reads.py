"""Reads of a run's live workspace, coalesced: concurrent readers share one query.

A workflow answers its queries one at a time, so fifty clients polling one run would
queue fifty queries behind each other. A reader arriving while a query for the same run
is in flight waits for that answer instead of sending its own; the answer it gets is at
most one query's time older than its request.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import timedelta

from temporalio.client import WorkflowHandle

from api.deps import RUN_RPC_TIMEOUT
from contracts.run import Workspace
from workflows.mining import MiningWorkflow


@dataclass(frozen=True)
class Snapshot:
    """One query's answer, with its JSON rendered once for every reader that shares it."""

    workspace: Workspace
    json: bytes


class WorkspaceReader:
    def __init__(self, rpc_timeout: timedelta = RUN_RPC_TIMEOUT) -> None:
        self.rpc_timeout = rpc_timeout
        self._in_flight: dict[str, asyncio.Future[Snapshot]] = {}
        self.queries_sent = 0

    async def read(self, handle: WorkflowHandle) -> Workspace:
        """The workspace (raises what the query raises: RPCError, WorkflowQueryFailedError)."""
        return (await self.snapshot(handle)).workspace

    async def snapshot(self, handle: WorkflowHandle) -> Snapshot:
        """The workspace and its JSON."""
        shared = self._in_flight.get(handle.id)
        if shared is None:
            shared = asyncio.ensure_future(self._query(handle))
            self._in_flight[handle.id] = shared
            shared.add_done_callback(lambda done: self._settled(handle.id, done))
        # A reader that goes away (client disconnect) must not cancel the others' query.
        return await asyncio.shield(shared)

    async def _query(self, handle: WorkflowHandle) -> Snapshot:
        self.queries_sent += 1
        ws = await handle.query(MiningWorkflow.workspace, rpc_timeout=self.rpc_timeout)
        return Snapshot(ws, ws.model_dump_json().encode())

    def _settled(self, run_id: str, done: asyncio.Future[Snapshot]) -> None:
        if self._in_flight.get(run_id) is done:
            del self._in_flight[run_id]
        if not done.cancelled():
            done.exception()  # retrieved here: every waiter may have left
