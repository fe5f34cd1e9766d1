"""Reading a run's AG-UI event stream over SSE, and checking what arrived: steps that
pair up, tool calls in order, event ids that count on, and the state the deltas rebuild
(applied strictly: add, remove and replace, a path that does not resolve fails)."""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Callable
from typing import Any

import httpx
from ag_ui.core import (
    BaseEvent,
    CustomEvent,
    Event,
    RunErrorEvent,
    RunFinishedEvent,
    StateDeltaEvent,
    StateSnapshotEvent,
    StepFinishedEvent,
    StepStartedEvent,
    ToolCallArgsEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
)
from pydantic import TypeAdapter

from api.ag_ui_events import EventId
from contracts.run_log import LOGGED_OUT

AG_UI_EVENT: TypeAdapter[Any] = TypeAdapter(Event)
RUN_SECONDS = 180


# -- reading the stream ---------------------------------------------------------------


class SseReader:
    """Reads one SSE response in the background, each event parsed into its AG-UI model."""

    def __init__(self, http: httpx.AsyncClient, path: str, headers: dict[str, str]) -> None:
        self.received: list[tuple[str | None, BaseEvent]] = []
        self.heartbeats = 0
        self.status: int | None = None
        self.content_type = ""
        self._tick = asyncio.Event()
        self._task = asyncio.create_task(self._read(http, path, headers))

    async def _read(self, http: httpx.AsyncClient, path: str, headers: dict[str, str]) -> None:
        try:
            async with http.stream("GET", path, headers=headers) as response:
                self.status = response.status_code
                self.content_type = response.headers.get("content-type", "")
                if response.status_code != 200:
                    await response.aread()
                    return
                event_id: str | None = None
                data: list[str] = []
                async for line in response.aiter_lines():
                    if line == "":
                        if data:
                            event = AG_UI_EVENT.validate_json("\n".join(data))
                            self.received.append((event_id, event))
                        event_id, data = None, []
                    elif line.startswith(":"):
                        self.heartbeats += 1
                    elif line.startswith("id:"):
                        event_id = line[3:].removeprefix(" ")
                    elif line.startswith("data:"):
                        data.append(line[5:].removeprefix(" "))
                    self._tick.set()
        finally:
            self._tick.set()

    @property
    def events(self) -> list[BaseEvent]:
        return [event for _, event in self.received]

    def custom(self, name: str) -> list[CustomEvent]:
        return [e for e in self.events if isinstance(e, CustomEvent) and e.name == name]

    async def until(self, check: Callable[[], Any], timeout: float = RUN_SECONDS) -> None:
        async def wait() -> None:
            while True:
                self._tick.clear()
                if check():
                    return
                if self._task.done():
                    self._task.result()
                    raise AssertionError(f"the stream ended first: {self.events[-3:]}")
                await self._tick.wait()

        await asyncio.wait_for(wait(), timeout)

    async def closed(self, timeout: float = RUN_SECONDS) -> None:
        """The server ends the stream by itself."""
        await asyncio.wait_for(asyncio.shield(self._task), timeout)

    async def close(self) -> None:
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)


# -- checking what arrived ----------------------------------------------------------


def apply_patch(document: Any, ops: list[dict[str, Any]]) -> Any:
    """RFC 6902 add / remove / replace, strictly: a path that does not resolve fails."""
    document = copy.deepcopy(document)
    for op in ops:
        kind, value = op["op"], copy.deepcopy(op.get("value"))
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in op["path"].split("/")[1:]]
        if not tokens:
            assert kind == "replace", op
            document = value
            continue
        parent = document
        for token in tokens[:-1]:
            parent = parent[int(token)] if isinstance(parent, list) else parent[token]
        last = tokens[-1]
        if isinstance(parent, list):
            index = len(parent) if last == "-" else int(last)
            if kind == "add":
                assert 0 <= index <= len(parent), op
                parent.insert(index, value)
            elif kind == "remove":
                assert 0 <= index < len(parent), op
                del parent[index]
            elif kind == "replace":
                assert 0 <= index < len(parent), op
                parent[index] = value
            else:
                raise AssertionError(f"unexpected op {op}")
        elif kind == "add":
            parent[last] = value
        elif kind == "remove":
            del parent[last]
        elif kind == "replace":
            assert last in parent, op
            parent[last] = value
        else:
            raise AssertionError(f"unexpected op {op}")
    return document


