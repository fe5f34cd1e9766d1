"""`kminer worker` on SIGTERM: stops polling, lets its running activity finish (no retry),
exits 0; another worker carries the run on. Web search goes to a replayed Tavily that takes
3 s to answer, so the first worker is caught in the middle of one."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from temporalio.api.enums.v1 import EventType, PendingActivityState

from contracts.run import MiningRequest
from kminer.config import load_settings
from kminer.devserver import DevServer
from kminer.worker import connect
from temporal_client.runs import start_run
from tests.support.replay import replay_server
from tests.support.tavily import RECORDED

SEARCH_SECONDS = 3.0


@pytest.fixture
def slow_tavily() -> Iterator[str]:
    def answer(method: str, path: str, body: Any, headers: dict[str, str]) -> Any:
        time.sleep(SEARCH_SECONDS)
        return 200, RECORDED

    with replay_server(answer) as url:
        yield url


def _worker(env: dict[str, str], data: Path, log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "kminer.cli", "worker", "--data-dir", str(data)],
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
    )


async def _wait_for_line(log: Path, line: str, proc: subprocess.Popen) -> None:
    for _ in range(600):
        if line in log.read_text(errors="replace"):
            return
        assert proc.poll() is None, log.read_text(errors="replace")
        await asyncio.sleep(0.1)
    raise AssertionError(f"never said {line!r}: {log.read_text(errors='replace')}")


async def test_sigterm_lets_the_running_activity_finish(
    temporal_server: DevServer, slow_tavily: str, tmp_path: Path
) -> None:
    queue = f"shutdown-{uuid.uuid4().hex[:8]}"
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "TAVILY_"))},
        "TAVILY_API_KEY": "tvly-test",
        "TAVILY_BASE_URL": slow_tavily,
        "TEMPORAL_ADDRESS": temporal_server.address,
        "KM_TASK_QUEUE": queue,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'kminer.db'}",
        "KM_SHUTDOWN_GRACE_SECONDS": "30",
    }
    for key in ("DKG_NODE_URL", "KM_TOOL_TASK_QUEUE"):
        env.pop(key, None)
    first_log, second_log = tmp_path / "first.log", tmp_path / "second.log"
    first = _worker(env, tmp_path / "a", first_log)
    second = None
    try:
        await _wait_for_line(first_log, "polling", first)
        client = await connect(load_settings(tmp_path / "a"), temporal_server.address)
        request = MiningRequest(
            query="Which suppliers of lithium carry geopolitical risk?",
            domainTags=["supply_chain"],
            review="auto",
        )
        handle = await start_run(client, queue, request)
        # Catch the first worker in the middle of a web search, then stop it.
        caught = None
        for _ in range(3000):
            described = await handle.describe()
            for pending in described.raw_description.pending_activities:
                started = pending.state == PendingActivityState.PENDING_ACTIVITY_STATE_STARTED
                # The search runs in web_search, or inside research_gather with a plan.
                searching = pending.activity_type.name in ("web_search", "research_gather")
                if (
                    started
                    and searching
                    and pending.last_worker_identity.startswith(f"{first.pid}@")
                ):
                    caught = pending.activity_id
                    break
            if caught:
                break
            await asyncio.sleep(0.02)
        assert caught, "the first worker never ran an activity"
        stopping = time.monotonic()
        os.kill(first.pid, signal.SIGTERM)
        assert await asyncio.to_thread(first.wait, 60) == 0, first_log.read_text()
        # It waited for the search rather than dropping it.
        assert time.monotonic() - stopping > 0.5
        said = first_log.read_text()
        assert said.index("worker stopping") < said.index("worker stopped")
        # The run goes on on a second worker (its own DKG copy: the first one's is free too).
        second = _worker(env, tmp_path / "b", second_log)
        result = await asyncio.wait_for(handle.result(), timeout=240)
        assert result.summary
        history = await handle.fetch_history()
    finally:
        for proc in (first, second):
            if proc is not None and proc.poll() is None:
                os.kill(proc.pid, signal.SIGTERM)
                proc.wait(timeout=60)
    scheduled: dict[int, str] = {}
    outcome: dict[str, tuple[int, str]] = {}
    for event in history.events:
        if event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
            scheduled[event.event_id] = event.activity_task_scheduled_event_attributes.activity_id
        elif event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED:
            attrs = event.activity_task_started_event_attributes
            outcome[scheduled[attrs.scheduled_event_id]] = (attrs.attempt, attrs.identity)
    # The activity the first worker was running finished there, on its first attempt.
    attempt, identity = outcome[caught]
    assert attempt == 1 and identity.startswith(f"{first.pid}@"), (attempt, identity)
    assert all(a == 1 for a, _ in outcome.values()), outcome
