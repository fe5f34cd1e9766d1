"""The ordered run log of a mining run (pure: no I/O, no Temporal; contracts/run_log.py
says what an entry is).

The workflow records its workspace (as JSON, `workspace_view`) after every step that
may change it; `RunLog.record` compares it with the view recorded last and appends one
entry per change, in the order of the workspace's fields, each stamped with the run's
time (never before the entry before). Events that change no field (tool calls, their
results, a reviewers' batch) come first. Since the workflow records at fixed points of its
code, with a clock that reads the same live and in replay (workflows/run_clock.py), a
replay rebuilds the very same log.

Bounded and compacted: a value over `LARGE_BYTES` of JSON is held once, by its SHA-256,
in `bodies`; past `MAX_ENTRIES` entries or `MAX_BODY_BYTES` of bodies the oldest half is
folded into `base` (the workspace at `floor`). A page never splits the entries of one
step and stays near `PAGE_BYTES`.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from contracts.run import Workspace
from contracts.run_log import LOGGED_OUT, RunLogPage

LARGE_BYTES = 4096
MAX_ENTRIES = 5000
MAX_BODY_BYTES = 8_000_000
PAGE_BYTES = 1_000_000
PAGE_LIMIT = 500
CARRIED_ENTRIES = 1000  # what a continue-as-new carries on
KIND_OF = {
    "phase": "phase",
    "phaseHistory": "phase",
    "todos": "todo",
    "spawnedSubagents": "subagent",
    "filesystemFiles": "file",
    "memoryWrites": "memory",
    "candidates": "candidate",
    "decisions": "decision",
    "publishedAssets": "publication",
    "pendingApprovals": "review",
}
# Per item, not per step: each phase its own entry, with its own time.
ONE_BY_ONE = ("phaseHistory",)


# The workspace fields the log holds, in the order a step's changes are recorded: the
# pending candidates last (a step's decisions come before the review they close).
VIEW_FIELDS = (
    *(f for f in Workspace.model_fields if f not in LOGGED_OUT and f != "pendingApprovals"),
    "pendingApprovals",
)


def workspace_view(ws: Workspace, **live: Any) -> dict[str, Any]:
    """The workspace as the log holds it (JSON, `VIEW_FIELDS`); `live` fields (JSON
    already) stand in for the workspace's own."""
    dumped = ws.model_dump(mode="json", exclude={*LOGGED_OUT, *live})
    return {field: live[field] if field in live else dumped[field] for field in VIEW_FIELDS}


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def todos_with(todos: list[dict[str, Any]], agent: str, group: list[Any]) -> list[Any]:
    """`todos` with `agent`'s (one run of items) replaced by `group`, or `group` added."""
    at = [i for i, todo in enumerate(todos) if todo.get("agent") == agent]
    if not at:
        return [*todos, *group]
    return [*todos[: at[0]], *group, *todos[at[-1] + 1 :]]


def apply_entry(state: dict[str, Any], entry: dict[str, Any], bodies: dict[str, Any]) -> None:
    """Change `state` (a workspace view) as `entry` says; values are copied in."""
    op = entry["op"]
    if op == "event":
        return
    ref = entry.get("ref")
    value = copy.deepcopy(bodies[ref] if ref else entry.get("value"))
    key = entry["key"]
    if op == "set":
        state[key] = value
    elif op == "extend":
        state[key].extend(value)
    elif op == "item":
        state[key][entry["index"]] = value
    elif op == "todos":
        state[key] = todos_with(state[key], entry["agent"], value)
    else:
        raise ValueError(f"unknown log op {op!r}")


def rebuilt(page: RunLogPage, start: dict[str, Any] | None = None) -> dict[str, Any]:
    """The workspace view after the page's entries, from its `base` (or `start`)."""
    state = copy.deepcopy(page.base if page.base is not None else start)
    if state is None:
        raise ValueError("the page starts after the floor: give the state it starts from")
    for entry in page.entries:
        apply_entry(state, entry.model_dump(), page.bodies)
    return state


def _agents(todos: list[dict[str, Any]]) -> dict[str, list[Any]]:
    grouped: dict[str, list[Any]] = {}
    for todo in todos:
        grouped.setdefault(todo.get("agent") or "", []).append(todo)
    return grouped