def rebuilt_state(events: list[BaseEvent]) -> Any:
    """The snapshot with every later delta applied, in order."""
    state: Any = None
    for event in events:
        if isinstance(event, StateSnapshotEvent):
            state = copy.deepcopy(event.snapshot)
        elif isinstance(event, StateDeltaEvent):
            assert state is not None, "a delta before any snapshot"
            state = apply_patch(state, [op.model_dump(by_alias=True) for op in event.delta])
    return state


def same_json(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def phase_steps(events: list[BaseEvent]) -> list[str]:
    return [
        e.step_name
        for e in events
        if isinstance(e, StepStartedEvent) and not e.step_name.startswith("agent:")
    ]


def phase_of(events: list[BaseEvent], event: BaseEvent) -> str | None:
    """The phase step open when `event` arrived."""
    phase = None
    for earlier in events[: events.index(event)]:
        if isinstance(earlier, StepStartedEvent) and not earlier.step_name.startswith("agent:"):
            phase = earlier.step_name
        elif isinstance(earlier, StepFinishedEvent) and earlier.step_name == phase:
            phase = None
    return phase


def check_steps(events: list[BaseEvent], resumed_open: tuple[str, ...] = ()) -> None:
    """Steps pair up, phases never overlap, and subagent steps sit inside a phase."""
    open_steps = list(resumed_open)
    for event in events:
        if isinstance(event, StepStartedEvent):
            assert event.step_name not in open_steps, event
            phases_open = [s for s in open_steps if not s.startswith("agent:")]
            if event.step_name.startswith("agent:"):
                assert len(phases_open) == 1, (event, open_steps)
            else:
                assert not open_steps, (event, open_steps)
            open_steps.append(event.step_name)
        elif isinstance(event, StepFinishedEvent):
            assert event.step_name in open_steps, (event, open_steps)
            open_steps.remove(event.step_name)
        elif isinstance(event, RunFinishedEvent | RunErrorEvent):
            assert not open_steps, open_steps


def tool_calls(events: list[BaseEvent]) -> list[tuple[ToolCallStartEvent, dict[str, Any]]]:
    """Every call as START, ARGS, END in a row with one id; its parsed arguments."""
    calls = []
    for i, event in enumerate(events):
        if isinstance(event, ToolCallStartEvent):
            args, end = events[i + 1], events[i + 2]
            assert isinstance(args, ToolCallArgsEvent) and isinstance(end, ToolCallEndEvent)
            assert args.tool_call_id == end.tool_call_id == event.tool_call_id
            calls.append((event, json.loads(args.delta)))
    assert len(calls) == sum(isinstance(e, ToolCallEndEvent) for e in events)
    return calls


def event_ids(received: list[tuple[str | None, BaseEvent]]) -> list[EventId]:
    """The ids of the events received; only a reconnect's first snapshot has none."""
    ids = []
    for index, (eid, event) in enumerate(received):
        if eid is None:
            assert index == 0 and isinstance(event, StateSnapshotEvent), (index, event)
            continue
        parsed = EventId.parse(eid)
        assert parsed is not None, eid
        ids.append(parsed)
    return ids


def check_ids(received: list[tuple[str | None, BaseEvent]], after: EventId | None = None) -> None:
    """Every event has an id, each after the one before (and after `after`)."""
    ids = event_ids(received)
    assert ids == sorted(set(ids)), ids
    assert after is None or not ids or ids[0] > after, (after, ids[:1])


def logged(workspace: dict[str, Any]) -> dict[str, Any]:
    """The workspace as the run log (and the stream) holds it: no history counters."""
    return {k: v for k, v in workspace.items() if k not in LOGGED_OUT}


def first_open_steps(events: list[BaseEvent]) -> list[str]:
    open_steps: list[str] = []
    for event in events:
        if isinstance(event, StepStartedEvent):
            open_steps.append(event.step_name)
        elif isinstance(event, StepFinishedEvent):
            open_steps.remove(event.step_name)
    return open_steps
