"""`GET /api/runs/{id}/events`: a run's live workspace as Server-Sent Events in AG-UI.

The stream polls the workflow's `workspace` query (every `POLL_SECONDS`) and sends what
changed as AG-UI events (`api/ag_ui_events.py` says which and when): `RUN_STARTED`,
a `STATE_SNAPSHOT` of the workspace, then `STATE_DELTA` JSON Patches, steps per phase
and per subagent, the tool calls the workspace shows, `CUSTOM` events for review
requests, decisions and published assets, and finally `RUN_FINISHED` (the run
completed) or `RUN_ERROR` (it failed, was canceled or was closed otherwise), after
which the stream ends. While nothing changes an SSE comment (`: keep-alive`) is sent
every `HEARTBEAT_SECONDS`.

Every event carries an SSE `id:`. A client that reconnects with `Last-Event-ID` gets no
second `RUN_STARTED`: the stream starts with a fresh `STATE_SNAPSHOT` (replace the
state, do not patch the old one), then deltas, and only the steps, tool calls,
decisions and published assets it has not seen yet; `review_requested` is sent again
while candidates still wait. A run that is over answers a reconnect with the snapshot
and its `RUN_FINISHED` / `RUN_ERROR` again. If Temporal stops answering for
`UNREACHABLE_SECONDS` the stream ends without a terminal event, so the client
reconnects with its `Last-Event-ID`.

Access is that of `GET /api/runs/{id}`: an unknown run, or another miner's, is a 404
before the stream starts.

The SSE framing is sse-starlette's (`EventSourceResponse`, `ServerSentEvent`), with LF
line ends and its own periodic ping off: the wire format is byte for byte that of the
AG-UI encoder, `id: <cursor>` then `data: <event JSON>` and a blank line.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from sse_starlette import EventSourceResponse, ServerSentEvent
from temporalio.client import WorkflowFailureError, WorkflowHandle
from temporalio.service import RPCError, RPCStatusCode

from api.ag_ui_events import TERMINAL_PHASES, Cursor, Emitted, EventTracker
from api.auth import Miner
from api.deps import RUN_RPC_TIMEOUT, TemporalClient, owned, rpc_http_error
from api.workspace_reads import WorkspaceReader

POLL_SECONDS = 0.3
HEARTBEAT_SECONDS = 15.0
STATUS_SECONDS = 2.0  # how often Temporal's own status is read while the run goes on
UNREACHABLE_SECONDS = 60.0
# Lines end in LF, as the AG-UI encoder ends them and the clients and tests read them
# (sse-starlette's default separator is CRLF).
SSE_SEPARATOR = "\n"
KEEP_ALIVE = "keep-alive"  # sent as the SSE comment `: keep-alive`

router = APIRouter(prefix="/api/runs", tags=["runs"])


class RunEvents:
    """One client's stream of one run."""

    def __init__(
        self, handle: WorkflowHandle, last_event_id: str | None, reader: WorkspaceReader
    ) -> None:
        self.handle = handle
        self.reader = reader
        self.resumed = last_event_id is not None
        cursor = Cursor.parse(last_event_id) if last_event_id else None
        self.tracker = EventTracker(handle.id, cursor)
        self.opened = False

    @staticmethod
    def _sse(emitted: Emitted) -> list[ServerSentEvent]:
        """Each event as `id: <cursor>` and `data: <the AG-UI event as JSON>`."""
        return [
            ServerSentEvent(event.model_dump_json(by_alias=True), id=eid, sep=SSE_SEPARATOR)
            for eid, event in emitted
        ]

    async def _workspace(self) -> dict[str, Any] | None:
        """The live workspace as JSON, or None while the query cannot answer."""
        try:
            ws = await self.reader.read(self.handle)
        except Exception:  # noqa: BLE001  (not started yet, no worker, Temporal away: try again)
            return None
        return ws.model_dump(mode="json")

    async def _status(self) -> str | None:
        """Temporal's status of the run (`RUNNING`, ...); None if it does not answer."""
        try:
            description = await self.handle.describe(rpc_timeout=RUN_RPC_TIMEOUT)
        except RPCError as exc:
            return "NOT_FOUND" if exc.status == RPCStatusCode.NOT_FOUND else None
        return description.status.name if description.status else None

    async def _failure(self) -> str | None:
        """The cause Temporal recorded for a run that did not complete."""
        try:
            await self.handle.result(follow_runs=False, rpc_timeout=RUN_RPC_TIMEOUT)
        except WorkflowFailureError as exc:
            return str(exc.cause or exc)
        except Exception:  # noqa: BLE001  (the cause is a nicety; the status is enough)
            return None
        return None

    def _look(self, ws: dict[str, Any]) -> list[ServerSentEvent]:
        if self.opened:
            return self._sse(self.tracker.changes(ws))
        self.opened = True
        first = [] if self.resumed else self.tracker.started(ws.get("threadId") or "")
        return self._sse(first + self.tracker.snapshot(ws) + self.tracker.changes(ws))

    async def _end(self, status: str) -> list[ServerSentEvent]:
        final = await self._workspace()
        chunk: list[ServerSentEvent] = []
        if final is not None:
            chunk = self._look(final)
        elif not self.opened and not self.resumed:
            chunk = self._sse(self.tracker.started(""))
        failure = None if status == "COMPLETED" else await self._failure()
        return chunk + self._sse(
            self.tracker.finished(final or self.tracker.state, status, failure)
        )

    async def stream(self) -> AsyncIterator[ServerSentEvent]:
        loop = asyncio.get_running_loop()
        last_sent = loop.time()
        checked = -math.inf
        unreachable_since: float | None = None
        while True:
            ws = await self._workspace()
            status = None
            now = loop.time()
            if ws is None or ws["phase"] in TERMINAL_PHASES or now - checked >= STATUS_SECONDS:
                status = await self._status()
                checked = now
            if status not in (None, "RUNNING"):
                for sse in await self._end(status):
                    yield sse
                return
            chunk = self._look(ws) if ws is not None else []
            for sse in chunk:
                yield sse
            if chunk:
                last_sent = now
            elif loop.time() - last_sent >= HEARTBEAT_SECONDS:
                yield ServerSentEvent(comment=KEEP_ALIVE, sep=SSE_SEPARATOR)
                last_sent = loop.time()
            if ws is None and status is None:
                unreachable_since = unreachable_since if unreachable_since is not None else now
                if now - unreachable_since >= UNREACHABLE_SECONDS:
                    return  # no terminal event: the client reconnects with Last-Event-ID
            else:
                unreachable_since = None
            await asyncio.sleep(POLL_SECONDS)


@router.get(
    "/{run_id}/events",
    response_class=EventSourceResponse,
    responses={
        200: {
            "content": {"text/event-stream": {}},
            "description": "AG-UI events as Server-Sent Events until the run ends",
        }
    },
)
async def run_events(
    run_id: str,
    request: Request,
    client: TemporalClient,
    who: Miner,
    last_event_id: Annotated[str | None, Header()] = None,
) -> EventSourceResponse:
    """The run's workspace changes as AG-UI events; `Last-Event-ID` resumes (fresh snapshot)."""
    handle = await owned(client, run_id, who)
    try:
        await handle.describe()  # an unknown run is a 404 here, before the stream starts
    except RPCError as exc:
        raise rpc_http_error(exc, run_id) from exc
    events = RunEvents(handle, last_event_id, request.app.state.workspaces)
    # ping=0: the stream sends its own keep-alive, only while nothing else is sent.
    return EventSourceResponse(
        events.stream(), headers={"Cache-Control": "no-cache"}, ping=0, sep=SSE_SEPARATOR
    )
