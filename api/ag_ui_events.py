"""AG-UI events from a run's ordered log (pure: no I/O, no Temporal).

`LogReplay` is fed the run's log (contracts/run_log.py) entry by entry and answers with
the AG-UI events each entry stands for, each with its `EventId` and the entry's time:

- `begin`: `RUN_STARTED`, a `STATE_SNAPSHOT` of the log's base (with the run's first
  recorded step in it), a step per phase the base went through;
- each change of the workspace is a `STATE_DELTA` (an RFC 6902 patch: add, remove and
  replace only), then what it means:
  - a phase: the open steps close and `STEP_STARTED <PHASE>` opens (every phase the run
    passed through, in order);
  - an agent's todos: a `write_todos` tool call (`TOOL_CALL_START` / `_ARGS` / `_END`,
    the agent in `metadata`) inside `agent:<name>`, a step opened by the agent's first
    todo or tool call in the phase and closed with the phase;
  - decisions: `CUSTOM` `decision` (with the candidate's status); published assets:
    `CUSTOM` `asset_published`; new pending candidates: `CUSTOM` `review_requested`;
- a tool call of an agent: `TOOL_CALL_START` / `_ARGS` / `_END` inside its agent's step;
  its result: `TOOL_CALL_RESULT` (`{"ok": ...}`);
- review, the AG-UI 1.0 way: when a step of the run leaves it in REVIEW with candidates
  pending, the open steps close and `RUN_FINISHED` ends the AG-UI run with an interrupt
  outcome, one interrupt per pending candidate (`review:<candidateId>`). The next entry
  (a batch of decisions: its resume entries answer their interrupts) starts the next
  AG-UI run, `RUN_STARTED` with run id `<runId>~<n>`; if candidates still wait after it,
  the interrupt comes again with those.
- `finish`: the open steps close, then `RUN_FINISHED` (completed) or `RUN_ERROR`.

An event id is `<seq>.<k>`: the `k`-th event of log entry `seq` (`begin`'s events carry
the base's seq). The same log gives the same events with the same ids, so a client that
reconnects with `Last-Event-ID` is sent exactly the events after it.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import jsonpatch
from ag_ui.core import (
    BaseEvent,
    CustomEvent,
    Interrupt,
    ResumeEntry,
    RunAgentInput,
    RunErrorEvent,
    RunFinishedEvent,
    RunFinishedInterruptOutcome,
    RunFinishedSuccessOutcome,
    RunStartedEvent,
    StateDeltaEvent,
    StateSnapshotEvent,
    StepFinishedEvent,
    StepStartedEvent,
    ToolCallArgsEvent,
    ToolCallEndEvent,
    ToolCallResultEvent,
    ToolCallStartEvent,
)

from contracts.run_log import LogEntry, RunLogPage
from workflows.run_log import apply_entry

TERMINAL_PHASES = ("COMPLETED", "FAILED", "CANCELED")
_ID = re.compile(r"([0-9]{1,15})\.([0-9]{1,6})")
# What answers one review interrupt: the body of one POST /api/runs/{id}/decisions item.
DECISION_SCHEMA = {
    "type": "object",
    "properties": {
        "action": {"enum": ["approve", "edit", "reject"]},
        "asset": {"type": "object"},
        "reason": {"type": "string"},
    },
    "required": ["action"],
}


def json_patch(old: Any, new: Any) -> list[dict[str, Any]]:
    """An RFC 6902 patch turning JSON value `old` into `new`, by jsonpatch: add, remove
    and replace only (its move optimisation off: the chat UI's patch.js and the tests'
    strict checker apply those three). Scalars compare by JSON type as well as value."""
    return jsonpatch.JsonPatch.from_diff(old, new, optimization=False).patch


@dataclass(frozen=True, order=True)
class EventId:
    """An event's place in the stream; its text form is the SSE event id."""

    seq: int  # the log entry it comes from
    k: int  # its place among that entry's events

    def token(self) -> str:
        return f"{self.seq}.{self.k}"

    @classmethod
    def parse(cls, text: str) -> EventId | None:
        match = _ID.fullmatch(text.strip())
        return cls(int(match[1]), int(match[2])) if match else None


Emitted = list[tuple[EventId, BaseEvent]]


def _ms(at: str | None) -> int | None:
    return None if at is None else int(datetime.fromisoformat(at).timestamp() * 1000)


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


