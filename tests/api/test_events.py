"""`GET /api/runs/{id}/events`: AG-UI events over SSE, against the real stack."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest
from ag_ui.core import (
    EventType,
    RunErrorEvent,
    RunFinishedEvent,
    RunStartedEvent,
    StateDeltaEvent,
    StateSnapshotEvent,
    StepStartedEvent,
)

from api.ag_ui_events import EventId
from api.routes import run_events as events_route
from kminer.config import Settings
from kminer.stack import Stack
from tests.support.ag_ui_stream import (
    SseReader,
    check_ids,
    check_steps,
    event_ids,
    first_open_steps,
    logged,
    phase_of,
    phase_steps,
    rebuilt_state,
    same_json,
    tool_calls,
)
from workflows.mining import MiningWorkflow

QUESTION = "Which suppliers of lithium carry geopolitical risk?"
TIMEOUT = httpx.Timeout(30.0, read=90.0)


def events_path(run_id: str) -> str:
    return f"/api/runs/{run_id}/events"


async def start(http: httpx.AsyncClient, review: str, headers: dict[str, str] | None = None) -> str:
    started = await http.post(
        "/api/runs",
        json={"query": QUESTION, "domainTags": ["supply_chain"], "review": review},
        headers=headers,
    )
    assert started.status_code == 202, started.text
    return started.json()["runId"]


async def final_workspace(stack: Stack, run_id: str) -> dict[str, Any]:
    handle = stack.client.get_workflow_handle(run_id)
    return (await handle.query(MiningWorkflow.workspace)).model_dump(mode="json")


# -- the tests ----------------------------------------------------------------------


async def test_an_auto_run_streams_its_workspace_as_ag_ui_events(stack: Stack, bearer: Any) -> None:
    async with httpx.AsyncClient(
        base_url=stack.api_url or "", headers=bearer(), timeout=TIMEOUT
    ) as http:
        run_id = await start(http, "auto")
        reader = SseReader(http, events_path(run_id), {})
        await reader.closed()
        api_workspace = (await http.get(f"/api/runs/{run_id}")).json()
    final = await final_workspace(stack, run_id)
    events = reader.events
    assert reader.status == 200 and reader.content_type.startswith("text/event-stream")
    check_ids(reader.received)

    first = events[0]
    assert isinstance(first, RunStartedEvent)
    assert (first.run_id, first.thread_id) == (run_id, "supply_chain")
    assert isinstance(events[-1], RunFinishedEvent) and events[-1].run_id == run_id
    assert events[-1].result["publishedAssets"] == final["publishedAssets"]
    types = [e.type for e in events]
    assert types.count(EventType.STATE_SNAPSHOT) == 1
    assert types.index(EventType.STATE_SNAPSHOT) < types.index(EventType.STATE_DELTA)

    expected = ["PLANNING", "DISCOVERY", "ENRICHMENT", "VALIDATION", "PUBLISHING", "COMPLETED"]
    assert phase_steps(events) == final["phaseHistory"] == expected
    check_steps(events)
    agents = list(dict.fromkeys(t["agent"] for t in final["todos"]))
    assert agents == ["discovery", "enrichment", "validation"]
    started = [e.step_name for e in events if isinstance(e, StepStartedEvent)]
    assert [s for s in started if s.startswith("agent:")] == [f"agent:{a}" for a in agents]

    calls = tool_calls(events)
    tasks = [args for start_event, args in calls if start_event.tool_call_name == "task"]
    assert [(t["subagent_type"], t["description"].split("\n", 1)[0][:200]) for t in tasks] == [
        (s["name"], s["task"]) for s in final["spawnedSubagents"]
    ]
    # Every tool call of the agents, each inside its agent's step, with its time.
    names = {start_event.tool_call_name for start_event, _ in calls}
    assert {"propose_knowledge_assets", "score_candidates", "write_todos"} <= names, names
    for start_event, _ in calls:
        agent = start_event.metadata["agent"]
        assert agent in agents and start_event.timestamp is not None
    last_todos: dict[str, Any] = {}
    for start_event, args in calls:
        if start_event.tool_call_name == "write_todos":
            last_todos[start_event.metadata["agent"]] = args["todos"]
    assert last_todos == {
        agent: [
            {"content": t["content"], "status": t["status"]}
            for t in final["todos"]
            if t["agent"] == agent
        ]
        for agent in agents
    }

    decisions = [e.value for e in reader.custom("decision")]
    assert [d["candidateId"] for d in decisions] == [d["candidateId"] for d in final["decisions"]]
    assert decisions and {d["reviewer"] for d in decisions} == {"auto"}
    assert {phase_of(events, e) for e in reader.custom("decision")} == {"VALIDATION"}
    published = [e.value for e in reader.custom("asset_published")]
    assert published == final["publishedAssets"]
    assert {phase_of(events, e) for e in reader.custom("asset_published")} == {"PUBLISHING"}
    assert not reader.custom("review_requested")

    rebuilt = rebuilt_state(events)
    assert same_json(rebuilt, logged(final))
    assert same_json(rebuilt, logged(api_workspace))
    # The research task (seed 004) travels in the stream: its statuses change by deltas.
    assert final["research"]["status"] == "COMPLETED" and final["research"]["subtasks"]
    paths = [
        op.model_dump(by_alias=True)["path"]
        for e in events
        if isinstance(e, StateDeltaEvent)
        for op in e.delta
    ]
    assert any(p.startswith("/research") for p in paths)


async def test_a_review_request_and_the_decisions_arrive_as_custom_events(
    stack: Stack, bearer: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(events_route, "HEARTBEAT_SECONDS", 0.5)
    async with httpx.AsyncClient(
        base_url=stack.api_url or "", headers=bearer(), timeout=TIMEOUT
    ) as http:
        run_id = await start(http, "required")
        reader = SseReader(http, events_path(run_id), {})
        await reader.until(lambda: reader.custom("review_requested"))
        [requested] = reader.custom("review_requested")
        pending = requested.value["pendingApprovals"]
        assert pending and requested.value["new"] == pending
        assert [c["id"] for c in requested.value["candidates"]] == pending

        # Nothing changes while the run waits: the stream sends SSE comments.
        beats = reader.heartbeats
        await reader.until(lambda: reader.heartbeats > beats, timeout=30)

        decided = await http.post(
            f"/api/runs/{run_id}/decisions",
            json=[{"candidateId": cid, "action": "reject", "reason": "test"} for cid in pending],
            headers=bearer(role="reviewer", sub="rita"),
        )
        assert decided.status_code == 200, decided.text
        await reader.closed()
    final = await final_workspace(stack, run_id)
    events = reader.events

    assert sorted(pending) == sorted(c["id"] for c in final["candidates"])
    decisions = reader.custom("decision")
    assert [d.value["candidateId"] for d in decisions] == pending
    for decision in decisions:
        assert decision.value["action"] == "reject" and decision.value["reviewer"] == "rita"
        assert decision.value["candidateStatus"] == "rejected"
    assert events.index(requested) < events.index(decisions[0])
    assert phase_of(events, requested) == "REVIEW"
    # AG-UI 1.0: the review ends the AG-UI run with an interrupt per pending candidate,
    # and the reviewer's batch resumes it (a new AG-UI run answering those interrupts).
    [interrupted, finished] = [e for e in events if isinstance(e, RunFinishedEvent)]
    assert events.index(requested) < events.index(interrupted) < events.index(decisions[0])
    assert interrupted.outcome is not None and interrupted.outcome.type == "interrupt"
    asked = [i.id for i in interrupted.outcome.interrupts]
    assert asked == [f"review:{cid}" for cid in pending]
    assert [i.metadata["candidate"]["id"] for i in interrupted.outcome.interrupts] == pending
    resumed = events[events.index(interrupted) + 1]
    assert isinstance(resumed, RunStartedEvent) and resumed.run_id == f"{run_id}~1"
    assert resumed.input is not None and resumed.input.resume is not None
    assert [r.interrupt_id for r in resumed.input.resume] == asked
    assert {r.payload["action"] for r in resumed.input.resume} == {"reject"}
    # The review step closed with the interrupted run: the decisions come outside it.
    assert {phase_of(events, e) for e in decisions} == {None}
    assert not reader.custom("asset_published")
    assert finished is events[-1] and finished.outcome.type == "success"
    assert phase_steps(events) == [
        "PLANNING",
        "DISCOVERY",
        "ENRICHMENT",
        "VALIDATION",
        "REVIEW",
        "PUBLISHING",
        "COMPLETED",
    ]
    check_steps(events)
    check_ids(reader.received)
    assert same_json(rebuilt_state(events), logged(final))


async def test_the_stream_is_guarded_like_the_run(stack: Stack, bearer: Any) -> None:
    alice = bearer(role="miner", sub="alice")
    async with httpx.AsyncClient(base_url=stack.api_url or "", timeout=TIMEOUT) as http:
        unknown = await http.get(events_path("mine-doesnotexist"), headers=bearer())
        assert unknown.status_code == 404
        assert unknown.headers["content-type"].endswith("json")  # JSON, not a stream
        assert unknown.json()["detail"] == "run mine-doesnotexist not found"

        run_id = await start(http, "required", headers=alice)
        anonymous = await http.get(events_path(run_id))
        assert anonymous.status_code == 401
        bob = await http.get(events_path(run_id), headers=bearer(role="miner", sub="bob"))
        assert bob.status_code == 404 and bob.json()["detail"] == f"run {run_id} not found"
        for allowed in (alice, bearer(role="reviewer", sub="rita")):
            async with http.stream("GET", events_path(run_id), headers=allowed) as answer:
                assert answer.status_code == 200
        await http.post(f"/api/runs/{run_id}/cancel", headers=alice)


async def test_a_canceled_run_ends_with_run_error(stack: Stack, bearer: Any) -> None:
    async with httpx.AsyncClient(
        base_url=stack.api_url or "", headers=bearer(), timeout=TIMEOUT
    ) as http:
        run_id = await start(http, "required")
        reader = SseReader(http, events_path(run_id), {})
        await reader.until(lambda: reader.custom("review_requested"))
        assert (await http.post(f"/api/runs/{run_id}/cancel")).status_code == 202
        await reader.closed()
    events = reader.events
    last = events[-1]
    assert isinstance(last, RunErrorEvent) and last.code == "CANCELED"
    # The only RUN_FINISHED is the review's interrupt; the run resumed to end in error.
    [interrupted] = [e for e in events if isinstance(e, RunFinishedEvent)]
    assert interrupted.outcome is not None and interrupted.outcome.type == "interrupt"
    assert isinstance(events[events.index(interrupted) + 1], RunStartedEvent)
    assert phase_steps(events)[-2:] == ["REVIEW", "CANCELED"]
    check_steps(events)
    assert same_json(rebuilt_state(events), logged(await final_workspace(stack, run_id)))


async def test_a_failed_run_ends_with_run_error_and_its_cause(
    stack: Stack, bearer: Any, settings: Settings
) -> None:
    run_id = f"bad-{uuid.uuid4().hex[:8]}"
    await stack.client.start_workflow(
        "MiningWorkflow",
        {"query": "lithium", "domainTags": ["no spaces allowed"]},
        id=run_id,
        task_queue=settings.task_queue,
    )
    async with httpx.AsyncClient(
        base_url=stack.api_url or "", headers=bearer(), timeout=TIMEOUT
    ) as http:
        reader = SseReader(http, events_path(run_id), {})
        await reader.closed()
    events = reader.events
    assert isinstance(events[0], RunStartedEvent) and isinstance(events[1], StateSnapshotEvent)
    last = events[-1]
    assert isinstance(last, RunErrorEvent) and last.code == "FAILED"
    assert "invalid domain tag 'no spaces allowed'" in last.message
    check_steps(events)


async def test_a_reconnect_with_last_event_id_goes_on_after_that_event(
    stack: Stack, bearer: Any
) -> None:
    async with httpx.AsyncClient(
        base_url=stack.api_url or "", headers=bearer(), timeout=TIMEOUT
    ) as http:
        run_id = await start(http, "required")
        first = SseReader(http, events_path(run_id), {})
        await first.until(lambda: first.custom("review_requested"))
        await first.close()
        last_id, _ = first.received[-1]
        assert last_id is not None
        seen = EventId.parse(last_id)
        assert seen is not None
        pending = first.custom("review_requested")[0].value["pendingApprovals"]

        second = SseReader(http, events_path(run_id), {"Last-Event-ID": last_id})
        await second.until(lambda: second.events)
        # The state as of the last event seen, without an id; nothing seen comes again.
        assert isinstance(second.events[0], StateSnapshotEvent)
        assert second.received[0][0] is None
        assert same_json(second.events[0].snapshot, rebuilt_state(first.events))
        decided = await http.post(
            f"/api/runs/{run_id}/decisions",
            json=[{"candidateId": cid, "action": "reject"} for cid in pending],
        )
        assert decided.status_code == 200, decided.text
        await second.closed()

        # From the start, once the run has ended: the same events with the same ids.
        whole = SseReader(http, events_path(run_id), {})
        await whole.closed()
        # An id that is not one of ours: the whole story again, without RUN_STARTED.
        third = SseReader(http, events_path(run_id), {"Last-Event-ID": "not-an-id"})
        await third.closed()
    final = logged(await final_workspace(stack, run_id))

    events = second.events
    assert not second.custom("review_requested"), "sent before the reconnect, not again"
    assert isinstance(events[-1], RunFinishedEvent)
    check_ids(second.received, after=seen)
    check_steps(events, resumed_open=tuple(first_open_steps(first.events)))
    assert phase_steps(events) == ["PUBLISHING", "COMPLETED"]
    assert [d.value["candidateId"] for d in second.custom("decision")] == pending
    assert same_json(rebuilt_state(events), final)
    # Before and after the reconnect together: exactly the stream read in one go.
    ids = [EventId.parse(eid or "") for eid, _ in whole.received]
    assert event_ids(first.received) + event_ids(second.received) == ids
    assert [e.type for e in first.events + events[1:]] == [e.type for e in whole.events]

    replay = third.events
    assert isinstance(replay[0], StateSnapshotEvent) and isinstance(replay[-1], RunFinishedEvent)
    assert not any(isinstance(e, RunStartedEvent) and e.input is None for e in replay)
    assert phase_steps(replay) == final["phaseHistory"]
    check_steps(replay)
    assert same_json(rebuilt_state(replay), final)
