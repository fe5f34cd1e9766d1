"""The run's clock (workflows/run_clock.py) reads the same time live and in replay: after a
local activity it holds the time the activity started at, whichever workflow time the SDK
hands the code that goes on from its result (the completion time recorded in its marker,
in replay; live, that time or the start of the next workflow task when the result came
late), until workflow time moves on or a non-local result arrives."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from workflows import run_clock
from workflows.run_clock import RunClock

T0 = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)


class WorkflowTime:
    """Workflow time as the SDK sets it per activation; a local activity moves it to
    `returns_at` when it returns."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = T0
        self.returns_at = T0
        self.calls: list[tuple[Any, ...]] = []

        async def execute(*args: Any, **kwargs: Any) -> str:
            self.calls.append(args)
            self.now = self.returns_at
            return f"result of {args[0]}"

        async def execute_remote(*args: Any, **kwargs: Any) -> str:
            self.now = self.returns_at
            return "remote result"

        monkeypatch.setattr(run_clock.workflow, "execute_local_activity", execute)
        monkeypatch.setattr(run_clock.workflow, "execute_activity", execute_remote)

    def read(self) -> datetime:
        return self.now


@pytest.mark.parametrize(
    "returns_after",
    [timedelta(milliseconds=331), timedelta(seconds=1, milliseconds=392)],
    ids=["marker completion time (replay)", "next workflow task (live, result late)"],
)
async def test_after_a_local_activity_the_clock_holds_the_time_it_started_at(
    monkeypatch: pytest.MonkeyPatch, returns_after: timedelta
) -> None:
    time = WorkflowTime(monkeypatch)
    clock = RunClock(time.read)
    time.returns_at = T0 + returns_after
    assert await clock.local_activity("research_cache_store", 1) == "result of research_cache_store"
    assert time.now == T0 + returns_after
    assert clock.now() == T0
    # A second one right after holds the same start.
    time.returns_at = T0 + returns_after + timedelta(milliseconds=50)
    await clock.local_activity("append_memory_notes", 2)
    assert clock.now() == T0


async def test_a_later_workflow_task_moves_the_clock_on(monkeypatch: pytest.MonkeyPatch) -> None:
    time = WorkflowTime(monkeypatch)
    clock = RunClock(time.read)
    time.returns_at = T0 + timedelta(seconds=1)
    await clock.local_activity("load_memory_notes")
    time.now = T0 + timedelta(seconds=9)  # an activity's result, a timer, an update
    assert clock.now() == T0 + timedelta(seconds=9)


async def test_a_non_local_result_in_the_same_task_moves_the_clock_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    time = WorkflowTime(monkeypatch)
    clock = RunClock(time.read)
    time.returns_at = T0 + timedelta(seconds=2)
    await clock.local_activity("dkg_get_asset")
    assert clock.now() == T0
    # Live, a late local result and an activity's may come in one workflow task.
    assert await clock.activity("web_search") == "remote result"
    assert clock.now() == T0 + timedelta(seconds=2)


def test_without_local_activities_it_reads_workflow_time(monkeypatch: pytest.MonkeyPatch) -> None:
    time = WorkflowTime(monkeypatch)
    clock = RunClock(time.read)
    for step in range(3):
        time.now = T0 + timedelta(seconds=step)
        assert clock.now() == time.now


def test_outside_a_run_there_is_no_run_clock() -> None:
    with pytest.raises(RuntimeError, match="outside a run"):
        run_clock.run_clock()


class ModelCall:
    """The plugin's queued model call: an activity whose result arrives in the same
    workflow task as a late local activity's (workflow time stays where that one left it)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from langchain_core.messages import AIMessage, AIMessageChunk
        from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
        from temporalio.deepagents import TemporalModel

        self.calls = 0

        async def generate(model: Any, *args: Any, **kwargs: Any) -> ChatResult:
            self.calls += 1
            return ChatResult(generations=[ChatGeneration(message=AIMessage("plan"))])

        async def stream(model: Any, *args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            yield ChatGenerationChunk(message=AIMessageChunk("plan"))

        monkeypatch.setattr(TemporalModel, "_agenerate", generate)
        monkeypatch.setattr(TemporalModel, "_astream", stream)


async def held_clock(monkeypatch: pytest.MonkeyPatch) -> tuple[WorkflowTime, RunClock]:
    time = WorkflowTime(monkeypatch)
    clock = RunClock(time.read)
    run_clock.RUN_CLOCK.set(clock)
    time.returns_at = T0 + timedelta(seconds=3)
    await clock.local_activity("load_memory_notes")
    assert clock.now() == T0
    return time, clock


async def test_a_model_call_the_plugin_queues_moves_the_clock_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from workflows.local_model import ClockedModel, model_for

    call = ModelCall(monkeypatch)
    _, clock = await held_clock(monkeypatch)
    model = model_for("gpt-4o-mini", {})
    assert isinstance(model, ClockedModel)
    result = await model._agenerate([])
    assert result.generations[0].message.content == "plan"
    assert clock.now() == T0 + timedelta(seconds=3)
    assert call.calls == 1


async def test_a_streamed_model_call_moves_the_clock_on_before_its_chunk_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from workflows.local_model import ClockedModel

    ModelCall(monkeypatch)
    _, clock = await held_clock(monkeypatch)
    read: list[datetime] = []
    async for chunk in ClockedModel(model="gpt-4o-mini")._astream([]):
        read.append(clock.now())  # what the code that takes the chunk stamps with
        assert chunk.message.content == "plan"
    assert read == [T0 + timedelta(seconds=3)]
