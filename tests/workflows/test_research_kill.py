"""A worker killed during GATHERING: the next one finishes without redoing what finished.

The first worker is a subprocess whose searches are slow; it is SIGKILLed while the
priority-2 group runs (one sub-question at a time), after two of its sub-questions have
finished and been checkpointed in heartbeats. The retry on a second worker searches only
the sub-questions that had not finished.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

from contracts.research import ResearchConfig, ResearchTaskStatus
from contracts.run import MiningRequest, Phase
from kminer.config import Settings
from kminer.worker import connect
from temporal_client.runs import start_run
from tests.support.research import TAGS, gather_groups, research_worker, workspace
from tests.support.runs import QUESTION

SLOW_SECONDS = 8.0


def lines(log: Path, kind: str) -> list[str]:
    if not log.exists():
        return []
    return [
        line.split("\t", 1)[1]
        for line in log.read_text().splitlines()
        if line.startswith(kind + "\t")
    ]


async def test_a_worker_killed_while_gathering_resumes_without_repeating_finished_work(
    settings: Settings, tmp_path: Path
) -> None:
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    log = tmp_path / "searches.log"
    env = {
        **os.environ,
        "KM_DATA_DIR": str(settings.data_dir),
        "KM_TASK_QUEUE": settings.task_queue,
        "TEMPORAL_ADDRESS": settings.temporal_address or "",
    }
    first = subprocess.Popen(
        [sys.executable, "-m", "tests.support.slow_search_worker", str(log), str(SLOW_SECONDS),
         QUESTION],
        env=env, stdout=(tmp_path / "worker.log").open("ab"), stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    client = await connect(settings, settings.temporal_address or "")
    config = ResearchConfig(max_concurrent_subtasks=1, enable_caching=False)
    request = MiningRequest(query=QUESTION, domainTags=TAGS, review="auto", research=config)
    try:
        handle = await start_run(client, settings.task_queue, request)
        # Two priority-2 sub-questions finished (the question itself is searched fast).
        for _ in range(600):
            if len([q for q in lines(log, "done") if q != QUESTION]) >= 2:
                break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError("the slow worker never finished two sub-questions")
        await asyncio.sleep(5.5)  # their heartbeat (checkpoint) reaches the server
        ws = await workspace(handle)
        assert ws.research is not None and ws.research.status == ResearchTaskStatus.GATHERING
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait(timeout=10)
    finished_before = [q for q in lines(log, "done") if q != QUESTION]

    async with research_worker(settings) as (client2, _, searched):
        result = await asyncio.wait_for(handle.result(), 180)
        groups = await gather_groups(client2, handle)
        final = await workspace(handle)

    assert result.phase == Phase.COMPLETED
    assert final.research is not None and final.research.status == ResearchTaskStatus.COMPLETED
    assert searched, "the second worker gathered what was left"
    assert not set(searched) & set(finished_before), "finished sub-questions were not redone"
    p2 = [s for s in final.research.subtasks if s.question.execution_priority == 2]
    assert {s.question.question for s in p2} == set(finished_before) | set(searched)
    assert all(s.status == ResearchTaskStatus.COMPLETED for s in p2)
    assert len(groups) == 2, "one gather activity per priority, the second retried in place"
