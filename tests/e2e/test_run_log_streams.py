"""Twenty runs at once, each followed over its AG-UI stream with a reconnect in the
middle (issue 26): every stream replays the run's log exactly. Steps nest, every phase of
the run's own phase history comes in order, no event comes twice nor is missed across
the reconnect, the state the stream builds is the final workspace, and so is the
workspace rebuilt from the `run_log` query."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import httpx
from ag_ui.core import BaseEvent, StepStartedEvent

from contracts.run_log import RunLogPage
from kminer.stack import Stack
from tests.support.ag_ui_stream import (
    SseReader,
    check_ids,
    check_steps,
    event_ids,
    first_open_steps,
    logged,
    phase_steps,
    rebuilt_state,
    same_json,
)
from tests.support.runs import QUESTION
from workflows.mining import MiningWorkflow
from workflows.run_log import rebuilt

RUNS = 20
TIMEOUT = httpx.Timeout(30.0, read=300.0)
RUN_SECONDS = 600  # twenty runs on a 2-core machine
QUERY_TIMEOUT = timedelta(seconds=60)


async def log_workspace(stack: Stack, run_id: str) -> dict[str, Any]:
    """The workspace rebuilt from the run's log, read page by page from the start."""
    handle = stack.client.get_workflow_handle(run_id)
    page: RunLogPage = await handle.query(
        MiningWorkflow.run_log, args=[-1, 50], rpc_timeout=QUERY_TIMEOUT
    )
    state = rebuilt(page)
    while page.more:
        page = await handle.query(
            MiningWorkflow.run_log, args=[page.entries[-1].seq, 50], rpc_timeout=QUERY_TIMEOUT
        )
        state = rebuilt(page, state)
    return state


def phase_started(phase: str):  # noqa: ANN201  (a predicate over a reader)
    def seen(reader: SseReader) -> bool:
        return any(isinstance(e, StepStartedEvent) and e.step_name == phase for e in reader.events)

    return seen


async def follow(
    stack: Stack, http: httpx.AsyncClient, review: str, tags: list[str]
) -> dict[str, Any]:
    """Start a run, read its stream until enrichment starts, drop it, reconnect with the
    last id; decide what waits for review. What each stream part received, and after."""
    started = await http.post(
        "/api/runs", json={"query": QUESTION, "domainTags": tags, "review": review}
    )
    assert started.status_code == 202, started.text
    run_id = started.json()["runId"]
    path = f"/api/runs/{run_id}/events"
    first = SseReader(http, path, {})
    await first.until(lambda: phase_started("ENRICHMENT")(first), timeout=RUN_SECONDS)
    await first.close()
    last_id = next(eid for eid, _ in reversed(first.received) if eid)
    second = SseReader(http, path, {"Last-Event-ID": last_id})
    if review == "required":
        await second.until(
            lambda: any(
                e.type == "RUN_FINISHED" and e.outcome and e.outcome.type == "interrupt"
                for e in first.events + second.events
            ),
            timeout=RUN_SECONDS,
        )
        pending = (await http.get(f"/api/runs/{run_id}")).json()["pendingApprovals"]
        decided = await http.post(
            f"/api/runs/{run_id}/decisions",
            json=[{"candidateId": c, "action": "approve"} for c in pending],
        )
        assert decided.status_code == 200, decided.text
    await second.closed(timeout=RUN_SECONDS)
    whole = SseReader(http, path, {})
    await whole.closed(timeout=RUN_SECONDS)
    return {"run_id": run_id, "first": first, "second": second, "whole": whole}


async def ended(stack: Stack, run: dict[str, Any]) -> None:
    """The run's final workspace, and the one rebuilt from its log. A query of an ended run
    replays its whole history: read one run after the other, not twenty replays at once."""
    handle = stack.client.get_workflow_handle(run["run_id"])
    final = await handle.query(MiningWorkflow.workspace, rpc_timeout=QUERY_TIMEOUT)
    run["final"] = logged(final.model_dump(mode="json"))
    run["from_log"] = await log_workspace(stack, run["run_id"])


def check(run: dict[str, Any]) -> None:
    first, second, whole = run["first"], run["second"], run["whole"]
    final = run["final"]
    # The reconnect's snapshot (no id) stands for what the first part received.
    assert second.received[0][0] is None
    assert same_json(second.events[0].snapshot, rebuilt_state(first.events))
    joined: list[BaseEvent] = first.events + second.events[1:]
    ids = event_ids(first.received) + event_ids(second.received)
    # No event twice, none missed: the two parts are the stream read in one go.
    assert len(ids) == len(set(ids)), "an event came twice"
    assert ids == event_ids(whole.received)
    assert [e.model_dump() for e in joined] == [e.model_dump() for e in whole.events]
    check_ids(second.received, after=ids[len(event_ids(first.received)) - 1])
    check_steps(joined)
    check_steps(second.events[1:], resumed_open=tuple(first_open_steps(first.events)))
    assert phase_steps(joined) == final["phaseHistory"], run["run_id"]
    assert final["phase"] == "COMPLETED"
    assert same_json(rebuilt_state(joined), final)
    assert same_json(run["from_log"], final)
    # Each event carries its entry's workflow time (the reconnect's snapshot, left out of
    # `joined`, has none): they never go back.
    stamps = [e.timestamp for e in joined if e.timestamp is not None]
    assert stamps == sorted(stamps) and len(stamps) == len(joined)
    assert second.events[0].timestamp is None


async def test_twenty_concurrent_runs_stream_their_logs_exactly(stack: Stack, bearer: Any) -> None:
    tags = [["supply_chain"], ["supply_chain", "general_risk"], ["energy"], []]
    async with httpx.AsyncClient(
        base_url=stack.api_url or "", headers=bearer(), timeout=TIMEOUT
    ) as http:
        runs = await asyncio.gather(
            *(
                follow(stack, http, "required" if i % 4 == 0 else "auto", tags[i % len(tags)])
                for i in range(RUNS)
            )
        )
    for run in runs:
        await ended(stack, run)
        check(run)
    reviewed = [r for r in runs if "REVIEW" in r["final"]["phaseHistory"]]
    assert len(reviewed) == RUNS // 4
