"""The ordered run log (workflows/run_log.py): what it records, how it is read, bounded
and compacted, and carried across a continue-as-new."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from contracts.run import Candidate, Phase, Todo, Workspace
from workflows import run_log
from workflows.run_log import RunLog, rebuilt, workspace_view

T0 = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)


def view(ws: Workspace, **live: Any) -> dict[str, Any]:
    return workspace_view(ws, **live)


def grown(log: RunLog, ws: Workspace, step: int, **live: Any) -> int:
    return log.record(view(ws, **live), T0 + timedelta(seconds=step))


def test_each_change_is_one_entry_in_order_with_its_time() -> None:
    log = RunLog(view(Workspace()))
    ws = Workspace(runId="r1", threadId="supply_chain", query="q")
    assert grown(log, ws, 0) == 3
    ws.phase = Phase.DISCOVERY
    ws.phaseHistory.append(Phase.DISCOVERY)
    ws.todos = [Todo(content="search", agent="discovery")]
    events = [{"kind": "tool_call", "agent": "discovery", "value": {"id": "c1", "name": "web"}}]
    assert log.record(view(ws), T0 + timedelta(seconds=1), events) == 4
    page = log.page()
    assert [(e.seq, e.kind, e.op, e.key) for e in page.entries] == [
        (1, "state", "set", "runId"),
        (2, "state", "set", "threadId"),
        (3, "state", "set", "query"),
        (4, "tool_call", "event", None),
        (5, "phase", "set", "phase"),
        (6, "phase", "extend", "phaseHistory"),
        (7, "todo", "extend", "todos"),
    ]
    assert [e.end for e in page.entries] == [False, False, True, False, False, False, True]
    assert page.entries[3].at == "2025-01-02T03:04:06.000+00:00"
    assert page.base == view(Workspace()) and page.floor == 0 and page.last == 7
    assert rebuilt(page) == view(ws)
    # Nothing changed: nothing recorded.
    assert grown(log, ws, 2) == 0


def test_a_tool_result_names_the_entry_of_its_call() -> None:
    log = RunLog(view(Workspace()))
    call = {"kind": "tool_call", "agent": "enrichment", "value": {"id": "x", "name": "task"}}
    done = {"kind": "tool_result", "agent": "enrichment", "value": {"id": "x", "ok": True}}
    log.record(view(Workspace()), T0, [call])
    log.record(view(Workspace()), T0, [done])
    assert [e.value for e in log.page().entries] == [
        {"id": "x", "name": "task"},
        {"id": "x", "ok": True, "call": 1},
    ]


def test_phases_are_one_entry_each_and_changed_items_are_replaced_in_place() -> None:
    log = RunLog(view(Workspace()))
    ws = Workspace()
    ws.phaseHistory += [Phase.DISCOVERY, Phase.ENRICHMENT]
    candidates = [
        Candidate(id=f"c{i}", asset={"name": str(i)}).model_dump(mode="json") for i in range(4)
    ]
    grown(log, ws, 0, candidates=candidates)
    # Each record is handed a view of its own (the workflow dumps a fresh one each time).
    candidates = [dict(c) for c in candidates]
    candidates[2]["status"] = "approved"
    grown(log, ws, 1, candidates=candidates)
    entries = log.page().entries
    assert [(e.op, e.value) for e in entries if e.key == "phaseHistory"] == [
        ("extend", ["DISCOVERY"]),
        ("extend", ["ENRICHMENT"]),
    ]
    assert [(e.op, e.index) for e in entries[-1:]] == [("item", 2)]
    assert rebuilt(log.page()) == view(ws, candidates=candidates)


def test_todos_rewritten_in_another_order_are_set_whole() -> None:
    log = RunLog(view(Workspace()))
    a, b = Todo(content="a", agent="discovery"), Todo(content="b", agent="enrichment")
    ws = Workspace(todos=[a, b])
    grown(log, ws, 0)
    ws.todos = [b, a]
    grown(log, ws, 1)
    last = log.page().entries[-1]
    assert (last.op, last.key) == ("set", "todos")
    assert rebuilt(log.page()) == view(ws)


def test_a_large_value_is_held_once_by_reference() -> None:
    log = RunLog(view(Workspace()))
    ws = Workspace(synthesizedReport="x" * 10_000)
    grown(log, ws, 0)
    ws.summary = "done"
    grown(log, ws, 1)
    page = log.page()
    [report] = [e for e in page.entries if e.key == "synthesizedReport"]
    assert report.value is None and report.ref in page.bodies
    assert page.bodies == {report.ref: "x" * 10_000}
    assert log.page(after=report.seq).bodies == {}, "a page carries only the bodies it names"
    assert rebuilt(page) == view(ws)


def test_the_oldest_entries_fold_into_the_base_past_the_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(run_log, "MAX_ENTRIES", 10)
    log = RunLog(view(Workspace()))
    ws = Workspace()
    for step in range(30):
        ws.errors.append(f"e{step}")
        grown(log, ws, step)
    assert len(log.entries) <= 10 and log.last == 30
    page = log.page()
    assert page.floor > 0 and page.base is not None
    assert page.entries[0].seq == page.floor + 1
    assert rebuilt(page) == view(ws)
    # A reader past the floor gets no base, and the entries after where it was.
    later = log.page(after=page.floor + 2)
    assert later.base is None and later.entries[0].seq == page.floor + 3


def test_a_page_ends_at_the_end_of_a_step() -> None:
    log = RunLog(view(Workspace()))
    ws = Workspace()
    for step in range(5):
        ws.errors.append(f"e{step}")
        ws.memoryWrites.append(f"m{step}")
        ws.budgetStops.append(f"b{step}")
        grown(log, ws, step)
    page = log.page(after=-1, limit=4)
    assert [e.seq for e in page.entries] == [1, 2, 3, 4, 5, 6] and page.more
    assert page.entries[-1].end
    rest = log.page(after=6, limit=100)
    assert [e.seq for e in rest.entries] == list(range(7, 16)) and not rest.more
    assert rebuilt(rest, rebuilt(page)) == view(ws)


def test_a_carried_log_goes_on_with_its_sequence() -> None:
    log = RunLog(view(Workspace()))
    ws = Workspace(runId="r")
    grown(log, ws, 0)
    ws.errors.append("one")
    grown(log, ws, 1)
    restored = RunLog.restored(log.carried())
    assert restored.last == log.last and restored.view == log.view
    ws.errors.append("two")
    assert grown(restored, ws, 2) == 1
    assert restored.page().entries[-1].seq == log.last + 1
    assert rebuilt(restored.page()) == view(ws)


def test_entry_times_never_go_back() -> None:
    log = RunLog(view(Workspace()))
    assert grown(log, Workspace(runId="r1"), 5) == 1
    # Recorded later with an earlier time (a step that goes on from a local activity's
    # result reads the time the activity started at): stamped with the time before it.
    assert grown(log, Workspace(runId="r1", query="q"), 3) == 1
    assert [e.at for e in log.page().entries] == [
        (T0 + timedelta(seconds=5)).isoformat(timespec="milliseconds")
    ] * 2
