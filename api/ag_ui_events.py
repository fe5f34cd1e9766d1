"""AG-UI events from successive workspaces of one run (pure: no I/O, no Temporal).

`EventTracker` is fed the run's workspace (as JSON) each time it is read and answers
with the AG-UI events that say what changed, each paired with its SSE event id:

- `STATE_DELTA`: an RFC 6902 JSON Patch from the last state sent (`json_patch`, by the
  jsonpatch library);
- `STEP_STARTED` / `STEP_FINISHED`: one step per entry of `phaseHistory` (named by the
  phase), and inside it one step per subagent, `agent:<name>`, from the first todo
  carrying that `agent` until the phase ends;
- `TOOL_CALL_START` / `_ARGS` / `_END`: the calls the workspace shows: each entry of
  `spawnedSubagents` is a `task` call (args: `subagent_type` and the first line of its
  `description`, as the workspace keeps it), and each observed change of an agent's
  todos is a `write_todos` call (args: that agent's todos, the agent in the event's
  `metadata`; changes made between two reads count as one call);
- `CUSTOM`: `review_requested` when candidates start waiting for a reviewer (the
  pending ids and a summary of each), `decision` for every new decision, and
  `asset_published` for every asset published;
- `finished()`: the open steps close, then `RUN_FINISHED` (run COMPLETED) or
  `RUN_ERROR` (FAILED, CANCELED, or closed by Temporal in another way).

An event id is a `Cursor`: the count of events sent and of each append-only series
already announced (phases, subagents, open subagent steps, tool calls, decisions,
published assets). A client that reconnects with `Last-Event-ID` gets a fresh
`STATE_SNAPSHOT` and then only what it has not seen yet.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import astuple, dataclass, fields
from typing import Any

import jsonpatch
from ag_ui.core import (
    BaseEvent,
    CustomEvent,
    RunErrorEvent,
    RunFinishedEvent,
    RunStartedEvent,
    StateDeltaEvent,
    StateSnapshotEvent,
    StepFinishedEvent,
    StepStartedEvent,
    ToolCallArgsEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
)

TERMINAL_PHASES = ("COMPLETED", "FAILED", "CANCELED")
_NUMBER = re.compile(r"[0-9]{1,15}")


def json_patch(old: Any, new: Any) -> list[dict[str, Any]]:
    """An RFC 6902 patch turning JSON value `old` into `new`, by jsonpatch: add, remove
    and replace only.

    `jsonpatch.make_patch` is `JsonPatch.from_diff` with its move optimisation on: a
    reordered list (todos rewritten in another order) or a value that changed place (an
    id leaving one list for another) becomes a `move` op. The chat UI's patch.js
    (api/ui/static/patch.js) and the strict checker of the tests (tests/support/ag_ui_stream.py)
    apply `add`, `remove` and `replace` only, so the optimisation is off here (the cases
    are pinned in tests/api/test_ag_ui_events.py). Scalars compare by JSON type as well as
    value: `1`, `1.0` and `true` are different JSON values although Python calls them
    equal.
    """
    return jsonpatch.JsonPatch.from_diff(old, new, optimization=False).patch


@dataclass
class Cursor:
    """Where a client is in a run's event stream; its text form is the SSE event id."""

    seq: int = 0  # events sent
    phases: int = 0  # phaseHistory entries announced by STEP_STARTED
    agents: int = 0  # subagents (todo `agent`s, in order) announced by STEP_STARTED
    open_agents: int = 0  # of those, the last ones still open
    calls: int = 0  # spawnedSubagents announced as `task` tool calls
    decisions: int = 0  # decisions announced as CUSTOM `decision`
    published: int = 0  # publishedAssets announced as CUSTOM `asset_published`

    def token(self) -> str:
        return ".".join(str(n) for n in astuple(self))

    @classmethod
    def parse(cls, text: str) -> Cursor | None:
        """The cursor an event id stands for, or None if it is not one of ours."""
        parts = text.strip().split(".")
        if len(parts) != len(fields(cls)) or not all(_NUMBER.fullmatch(p) for p in parts):
            return None
        cursor = cls(*(int(p) for p in parts))
        return cursor if cursor.open_agents <= cursor.agents else None


def _agents(ws: dict[str, Any]) -> list[str]:
    """Subagents in the order their first todo appeared (the workspace keeps that order)."""
    seen: dict[str, None] = {}
    for todo in ws.get("todos") or []:
        if todo.get("agent"):
            seen.setdefault(todo["agent"], None)
    return list(seen)


