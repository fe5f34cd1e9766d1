"""A signal or an update that reaches the run while a local activity is in flight acts
after the code that goes on from that activity's result, and stamps what it records with
the time it arrived at, live and in replay alike (workflows/run_clock.py).

Live, the SDK may hand the run an update in the same workflow task as a late local result,
and it runs the update's handler first; a replay resolves the local activity from its
marker one task earlier, so the code after it runs first. These tests play both orders
on the run's clock and read what each party records."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from workflows import run_clock
from workflows.run_clock import RunClock

T0 = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)
MARKER = T0 + timedelta(milliseconds=420)  # the completion time the marker records
NEXT_TASK = T0 + timedelta(seconds=2)  # the workflow task that brings the update


class Activation:
    """Workflow time and one local activity whose result the test hands over."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = T0
        self.result: asyncio.Future[str] = asyncio.get_running_loop().create_future()

        async def execute_local(*args: Any, **kwargs: Any) -> str:
            return await self.result

        async def wait_condition(fn: Callable[[], bool], **kwargs: Any) -> None:
            while not fn():
                await asyncio.sleep(0)

        monkeypatch.setattr(run_clock.workflow, "execute_local_activity", execute_local)
        monkeypatch.setattr(run_clock.workflow, "wait_condition", wait_condition)

    def read(self) -> datetime:
        return self.now


async def settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


async def recorded(monkeypatch: pytest.MonkeyPatch, *, live: bool) -> list[tuple[str, datetime]]:
    time = Activation(monkeypatch)
    clock = RunClock(time.read)
    records: list[tuple[str, datetime]] = []
    far_ahead = asyncio.Event()  # an activity's result the run waits for next

    async def run() -> None:
        await clock.local_activity("score_candidates")
        records.append(("run", clock.now()))
        await far_ahead.wait()

    async def handler() -> None:
        await clock.handler_arrived()
        records.append(("handler", clock.now()))

    running = asyncio.create_task(run())
    await settle()
    if live:
        # One task brings the update and the late result; the SDK runs the handler first.
        time.now = NEXT_TASK
        handling = asyncio.create_task(handler())
        await asyncio.sleep(0)
        time.result.set_result("scores")
    else:
        # Replay: the result comes from its marker a task earlier, the update after it.
        time.now = MARKER
        time.result.set_result("scores")
        await settle()
        time.now = NEXT_TASK
        handling = asyncio.create_task(handler())
    await handling
    running.cancel()
    return records


async def test_live_and_replay_record_the_same_order_and_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    live = await recorded(monkeypatch, live=True)
    replayed = await recorded(monkeypatch, live=False)
    assert live == replayed == [("run", T0), ("handler", NEXT_TASK)]


async def test_a_handler_with_no_local_activity_in_flight_acts_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    time = Activation(monkeypatch)
    clock = RunClock(time.read)
    time.now = NEXT_TASK
    assert clock.quiet
    await asyncio.wait_for(clock.handler_arrived(), timeout=1)
    assert clock.now() == NEXT_TASK
