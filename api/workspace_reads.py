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
from temporalio.converter import DataConverter

from api.deps import RUN_RPC_TIMEOUT
from contracts.run import Workspace
from temporal_client.workspaces import read_workspace


@dataclass(frozen=True)
class Snapshot:
    """One query's answer, with its JSON rendered once for every reader that shares it."""

    workspace: Workspace
    json: bytes


class WorkspaceReader:
    def __init__(
        self,
        converter: DataConverter = DataConverter.default,
        rpc_timeout: timedelta = RUN_RPC_TIMEOUT,
    ) -> None:
        self.converter = converter  # the client's: an ended run's request is read with it
        self.rpc_timeout = rpc_timeout
        self._in_flight: dict[str, asyncio.Future[Snapshot]] = {}
        self.queries_sent = 0

    async def read(self, handle: WorkflowHandle) -> Workspace:
        """The workspace; an ended run's rebuilt from its result when its query fails
        (temporal_client/workspaces.py). Raises what the query raises for a running run:
        RPCError, WorkflowQueryFailedError."""
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
        ws = await read_workspace(handle, self.rpc_timeout, self.converter)
        return Snapshot(ws, ws.model_dump_json().encode())

    def _settled(self, run_id: str, done: asyncio.Future[Snapshot]) -> None:
        if self._in_flight.get(run_id) is done:
            del self._in_flight[run_id]
        if not done.cancelled():
            done.exception()  # retrieved here: every waiter may have left
