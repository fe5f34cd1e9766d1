"""The pure parts of the event stream (api/ag_ui_events.py): the STATE_DELTA JSON Patch,
the event id, and the events a run log stands for."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import jsonpatch
import pytest
from ag_ui.core import RunFinishedEvent, RunStartedEvent

from api.ag_ui_events import EventId, LogReplay, json_patch
from contracts.run import Candidate, Decision, Phase, Todo, Workspace
from tests.support.ag_ui_stream import (
    apply_patch,
    check_steps,
    phase_steps,
    rebuilt_state,
    tool_calls,
)
from workflows.review_and_publish import decided_event
from workflows.run_log import RunLog, workspace_view


@pytest.mark.parametrize(
    "old,new",
    [
        (
            {"a~b/c": 1, "x": [1, 2, 3], "t": True, "n": 1, "gone": {"k": 1}},
            {"a~b/c": 2, "x": [1], "t": 1, "n": 1.0, "new": {"k": None}},
        ),
        ({"l": [{"id": 1, "v": "a"}]}, {"l": [{"id": 1, "v": "b"}, {"id": 2}, [3]]}),
        ({"x": None}, {"x": {"deep": [None, False, 0, ""]}}),
        ([1, 2], {"now": "an object"}),
        ({"same": [1, {"a": 2}]}, {"same": [1, {"a": 2}]}),
        # Where jsonpatch.make_patch would answer with `move`: todos rewritten in another
        # order, an id leaving one list for another.
        (
            {"todos": [{"content": "a", "status": "completed"}, {"content": "b"}]},
            {"todos": [{"content": "b"}, {"content": "a", "status": "completed"}]},
        ),
        ({"pending": ["c1", "c2"], "rejected": []}, {"pending": ["c2"], "rejected": ["c1"]}),
    ],
)
def test_json_patch_turns_one_value_into_the_other(old: Any, new: Any) -> None:
    ops = json_patch(old, new)
    # The ops the chat UI's patch.js applies, strictly (a path that does not resolve fails).
    assert {op["op"] for op in ops} <= {"add", "remove", "replace"}, ops
    assert json.dumps(apply_patch(old, ops)) == json.dumps(new)
    assert (ops == []) == (json.dumps(old) == json.dumps(new))
    # The same patch through jsonpatch's own apply.
    assert json.dumps(jsonpatch.apply_patch(old, ops)) == json.dumps(new)


def test_an_event_id_is_an_entry_and_a_place_and_anything_else_is_not() -> None:
    assert EventId.parse(EventId(12, 3).token()) == EventId(12, 3)
    assert EventId(12, 3) < EventId(12, 4) < EventId(13, 0)
    for bad in ("", "not-an-id", "1.2.3", "1", "-1.0", "1.x", "1.2.1.2.0.0.0"):
        assert EventId.parse(bad) is None, bad


def reviewed_run_log() -> tuple[RunLog, Workspace]:
    """A run's log as the workflow records it: phases, an agent's todos and tool calls,
    a review with two candidates decided in two batches, then the end."""
    log, clock = RunLog(workspace_view(Workspace())), datetime(2025, 5, 6, tzinfo=UTC)
    ws = Workspace(runId="r1", threadId="supply_chain", query="q")
    candidates: list[Candidate] = []
    decisions: list[Decision] = []

    def step(events: list[dict[str, Any]] = ()) -> None:  # type: ignore[assignment]
        nonlocal clock
        clock += timedelta(seconds=1)
        pending = [c.id for c in candidates if c.status == "pending"]
        log.record(
            workspace_view(
                ws,
                candidates=[c.model_dump(mode="json") for c in candidates],
                decisions=[d.model_dump(mode="json") for d in decisions],
                pendingApprovals=pending if ws.phase == Phase.REVIEW else [],
            ),
            clock,
            events,
        )

    def enter(phase: Phase) -> None:
        ws.phase = phase
        ws.phaseHistory.append(phase)
        step()

    step()
    enter(Phase.DISCOVERY)
    ws.todos = [Todo(content="search", agent="discovery")]
    call = {"id": "1", "name": "web_search", "args": {"query": "lithium"}}
    step([{"kind": "tool_call", "agent": "discovery", "value": call}])
    step([{"kind": "tool_result", "agent": "discovery", "value": {"id": "1", "ok": True}}])
    candidates += [Candidate(id="c1", asset={"name": "A"}), Candidate(id="c2", asset={})]
    enter(Phase.REVIEW)
    for cid in ("c1", "c2"):
        decision = Decision(candidateId=cid, action="reject", reviewer="rita")
        decisions.append(decision)
        next(c for c in candidates if c.id == cid).status = "rejected"
        step([decided_event([decision])])
    enter(Phase.PUBLISHING)
    enter(Phase.COMPLETED)
    ws.decisions, ws.candidates = decisions, candidates
    return log, ws


def replayed(log: RunLog) -> list[tuple[EventId, Any]]:
    replay = LogReplay("r1")
    page = log.page()
    out, taken = replay.begin(page)
    for entry in page.entries[taken:]:
        out += replay.entry(entry, page.bodies)
    return out + replay.finish("COMPLETED")


def test_a_log_replays_as_nested_steps_with_review_as_an_interrupt() -> None:
    log, ws = reviewed_run_log()
    emitted = replayed(log)
    ids = [eid for eid, _ in emitted]
    events = [event for _, event in emitted]
    assert ids == sorted(set(ids))
    assert phase_steps(events) == [p.value for p in ws.phaseHistory]
    check_steps(events)
    [(call, args)] = [(c, a) for c, a in tool_calls(events) if c.tool_call_name == "web_search"]
    assert args == {"query": "lithium"} and call.metadata == {"agent": "discovery"}
    # Each event carries the time its entry was recorded, not the time it was read.
    assert events[-1].timestamp == int(datetime(2025, 5, 6, 0, 0, 9, tzinfo=UTC).timestamp() * 1000)
    finished = [e for e in events if isinstance(e, RunFinishedEvent)]
    assert [f.outcome.type for f in finished] == ["interrupt", "interrupt", "success"]
    assert [[i.id for i in f.outcome.interrupts] for f in finished[:2]] == [
        ["review:c1", "review:c2"],
        ["review:c2"],
    ]
    resumed = [e for e in events if isinstance(e, RunStartedEvent)][1:]
    assert [e.run_id for e in resumed] == ["r1~1", "r1~2"]
    assert [[r.interrupt_id for r in e.input.resume] for e in resumed] == [
        ["review:c1"],
        ["review:c2"],
    ]
    assert rebuilt_state(events) == workspace_view(ws)
    # The same log, the same events with the same ids.
    assert [(eid, e.model_dump()) for eid, e in replayed(log)] == [
        (eid, e.model_dump()) for eid, e in emitted
    ]
