"""`GET /api/runs/{id}/events`: a run's ordered log as Server-Sent Events in AG-UI.

The stream reads the workflow's `run_log` query from where it is (every `POLL_SECONDS`;
an ended run whose query fails has its log rebuilt from its result, see
temporal_client/workspaces.py) and sends each entry as the AG-UI events it stands for
(`api/ag_ui_events.py` says which): `RUN_STARTED`, a `STATE_SNAPSHOT`, then
`STATE_DELTA` JSON Patches, steps per phase and per subagent, tool calls, `CUSTOM`
events for review requests, decisions and published assets, review as an AG-UI
interrupt, and finally `RUN_FINISHED` (the run completed) or `RUN_ERROR` (it failed, was
canceled or was closed otherwise), after which the stream ends. Each event is stamped
with the workflow time its entry was recorded at. While nothing changes an SSE comment
(`: keep-alive`) is sent every `HEARTBEAT_SECONDS`.

Every event carries an SSE `id:` (`<seq>.<k>`). A client that reconnects with
`Last-Event-ID` is sent a `STATE_SNAPSHOT` without an id (the state as of that event:
replace the state, do not patch it), then exactly the events after that id: none twice,
none missed. An id that is not one of ours gets the whole story again, without
`RUN_STARTED`. If Temporal stops answering for `UNREACHABLE_SECONDS` the stream ends
without a terminal event, so the client reconnects with its `Last-Event-ID`.

Access is that of `GET /api/runs/{id}`: an unknown run, or another miner's, is a 404
before the stream starts.

The SSE framing is sse-starlette's (`EventSourceResponse`, `ServerSentEvent`), with LF
line ends and its own periodic ping off: the wire format is byte for byte that of the
AG-UI encoder, `id: <event id>` then `data: <event JSON>` and a blank line.
"""

from __future__ import annotations

import asyncio
import copy
import math
from collections.abc import AsyncIterator
from typing import Annotated, Any

import jsonpatch
from ag_ui.core import BaseEvent, StateDeltaEvent, StateSnapshotEvent
from fastapi import APIRouter, Header, Request
from sse_starlette import EventSourceResponse, ServerSentEvent
from temporalio.client import WorkflowFailureError, WorkflowHandle
from temporalio.service import RPCError, RPCStatusCode