def _todos_by_agent(ws: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    grouped: dict[str, list[dict[str, Any]]] = {}
    for todo in ws.get("todos") or []:
        grouped.setdefault(todo.get("agent") or "", []).append(
            {"content": todo.get("content"), "status": todo.get("status")}
        )
    return grouped


def _candidate_summary(candidate: dict[str, Any]) -> dict[str, Any]:
    asset = candidate.get("asset") or {}
    signals = asset.get("trustSignals") if isinstance(asset.get("trustSignals"), dict) else {}
    return {
        "id": candidate.get("id"),
        "kind": candidate.get("kind"),
        "name": asset.get("name"),
        "accepted": candidate.get("accepted"),
        "confidence": signals.get("confidence"),
        "reviewNote": candidate.get("reviewNote"),
    }


Emitted = list[tuple[str, BaseEvent]]


class EventTracker:
    """Turns each new look at a run's workspace into AG-UI events with their ids."""

    def __init__(self, run_id: str, cursor: Cursor | None = None) -> None:
        self.run_id = run_id
        self.cursor = cursor or Cursor()
        self.state: dict[str, Any] | None = None
        self._todos: dict[str, list[dict[str, Any]]] | None = None
        self._pending: set[str] | None = None
        self._clamped = False

    def _emit(self, out: Emitted, event: BaseEvent) -> None:
        self.cursor.seq += 1
        event.timestamp = int(time.time() * 1000)
        out.append((self.cursor.token(), event))

    def started(self, thread_id: str) -> Emitted:
        out: Emitted = []
        self._emit(out, RunStartedEvent(thread_id=thread_id, run_id=self.run_id))
        return out

    def snapshot(self, ws: dict[str, Any]) -> Emitted:
        """The whole workspace; what follows are deltas from it."""
        self._clamp(ws)
        out: Emitted = []
        self.state = ws
        self._emit(out, StateSnapshotEvent(snapshot=ws))
        return out

    def changes(self, ws: dict[str, Any]) -> Emitted:
        """What changed since the last look (after a snapshot: the discrete events only).

        One look can span several phases; the discrete events are then placed where they
        happened: todo and `task` calls of running subagents before their steps close,
        decisions in the phase before PUBLISHING, published assets inside PUBLISHING, a
        review request inside REVIEW.
        """
        self._clamp(ws)
        out: Emitted = []
        if self.state is not None:
            delta = json_patch(self.state, ws)
            if delta:
                self._emit(out, StateDeltaEvent(delta=delta))
        self.state = ws
        todos = _todos_by_agent(ws)
        changed = [
            agent
            for agent, items in todos.items()
            if self._todos is not None and self._todos.get(agent) != items
        ]
        self._todos = todos
        announced = set(_agents(ws)[: self.cursor.agents])
        self._todo_calls(out, todos, [a for a in changed if a in announced])
        self._task_calls(ws, out)
        self._steps(ws, out)
        self._todo_calls(out, todos, [a for a in changed if a not in announced])
        self._decisions(ws, out)
        self._review(ws, out)
        self._published(ws, out)
        return out

    def finished(
        self, ws: dict[str, Any] | None, status: str | None, failure: str | None = None
    ) -> Emitted:
        """Close the open steps and end the run: RUN_FINISHED or RUN_ERROR.

        `status` is Temporal's (`COMPLETED`, `FAILED`, `CANCELED`, `TERMINATED`, ...),
        `failure` the cause Temporal recorded, if any.
        """
        ws = ws or {}
        out: Emitted = []
        self._close_steps(ws, out)
        phase = ws.get("phase") or "UNKNOWN"
        if phase == "COMPLETED" and status in (None, "COMPLETED"):
            result = {"summary": ws.get("summary"), "publishedAssets": ws.get("publishedAssets")}
            self._emit(
                out,
                RunFinishedEvent(
                    thread_id=ws.get("threadId") or "", run_id=self.run_id, result=result
                ),
            )
            return out
        if "CANCELED" in (phase, status):
            code, message = "CANCELED", "run was canceled"
        else:
            code = status if status and status != "RUNNING" else "FAILED"
            errors = ws.get("errors") or []
            detail = failure or (errors[-1] if errors else None)
            message = f"run ended {code}"
            if phase not in TERMINAL_PHASES:
                message += f" in phase {phase}"
            if detail:
                message += f": {detail}"
        self._emit(out, RunErrorEvent(message=message, code=code))
        return out

    # -- the parts -------------------------------------------------------------

    def _clamp(self, ws: dict[str, Any]) -> None:
        """A cursor from a reconnect may claim more than this workspace holds."""
        if self._clamped:
            return
        self._clamped = True
        c = self.cursor
        c.phases = min(c.phases, len(ws.get("phaseHistory") or []))
        c.agents = min(c.agents, len(_agents(ws)))
        c.open_agents = min(c.open_agents, c.agents)
        c.calls = min(c.calls, len(ws.get("spawnedSubagents") or []))
        c.decisions = min(c.decisions, len(ws.get("decisions") or []))
        c.published = min(c.published, len(ws.get("publishedAssets") or []))

    def _close_steps(self, ws: dict[str, Any], out: Emitted) -> None:
        c = self.cursor
        agents = _agents(ws)
        while c.open_agents:
            name = agents[c.agents - c.open_agents]
            c.open_agents -= 1
            self._emit(out, StepFinishedEvent(step_name=f"agent:{name}"))
        history = ws.get("phaseHistory") or []
        if 0 < c.phases <= len(history):
            self._emit(out, StepFinishedEvent(step_name=history[c.phases - 1]))

    def _steps(self, ws: dict[str, Any], out: Emitted) -> None:
        c = self.cursor
        history = ws.get("phaseHistory") or []
        while c.phases < len(history):
            if c.phases:
                # Decisions are taken in the phase before PUBLISHING (VALIDATION with auto
                # review, else REVIEW) or before the run ends; assets published in it.
                if history[c.phases] in ("PUBLISHING", *TERMINAL_PHASES):
                    self._decisions(ws, out)
                if history[c.phases - 1] == "PUBLISHING":
                    self._published(ws, out)
                self._close_steps(ws, out)
            c.phases += 1
            self._emit(out, StepStartedEvent(step_name=history[c.phases - 1]))
        agents = _agents(ws)
        while c.agents < len(agents):
            c.agents += 1
            c.open_agents += 1
            self._emit(out, StepStartedEvent(step_name=f"agent:{agents[c.agents - 1]}"))

    def _tool_call(
        self, out: Emitted, name: str, args: dict[str, Any], agent: str | None = None
    ) -> None:
        call_id = f"{self.run_id}:{name}:{self.cursor.seq + 1}"
        meta = {"agent": agent} if agent else None
        self._emit(
            out, ToolCallStartEvent(tool_call_id=call_id, tool_call_name=name, metadata=meta)
        )
        self._emit(out, ToolCallArgsEvent(tool_call_id=call_id, delta=json.dumps(args)))
        if name == "task":
            self.cursor.calls += 1
        self._emit(out, ToolCallEndEvent(tool_call_id=call_id))

    def _task_calls(self, ws: dict[str, Any], out: Emitted) -> None:
        spawned = ws.get("spawnedSubagents") or []
        while self.cursor.calls < len(spawned):
            sub = spawned[self.cursor.calls]
            args = {"subagent_type": sub.get("name"), "description": sub.get("task")}
            self._tool_call(out, "task", args)

    def _todo_calls(
        self, out: Emitted, todos: dict[str, list[dict[str, Any]]], agents: list[str]
    ) -> None:
        for agent in agents:
            self._tool_call(out, "write_todos", {"todos": todos[agent]}, agent or None)

    def _decisions(self, ws: dict[str, Any], out: Emitted) -> None:
        c = self.cursor
        status_of = {cand.get("id"): cand.get("status") for cand in ws.get("candidates") or []}
        decisions = ws.get("decisions") or []
        while c.decisions < len(decisions):
            decision = decisions[c.decisions]
            c.decisions += 1
            value = {**decision, "candidateStatus": status_of.get(decision.get("candidateId"))}
            self._emit(out, CustomEvent(name="decision", value=value))

    def _review(self, ws: dict[str, Any], out: Emitted) -> None:
        pending = list(ws.get("pendingApprovals") or [])
        new = [cid for cid in pending if self._pending is None or cid not in self._pending]
        if new:
            waiting = set(pending)
            value = {
                "pendingApprovals": pending,
                "new": new,
                "candidates": [
                    _candidate_summary(x)
                    for x in ws.get("candidates") or []
                    if x.get("id") in waiting
                ],
            }
            self._emit(out, CustomEvent(name="review_requested", value=value))
        self._pending = set(pending)

    def _published(self, ws: dict[str, Any], out: Emitted) -> None:
        c = self.cursor
        published = ws.get("publishedAssets") or []
        while c.published < len(published):
            asset = published[c.published]
            c.published += 1
            self._emit(out, CustomEvent(name="asset_published", value=asset))
