"""A research step that is cancelled (Temporal cancels it when the worker's shutdown grace
is over) stops its reading within a step: its reading threads end with it, and the
sub-questions it had finished stay checkpointed while the interrupted one is not recorded
as failed (issue 24: `kminer up` held its exit for a thread that read on after its
server was gone). A worker that only starts shutting down lets the reading finish."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
from temporalio.testing import ActivityEnvironment

from activities.common import Auditor
from activities.research_gather import ResearchGatherActivities
from contracts.research import GatherArgs, ResearchTaskStatus
from mining.interruption import check
from tests.activities.test_research_plan import questions

STEP_S = 0.01


class SlowCorpus:
    """Answers "quick" at once; reads "long" step after step until asked to stop."""

    name = "local-corpus"

    def __init__(self) -> None:
        self.reading = threading.Event()
        self.ended = threading.Event()

    def search(self, query: str, max_results: int) -> list[dict[str, Any]]:
        if query == "quick":
            return []
        self.reading.set()
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                check()
                time.sleep(STEP_S)
            return []
        finally:
            self.ended.set()


async def test_a_cancelled_step_ends_its_long_read_and_keeps_what_finished() -> None:
    corpus = SlowCorpus()
    gather = ResearchGatherActivities(corpus, corpus, None, None, Auditor(None))  # type: ignore[arg-type]
    env = ActivityEnvironment()
    beats: list[Any] = []
    env.on_heartbeat = lambda *details: beats.append(details)
    args = GatherArgs(runId="r", query="q", questions=questions("quick", "long"), maxConcurrent=2)
    running = asyncio.ensure_future(env.run(gather.research_gather, args))
    await asyncio.to_thread(corpus.reading.wait, 10)
    assert not running.done(), "still reading"
    env.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(running, 5)
    # Ended at its next step, where without the stop it would read on for a minute.
    assert corpus.ended.wait(10), "the reading thread ended with its activity"
    assert {row["id"] for row in beats[-1][0]} == {1}, "only the finished one is kept"


async def test_a_worker_shutting_down_lets_the_read_finish() -> None:
    class Brief(SlowCorpus):
        def search(self, query: str, max_results: int) -> list[dict[str, Any]]:
            self.reading.set()
            for _ in range(30):
                check()
                time.sleep(STEP_S)
            return []

    corpus = Brief()
    gather = ResearchGatherActivities(corpus, corpus, None, None, Auditor(None))  # type: ignore[arg-type]
    env = ActivityEnvironment()
    args = GatherArgs(runId="r", query="q", questions=questions("long"))
    running = asyncio.ensure_future(env.run(gather.research_gather, args))
    await asyncio.to_thread(corpus.reading.wait, 10)
    env.worker_shutdown()  # its grace: the step finishes, nothing is retried
    (outcome,) = (await asyncio.wait_for(running, 10)).outcomes
    assert outcome.status == ResearchTaskStatus.COMPLETED