from api.ag_ui_events import TERMINAL_PHASES, Emitted, EventId, LogReplay
from api.auth import Miner
from api.deps import RUN_RPC_TIMEOUT, TemporalClient, owned, rpc_http_error
from contracts.run_log import RunLogPage
from temporal_client.workspaces import read_log

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

    def __init__(self, handle: WorkflowHandle, last_event_id: str | None, converter: Any) -> None:
        self.handle = handle
        self.converter = converter
        self.resumed = last_event_id is not None
        # Events up to this one were sent before (a reconnect); an id not ours: none.
        self.seen = EventId.parse(last_event_id) if last_event_id else None
        self.replay = LogReplay(handle.id)
        self.after = -1  # the log read up to this entry
        self.client_state: Any = None  # the state as of the last event skipped
        self.snapshot_due = self.resumed and self.seen is not None

    @staticmethod
    def _sse(eid: EventId | None, event: BaseEvent) -> ServerSentEvent:
        """`id: <event id>` and `data: <the AG-UI event as JSON>`."""
        data = event.model_dump_json(by_alias=True)
        return ServerSentEvent(data, id=eid.token() if eid else None, sep=SSE_SEPARATOR)

    def _send(self, emitted: Emitted) -> list[ServerSentEvent]:
        out = []
        for eid, event in emitted:
            if self.seen is not None and eid <= self.seen:
                self._track(event)
                continue
            if self.snapshot_due:
                self.snapshot_due = False
                out.append(self._sse(None, StateSnapshotEvent(snapshot=self.client_state)))
            out.append(self._sse(eid, event))
        return out

    def _track(self, event: BaseEvent) -> None:
        if isinstance(event, StateSnapshotEvent):
            self.client_state = copy.deepcopy(event.snapshot)
        elif isinstance(event, StateDeltaEvent):
            ops = [
                op if isinstance(op, dict) else op.model_dump(by_alias=True) for op in event.delta
            ]
            self.client_state = jsonpatch.apply_patch(self.client_state, ops)

    async def _page(self) -> RunLogPage | None:
        """The log after what was read, or None while it cannot be read."""
        try:
            return await read_log(self.handle, self.after, RUN_RPC_TIMEOUT, self.converter)
        except Exception:  # noqa: BLE001  (not started yet, no worker, Temporal away: try again)
            return None

    def _read(self, page: RunLogPage) -> list[ServerSentEvent]:
        emitted: Emitted = []
        entries = page.entries
        if page.base is not None:
            begun, taken = self.replay.begin(page)
            if self.resumed and self.seen is None:  # an id not ours: all but RUN_STARTED
                begun = [(eid, e) for eid, e in begun if e.type != "RUN_STARTED"]
            emitted += begun
            entries = entries[taken:]
        for entry in entries:
            emitted += self.replay.entry(entry, page.bodies)
        if page.entries:
            self.after = page.entries[-1].seq
        elif page.base is not None:
            self.after = page.floor
        return self._send(emitted)

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

    async def _end(self, status: str) -> list[ServerSentEvent]:
        """The rest of the log, then the terminal event; what was read, without it, if the
        log cannot be read for `UNREACHABLE_SECONDS` (the client reconnects)."""
        chunk: list[ServerSentEvent] = []
        loop = asyncio.get_running_loop()
        since = loop.time()
        while True:
            page = await self._page()
            if page is None:
                if loop.time() - since >= UNREACHABLE_SECONDS:
                    return chunk
                await asyncio.sleep(POLL_SECONDS)
                continue
            since = loop.time()
            chunk += self._read(page)
            if not page.more:
                break
        if not self.replay.started:
            begun, _ = self.replay.begin(RunLogPage(base={}))
            chunk += self._send(begun if not self.resumed else begun[1:])
        failure = None if status == "COMPLETED" else await self._failure()
        return chunk + self._send(self.replay.finish(status, failure))

    async def stream(self) -> AsyncIterator[ServerSentEvent]:
        loop = asyncio.get_running_loop()
        last_sent = loop.time()
        checked = -math.inf
        unreachable_since: float | None = None
        while True:
            page = await self._page()
            chunk = self._read(page) if page is not None else []
            if page is not None and self.snapshot_due and not page.more:
                # Caught up with the log: the state as of the client's last event.
                self.snapshot_due = False
                chunk.append(self._sse(None, StateSnapshotEvent(snapshot=self.client_state)))
            for sse in chunk:
                yield sse
            now = loop.time()
            if chunk:
                last_sent = now
            if page is not None and page.more:
                continue
            status = None
            phase = self.replay.state.get("phase")
            if page is None or phase in TERMINAL_PHASES or now - checked >= STATUS_SECONDS:
                status = await self._status()
                checked = now
            if status not in (None, "RUNNING"):
                for sse in await self._end(status):
                    yield sse
                return
            if not chunk and loop.time() - last_sent >= HEARTBEAT_SECONDS:
                yield ServerSentEvent(comment=KEEP_ALIVE, sep=SSE_SEPARATOR)
                last_sent = loop.time()
            if page is None and status is None:
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
    """The run's log as AG-UI events; `Last-Event-ID` resumes after that event."""
    handle = await owned(client, run_id, who)
    try:
        await handle.describe()  # an unknown run is a 404 here, before the stream starts
    except RPCError as exc:
        raise rpc_http_error(exc, run_id) from exc
    events = RunEvents(handle, last_event_id, request.app.state.workspaces.converter)
    # ping=0: the stream sends its own keep-alive, only while nothing else is sent.
    return EventSourceResponse(
        events.stream(), headers={"Cache-Control": "no-cache"}, ping=0, sep=SSE_SEPARATOR
    )
