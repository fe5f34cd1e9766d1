"""Concurrent readers of one run share one workspace query; nobody's leaving cancels it; an
ended run whose query fails is still read, from its result."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from temporalio.client import WorkflowQueryFailedError
from temporalio.worker import UnsandboxedWorkflowRunner, Worker

from api.app import create_app
from api.auth import load_secret
from api.workspace_reads import WorkspaceReader
from contracts.run import MiningRequest, Phase, Workspace
from kminer.config import Settings
from kminer.stack import embedded_stack
from kminer.worker import connect
from temporal_client.runs import start_run
from tests.support.runs import QUESTION
from tests.workflows.test_replay_previous_release import MiningWithAnExtraTimer
from workflows.mining import MiningWorkflow


class SlowRun:
    """A run whose workspace query takes a while (only `id` and `query` are used)."""

    def __init__(self, run_id: str, fail: bool = False) -> None:
        self.id = run_id
        self.fail = fail
        self.queries = 0
        self.release = asyncio.Event()

    async def query(self, _query: object, rpc_timeout: object = None) -> Workspace:
        self.queries += 1
        await self.release.wait()
        if self.fail:
            raise RuntimeError("query failed")
        return Workspace(runId=self.id, query=f"answer {self.queries}")


async def test_concurrent_reads_of_one_run_share_one_query() -> None:
    reader, run, other = WorkspaceReader(), SlowRun("a"), SlowRun("b")
    reads = [asyncio.ensure_future(reader.read(run)) for _ in range(50)]  # type: ignore[arg-type]
    elsewhere = asyncio.ensure_future(reader.read(other))  # type: ignore[arg-type]
    await asyncio.sleep(0)
    run.release.set()
    other.release.set()
    answers = await asyncio.gather(*reads)
    assert run.queries == 1 and {a.query for a in answers} == {"answer 1"}
    assert (await elsewhere).runId == "b" and other.queries == 1, "runs do not share"

    again = await reader.read(run)  # type: ignore[arg-type]
    assert run.queries == 2 and again.query == "answer 2", "a settled query is not reused"


async def test_a_reader_that_leaves_does_not_cancel_the_others() -> None:
    reader, run = WorkspaceReader(), SlowRun("a")
    leaving = asyncio.ensure_future(reader.read(run))  # type: ignore[arg-type]
    staying = asyncio.ensure_future(reader.read(run))  # type: ignore[arg-type]
    await asyncio.sleep(0)
    leaving.cancel()
    await asyncio.sleep(0)
    run.release.set()
    assert (await staying).query == "answer 1"
    assert leaving.cancelled()


async def test_a_failed_query_reaches_every_reader_and_is_not_kept() -> None:
    reader, run = WorkspaceReader(), SlowRun("a", fail=True)
    reads = [asyncio.ensure_future(reader.read(run)) for _ in range(3)]  # type: ignore[arg-type]
    await asyncio.sleep(0)
    run.release.set()
    for read in reads:
        with pytest.raises(RuntimeError, match="query failed"):
            await read
    run.fail = False
    assert (await reader.read(run)).query == "answer 2"  # type: ignore[arg-type]


async def test_an_ended_run_whose_query_fails_is_read_from_its_result(
    settings: Settings, bearer: Any
) -> None:
    async with embedded_stack(settings, with_api=False) as stack:
        request = MiningRequest(query=QUESTION, domainTags=["supply_chain"], review="auto")
        handle = await start_run(stack.client, settings.task_queue, request)
        result = await handle.result()
    # The code changed since: replaying the run fails, and with it the run's own query.
    client = await connect(settings, settings.temporal_address or "")
    app = create_app(client, settings.task_queue, None, jwt_secret=load_secret(settings.data_dir))
    changed = Worker(
        client,
        task_queue=settings.task_queue,
        workflows=[MiningWithAnExtraTimer],
        workflow_runner=UnsandboxedWorkflowRunner(),
    )
    async with (
        changed,
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://api", timeout=60
        ) as http,
    ):
        with pytest.raises(WorkflowQueryFailedError, match="[Nn]ondetermin"):
            await handle.query(MiningWorkflow.workspace)
        read = await http.get(f"/api/runs/{handle.id}", headers=bearer())
        events = await http.get(f"/api/runs/{handle.id}/events", headers=bearer())
    assert read.status_code == 200, read.text
    ws = Workspace.model_validate(read.json())
    assert (ws.runId, ws.phase, ws.query) == (handle.id, Phase.COMPLETED, QUESTION)
    assert [c.id for c in ws.candidates] == [a["candidateId"] for a in result.candidateAssets]
    assert {c.status for c in ws.candidates} >= {"published"}
    assert ws.publishedAssets == result.publishedAssets and ws.answer == result.answer
    assert "rebuilt from the run's result" in ws.errors[-1]
    finished = [line for line in events.text.splitlines() if '"RUN_' in line]
    assert len(finished) >= 2 and '"RUN_FINISHED"' in finished[-1], finished[-1:]
