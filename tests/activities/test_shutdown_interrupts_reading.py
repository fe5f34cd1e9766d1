"""A worker that starts shutting down stops its research reading within a step: the
activity fails as interrupted (Temporal runs it again elsewhere), its reading threads
end, and the sub-questions it had finished stay checkpointed while the interrupted one
is not recorded as failed (issue 24: `kminer up` held its exit for a thread that read on
after its server was gone)."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
from temporalio.testing import ActivityEnvironment

from activities.common import Auditor
from activities.research_gather import ResearchGatherActivities
from contracts.research import GatherArgs, ResearchQuestion, ResearchTaskStatus
from mining.interruption import Interrupted, check

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


def questions(*texts: str) -> list[ResearchQuestion]:
    return [
        ResearchQuestion(id=i, question=t, node_type="document_search", execution_priority=2)
        for i, t in enumerate(texts, start=1)
    ]


async def test_worker_shutdown_interrupts_a_long_read_and_keeps_what_finished() -> None:
    corpus = SlowCorpus()
    gather = ResearchGatherActivities(corpus, corpus, None, None, Auditor(None))  # type: ignore[arg-type]
    env = ActivityEnvironment()
    beats: list[Any] = []
    env.on_heartbeat = lambda *details: beats.append(details)
    args = GatherArgs(runId="r", query="q", questions=questions("quick", "long"), maxConcurrent=2)
    running = asyncio.ensure_future(env.run(gather.research_gather, args))
    await asyncio.to_thread(corpus.reading.wait, 10)
    assert not running.done(), "still reading"
    asked = time.monotonic()
    env.worker_shutdown()
    with pytest.raises(Interrupted):
        await asyncio.wait_for(running, 5)
    assert time.monotonic() - asked < 2.0
    assert corpus.ended.wait(1), "the reading thread ended with its activity"
    assert {row["id"] for row in beats[-1][0]} == {1}, "only the finished one is kept"


async def test_without_a_shutdown_the_same_read_runs_to_its_end() -> None:
    class Brief(SlowCorpus):
        def search(self, query: str, max_results: int) -> list[dict[str, Any]]:
            for _ in range(20):
                check()
                time.sleep(STEP_S)
            return []

    corpus = Brief()
    gather = ResearchGatherActivities(corpus, corpus, None, None, Auditor(None))  # type: ignore[arg-type]
    args = GatherArgs(runId="r", query="q", questions=questions("long"))
    (outcome,) = (await ActivityEnvironment().run(gather.research_gather, args)).outcomes
    assert outcome.status == ResearchTaskStatus.COMPLETED
