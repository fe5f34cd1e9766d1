"""Concurrent readers of one run share one workspace query; nobody's leaving cancels it."""

from __future__ import annotations

import asyncio

import pytest

from api.workspace_reads import WorkspaceReader
from contracts.run import Workspace


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