def _changes(key: str, old: Any, new: Any) -> list[dict[str, Any]]:
    """The entries (without seq and time) that turn `old` into `new` for field `key`."""
    whole = [{"op": "set", "key": key, "value": new}]
    if not isinstance(old, list) or not isinstance(new, list):
        return whole
    if len(new) > len(old) and new[: len(old)] == old:
        added = new[len(old) :]
        if key in ONE_BY_ONE:
            return [{"op": "extend", "key": key, "value": [item]} for item in added]
        return [{"op": "extend", "key": key, "value": added}]
    if key == "todos":
        before, after = _agents(old), _agents(new)
        ops = [
            {"op": "todos", "key": key, "agent": agent, "value": group}
            for agent, group in after.items()
            if agent and before.get(agent) != group
        ]
        state = {key: old}
        for op in ops:
            apply_entry(state, op, {})
        return ops if ops and state[key] == new else whole
    if len(new) == len(old):
        changed = [i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b]
        if len(changed) <= max(1, len(new) // 2):
            return [{"op": "item", "key": key, "index": i, "value": new[i]} for i in changed]
    return whole


class RunLog:
    """A run's log: the entries after `floor`, the view at `floor` and the view now."""

    def __init__(self, initial: dict[str, Any]) -> None:
        self.floor = 0
        self.last = 0
        self.base = copy.deepcopy(initial)
        self.view = copy.deepcopy(initial)  # as recorded last
        self.entries: list[dict[str, Any]] = []
        self.bodies: dict[str, Any] = {}
        self._sizes: list[int] = []
        self._body_sizes: dict[str, int] = {}
        self._calls: dict[tuple[str, str], int] = {}  # open tool calls: (agent, id) -> seq
        self._floor_at = ""  # the time of the entry at `floor`

    # -- writing -----------------------------------------------------------------

    def record(
        self, view: dict[str, Any], now: datetime, events: Iterable[dict[str, Any]] = ()
    ) -> int:
        """Append `events` and what changed from the last view to `view`; the count.
        The log keeps `view` (and parts of it in its entries): hand it a fresh one."""
        # Never before the entry before (UTC, one format: the strings order as the times).
        at = max(now.isoformat(timespec="milliseconds"), self.latest)
        first = len(self.entries)
        for event in events:
            self._append(at, self._event(event))
        for key, new in view.items():
            if key not in self.view:
                changes = [{"op": "set", "key": key, "value": new}]
            elif self.view[key] == new:
                continue
            else:
                changes = _changes(key, self.view[key], new)
            for change in changes:
                self._append(at, {"kind": KIND_OF.get(key, "state"), **change})
        self.view = view
        added = len(self.entries) - first
        if added:
            self.entries[-1]["end"] = True
            self._compact(MAX_ENTRIES)
        return added

    @property
    def latest(self) -> str:
        """The time of the newest entry ("" before the first)."""
        return self.entries[-1]["at"] if self.entries else self._floor_at

    def _event(self, event: dict[str, Any]) -> dict[str, Any]:
        kind, agent = event["kind"], event.get("agent")
        value = dict(event.get("value") or {})
        call = (agent or "", str(value.get("id")))
        if kind == "tool_call":
            self._calls[call] = self.last + 1
        elif kind == "tool_result":
            value["call"] = self._calls.pop(call, None)
        return {"kind": kind, "op": "event", "agent": agent, "value": value}

    def _append(self, at: str, change: dict[str, Any]) -> None:
        self.last += 1
        entry = {"seq": self.last, "at": at, **change}
        size = 200
        if "value" in change:
            text = _json(change["value"])
            if len(text) > LARGE_BYTES:
                ref = hashlib.sha256(text.encode()).hexdigest()
                if ref not in self.bodies:
                    self.bodies[ref] = change["value"]
                    self._body_sizes[ref] = len(text)
                entry["ref"] = ref
                del entry["value"]
            else:
                size += len(text)
        self.entries.append(entry)
        self._sizes.append(size)

    def _compact(self, keep_at_most: int) -> None:
        over_bodies = sum(self._body_sizes.values()) > MAX_BODY_BYTES
        if len(self.entries) <= keep_at_most and not over_bodies:
            return
        if not self.entries:
            return
        drop = max(1, len(self.entries) - keep_at_most, len(self.entries) // 2)
        while drop < len(self.entries) and not self.entries[drop - 1].get("end"):
            drop += 1  # the entries of one step go together
        for entry in self.entries[:drop]:
            apply_entry(self.base, entry, self.bodies)
        self.floor = self.entries[drop - 1]["seq"]
        self._floor_at = self.entries[drop - 1]["at"]
        self.entries = self.entries[drop:]
        self._sizes = self._sizes[drop:]
        kept = {e["ref"] for e in self.entries if "ref" in e}
        self.bodies = {r: v for r, v in self.bodies.items() if r in kept}
        self._body_sizes = {r: s for r, s in self._body_sizes.items() if r in kept}

    # -- reading -----------------------------------------------------------------

    def page(self, after: int = -1, limit: int = PAGE_LIMIT) -> RunLogPage:
        """The entries after `after` (up to `limit`, whole steps), with the bodies they
        name; from before `floor`, `base` and the entries after it."""
        base = None
        if after < self.floor:
            base, after = self.base, self.floor
        start = max(0, after - self.floor)
        taken: list[dict[str, Any]] = []
        bodies: dict[str, Any] = {}
        size = 0
        index = start
        while index < len(self.entries):
            entry = self.entries[index]
            full = len(taken) >= limit or size >= PAGE_BYTES
            if full and taken and taken[-1].get("end"):
                break
            taken.append(entry)
            size += self._sizes[index]
            ref = entry.get("ref")
            if ref and ref not in bodies:
                bodies[ref] = self.bodies[ref]
                size += self._body_sizes[ref]
            index += 1
        return RunLogPage.model_validate(
            {
                "floor": self.floor,
                "last": self.last,
                "base": base,
                "entries": taken,
                "bodies": bodies,
                "more": index < len(self.entries),
            }
        )

    # -- carried across a continue-as-new -------------------------------------------------

    def carried(self) -> dict[str, Any]:
        """The log for the next run of the chain: at most `CARRIED_ENTRIES` entries."""
        self._compact(CARRIED_ENTRIES)
        return {
            "floor": self.floor,
            "floorAt": self._floor_at,
            "base": self.base,
            "entries": self.entries,
            "bodies": self.bodies,
        }

    @classmethod
    def restored(cls, carried: dict[str, Any]) -> RunLog:
        log = cls(carried["base"])
        log.floor = int(carried["floor"])
        log._floor_at = str(carried.get("floorAt", ""))
        log.bodies = dict(carried["bodies"])
        log._body_sizes = {r: len(_json(v)) for r, v in log.bodies.items()}
        for entry in carried["entries"]:
            apply_entry(log.view, entry, log.bodies)
            log.entries.append(entry)
            log._sizes.append(200 + len(_json(entry.get("value"))))
        log.last = log.entries[-1]["seq"] if log.entries else log.floor
        return log
