"""Concurrent readers of one run share one workspace query; nobody's leaving cancels it; an
ended run whose query fails is still read, from its result: its workspace, and its log as
one step from the empty workspace to that one."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Any

import httpx
import pytest
from temporalio.client import Client, WorkflowHandle, WorkflowQueryFailedError
from temporalio.service import RPCError, RPCStatusCode
from temporalio.worker import UnsandboxedWorkflowRunner, Worker

from api.app import create_app
from api.auth import load_secret
from api.workspace_reads import WorkspaceReader
from contracts.run import KnowledgeMinerResponse, MiningRequest, Phase, Workspace
from kminer.config import Settings
from kminer.stack import embedded_stack
from kminer.worker import connect
from temporal_client.runs import start_run
from temporal_client.workspaces import read_log, read_workspace
from tests.support.runs import QUESTION
from tests.workflows.test_replay_previous_release import MiningWithAnExtraTimer
from workflows.mining import MiningWorkflow
from workflows.run_log import rebuilt, workspace_view

RPC_TIMEOUT = timedelta(seconds=30)


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


@asynccontextmanager
async def an_ended_run_that_no_worker_can_replay(
    settings: Settings,
) -> AsyncIterator[tuple[Client, WorkflowHandle, KnowledgeMinerResponse]]:
    """A completed run, then only a worker whose code changed since: replaying the run
    fails, and with it the run's own queries. Its client, handle and result."""
    async with embedded_stack(settings, with_api=False) as stack:
        request = MiningRequest(query=QUESTION, domainTags=["supply_chain"], review="auto")
        handle = await start_run(stack.client, settings.task_queue, request)
        result = await handle.result()
    client = await connect(settings, settings.temporal_address or "")
    changed = Worker(
        client,
        task_queue=settings.task_queue,
        workflows=[MiningWithAnExtraTimer],
        workflow_runner=UnsandboxedWorkflowRunner(),
    )
    async with changed:
        with pytest.raises(WorkflowQueryFailedError, match="[Nn]ondetermin"):
            await handle.query(MiningWorkflow.workspace)
        yield client, client.get_workflow_handle(handle.id), result


async def test_an_ended_run_whose_query_fails_is_read_from_its_result(
    settings: Settings, bearer: Any
) -> None:
    async with an_ended_run_that_no_worker_can_replay(settings) as (client, handle, result):
        app = create_app(
            client, settings.task_queue, None, jwt_secret=load_secret(settings.data_dir)
        )
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://api", timeout=60
        ) as http:
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


async def test_the_log_of_an_ended_run_whose_query_fails_is_one_step_to_its_result(
    settings: Settings,
) -> None:
    async with an_ended_run_that_no_worker_can_replay(settings) as (client, handle, _):
        converter = client.data_converter
        whole = await read_log(handle, -1, RPC_TIMEOUT, converter)
        paged = await read_log(handle, -1, RPC_TIMEOUT, converter, limit=3)
        rest = await read_log(handle, 3, RPC_TIMEOUT, converter)
        after_all = await read_log(handle, whole.last, RPC_TIMEOUT, converter)
        closed = (await handle.describe()).close_time
        ws = await read_workspace(handle, RPC_TIMEOUT, converter)
        with pytest.raises(RPCError) as unknown:
            await read_log(client.get_workflow_handle("mine-none"), -1, RPC_TIMEOUT, converter)
    assert unknown.value.status == RPCStatusCode.NOT_FOUND
    # From the empty workspace to the one rebuilt from the result, in one step stamped
    # with the time the run closed.
    assert whole.floor == 0 and whole.base == workspace_view(Workspace()) and not whole.more
    assert [e.seq for e in whole.entries] == list(range(1, whole.last + 1))
    assert [e.end for e in whole.entries] == [False] * (whole.last - 1) + [True]
    assert closed is not None
    assert {e.at for e in whole.entries} == {closed.isoformat(timespec="milliseconds")}
    assert rebuilt(whole) == workspace_view(ws)
    assert "rebuilt from the run's result" in rebuilt(whole)["errors"][-1]
    # A page never splits a step; read on from any entry, it goes on where it was.
    assert paged.entries == whole.entries and not paged.more
    assert rest.entries == whole.entries[3:] and rest.base is None
    assert after_all.entries == [] and after_all.last == whole.last