class LogReplay:
    """Turns a run's log, entry by entry, into AG-UI events with their ids."""

    def __init__(self, run_id: str) -> None:
        self.run_id = run_id
        self.state: dict[str, Any] = {}
        self.started = False
        self.phases: list[str] = []
        self.phase_open: str | None = None
        self.agents_open: list[str] = []
        self.calls: dict[int, str] = {}  # tool calls sent: their entry's seq -> id
        self.interrupted = False
        self.resumes = 0  # AG-UI runs started after an interrupt
        self._seq, self._k, self._ms = 0, 0, None

    @property
    def thread_id(self) -> str:
        return str(self.state.get("threadId") or "")

    def _ag_run_id(self) -> str:
        return f"{self.run_id}~{self.resumes}" if self.resumes else self.run_id

    def _emit(self, out: Emitted, event: BaseEvent) -> None:
        event.timestamp = self._ms
        out.append((EventId(self._seq, self._k), event))
        self._k += 1

    # -- the stream's parts -------------------------------------------------------------

    def begin(self, page: RunLogPage) -> tuple[Emitted, int]:
        """From the page's base: the snapshot and the phases it went through. A log read
        from its start has the run's first recorded step folded into the snapshot (its
        ids, the request's fields, are what `RUN_STARTED` names); the count of entries
        so taken."""
        assert page.base is not None, "begin with a page that carries the base"
        state = copy.deepcopy(page.base)
        taken = 0
        if page.floor == 0:
            for entry in page.entries:
                apply_entry(state, entry.model_dump(), page.bodies)
                taken += 1
                if entry.end:
                    break
        first = page.entries[taken - 1] if taken else None
        self._seq, self._k = (first.seq if first else page.floor), 0
        self._ms = _ms(first.at if first else None)
        self.state = state
        out: Emitted = []
        if not self.started:
            self.started = True
            self._emit(out, RunStartedEvent(thread_id=self.thread_id, run_id=self.run_id))
        self._emit(out, StateSnapshotEvent(snapshot=copy.deepcopy(state)))
        history = [str(p) for p in state.get("phaseHistory") or []]
        known = self.phases if history[: len(self.phases)] == self.phases else []
        for phase in history[len(known) :]:
            self._open_phase(out, phase)
        self.phases = history
        self._maybe_interrupt(out)
        return out, taken

    def entry(self, entry: LogEntry, bodies: dict[str, Any]) -> Emitted:
        self._seq, self._k, self._ms = entry.seq, 0, _ms(entry.at)
        out: Emitted = []
        if self.interrupted:
            self._resume(out, entry)
        if entry.op == "event":
            self._event(out, entry)
        else:
            self._change(out, entry, bodies)
        if entry.end:
            self._maybe_interrupt(out)
        return out

    def finish(self, status: str | None, failure: str | None = None) -> Emitted:
        """Close the open steps and end the run: RUN_FINISHED or RUN_ERROR.

        `status` is Temporal's (`COMPLETED`, `FAILED`, `CANCELED`, `TERMINATED`, ...),
        `failure` the cause Temporal recorded, if any."""
        out: Emitted = []
        ws = self.state
        if self.interrupted:
            self._resume(out, None)
        self._close_steps(out)
        phase = ws.get("phase") or "UNKNOWN"
        if phase == "COMPLETED" and status in (None, "COMPLETED"):
            result = {"summary": ws.get("summary"), "publishedAssets": ws.get("publishedAssets")}
            self._emit(
                out,
                RunFinishedEvent(
                    thread_id=self.thread_id, run_id=self._ag_run_id(), result=result,
                    outcome=RunFinishedSuccessOutcome(),
                ),
            )  # fmt: skip
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

    # -- changes -----------------------------------------------------------------

    def _change(self, out: Emitted, entry: LogEntry, bodies: dict[str, Any]) -> None:
        key = entry.key or ""
        had = key in self.state
        old = copy.deepcopy(self.state.get(key))
        apply_entry(self.state, entry.model_dump(), bodies)
        new = self.state[key]
        if entry.op == "extend":
            delta = [{"op": "add", "path": f"/{key}/-", "value": v} for v in new[len(old) :]]
        elif entry.op == "item":
            delta = [{"op": "replace", "path": f"/{key}/{entry.index}", "value": new[entry.index]}]
        elif entry.op == "todos":
            delta = [{**op, "path": f"/{key}{op['path']}"} for op in json_patch(old, new)]
        else:
            delta = [{"op": "replace" if had else "add", "path": f"/{key}", "value": new}]
        self._emit(out, StateDeltaEvent(delta=copy.deepcopy(delta)))
        if key == "phaseHistory":
            history = [str(p) for p in new]
            same = 0
            while same < min(len(history), len(self.phases)) and history[same] == self.phases[same]:
                same += 1
            for phase in history[same:]:
                self._open_phase(out, phase)
            self.phases = history
        elif key == "todos":
            before = _by_agent(old or [])
            for agent, todos in _by_agent(new).items():
                if agent and before.get(agent) != todos:
                    self._todo_call(out, agent, todos)
        elif key == "decisions":
            status = {c.get("id"): c.get("status") for c in self.state.get("candidates") or []}
            for decision in new[len(old or []) :] if entry.op == "extend" else []:
                value = {**decision, "candidateStatus": status.get(decision.get("candidateId"))}
                self._emit(out, CustomEvent(name="decision", value=value))
        elif key == "publishedAssets" and entry.op == "extend":
            for asset in new[len(old) :]:
                self._emit(out, CustomEvent(name="asset_published", value=asset))
        elif key == "pendingApprovals":
            new_ids = [cid for cid in new if cid not in (old or [])]
            if new_ids:
                waiting = set(new)
                value = {
                    "pendingApprovals": list(new),
                    "new": new_ids,
                    "candidates": [
                        _candidate_summary(c)
                        for c in self.state.get("candidates") or []
                        if c.get("id") in waiting
                    ],
                }
                self._emit(out, CustomEvent(name="review_requested", value=value))

    def _event(self, out: Emitted, entry: LogEntry) -> None:
        value = entry.value or {}
        name = str(value.get("name") or "")
        if entry.kind == "tool_call" and name != "write_todos":  # todos: as they change
            self._agent(out, entry.agent)
            call_id = f"{self.run_id}:{name}:{entry.seq}"
            self.calls[entry.seq] = call_id
            meta = {"agent": entry.agent} if entry.agent else None
            self._emit(
                out, ToolCallStartEvent(tool_call_id=call_id, tool_call_name=name, metadata=meta)
            )
            args = json.dumps(value.get("args") or {})
            self._emit(out, ToolCallArgsEvent(tool_call_id=call_id, delta=args))
            self._emit(out, ToolCallEndEvent(tool_call_id=call_id))
        elif entry.kind == "tool_result" and value.get("call") in self.calls:
            result = ToolCallResultEvent(
                message_id=f"{self.run_id}:result:{entry.seq}",
                tool_call_id=self.calls[value["call"]],
                content=json.dumps({"ok": bool(value.get("ok"))}),
                role="tool",
            )
            self._emit(out, result)

    # -- steps, calls and review -----------------------------------------------------------

    def _close_steps(self, out: Emitted) -> None:
        while self.agents_open:
            self._emit(out, StepFinishedEvent(step_name=f"agent:{self.agents_open.pop()}"))
        if self.phase_open is not None:
            self._emit(out, StepFinishedEvent(step_name=self.phase_open))
            self.phase_open = None

    def _open_phase(self, out: Emitted, phase: str) -> None:
        self._close_steps(out)
        self.phase_open = phase
        self._emit(out, StepStartedEvent(step_name=phase))

    def _agent(self, out: Emitted, agent: str | None) -> None:
        """The agent's step, opened inside the phase at its first todo or tool call."""
        if agent and self.phase_open is not None and agent not in self.agents_open:
            self.agents_open.append(agent)
            self._emit(out, StepStartedEvent(step_name=f"agent:{agent}"))

    def _todo_call(self, out: Emitted, agent: str, todos: list[dict[str, Any]]) -> None:
        self._agent(out, agent)
        call_id = f"{self.run_id}:write_todos:{self._seq}.{self._k}"
        args = {"todos": [{"content": t.get("content"), "status": t.get("status")} for t in todos]}
        self._emit(
            out,
            ToolCallStartEvent(
                tool_call_id=call_id, tool_call_name="write_todos", metadata={"agent": agent}
            ),
        )
        self._emit(out, ToolCallArgsEvent(tool_call_id=call_id, delta=json.dumps(args)))
        self._emit(out, ToolCallEndEvent(tool_call_id=call_id))

    def _maybe_interrupt(self, out: Emitted) -> None:
        """A step that leaves the run in REVIEW with candidates pending ends the AG-UI
        run with an interrupt outcome."""
        pending = self.state.get("pendingApprovals") or []
        if self.interrupted or self.state.get("phase") != "REVIEW" or not pending:
            return
        self._close_steps(out)
        by_id = {c.get("id"): c for c in self.state.get("candidates") or []}
        interrupts = [
            Interrupt(
                id=f"review:{cid}",
                reason="input_required",
                message=f"Approve, edit or reject candidate {cid}"
                + (
                    f" ({name})" if (name := _candidate_summary(by_id.get(cid, {}))["name"]) else ""
                ),
                response_schema=DECISION_SCHEMA,
                metadata={"candidate": _candidate_summary(by_id.get(cid, {"id": cid}))},
            )
            for cid in pending
        ]
        outcome = RunFinishedInterruptOutcome(interrupts=interrupts)
        self._emit(
            out,
            RunFinishedEvent(thread_id=self.thread_id, run_id=self._ag_run_id(), outcome=outcome),
        )
        self.interrupted = True

    def _resume(self, out: Emitted, entry: LogEntry | None) -> None:
        """The AG-UI run after an interrupt: a batch of decisions answers its interrupts."""
        self.interrupted = False
        self.resumes += 1
        run_id = self._ag_run_id()
        decided = (
            (entry.value or {}).get("decisions") if entry and entry.kind == "decided" else None
        )
        run_input = None
        if decided:
            resume = [
                ResumeEntry(
                    interrupt_id=f"review:{d.get('candidateId')}",
                    status="resolved",
                    payload={"action": d.get("action"), "reviewer": d.get("reviewer")},
                )
                for d in decided
            ]
            run_input = RunAgentInput(
                thread_id=self.thread_id, run_id=run_id, messages=[], resume=resume
            )
        self._emit(out, RunStartedEvent(thread_id=self.thread_id, run_id=run_id, input=run_input))


def _by_agent(todos: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    grouped: dict[str, list[dict[str, Any]]] = {}
    for todo in todos:
        grouped.setdefault(todo.get("agent") or "", []).append(todo)
    return grouped
