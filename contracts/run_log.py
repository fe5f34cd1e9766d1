"""The ordered run log, as it is read: one page of entries from a sequence number.

A run's workflow appends every change of its workspace to the log (workflows/run_log.py
says how); the `run_log` query answers a `RunLogPage`. Each entry is one change:

- `seq`: its number, 1, 2, 3, ... without gaps; `at`: the workflow time it was recorded
  (ISO 8601, UTC);
- `kind`: `phase`, `todo`, `subagent`, `file`, `memory`, `candidate`, `decision`,
  `publication`, `review` (the pending candidates), `state` (any other workspace
  field), or an event that changes no field: `tool_call`, `tool_result`, `decided` (a
  batch of reviewers' decisions arrived);
- `op`, what it does to the workspace (as JSON, without the history counters
  `LOGGED_OUT`): `set` (`key` takes `value`), `extend` (the list `key` grows by the
  items of `value`), `item` (item `index` of the list `key` takes `value`), `todos` (the
  todos of `agent` take `value`, in their place), `event` (nothing);
- `value`, or `ref`: a large value is held once in the page's `bodies` under its
  SHA-256, and the entry names it;
- `end`: the last entry of the changes recorded together (one workflow step).

`base` is the workspace at `floor`, sent when the reader asks from before it: the log
keeps the latest entries only, and everything older is folded into `base`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

# Workspace fields that are not in the log: they change with every workflow task.
LOGGED_OUT = ("historyEvents", "historyBytes", "historyRuns")

LogOp = Literal["set", "extend", "item", "todos", "event"]


class LogEntry(BaseModel):
    seq: int
    at: str
    kind: str
    op: LogOp
    key: str | None = None
    index: int | None = None
    agent: str | None = None
    value: Any = None
    ref: str | None = None
    end: bool = False


class RunLogPage(BaseModel):
    floor: int = 0  # entries up to this one are folded into `base`
    last: int = 0  # the newest entry's seq (0: none yet)
    base: dict[str, Any] | None = None  # the workspace at `floor`, when asked from before it
    entries: list[LogEntry] = Field(default_factory=list)
    bodies: dict[str, Any] = Field(default_factory=dict)  # the large values, by SHA-256
    more: bool = False  # entries after this page exist already
