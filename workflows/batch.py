"""BatchWorkflow: many questions as child MiningWorkflows, at most `maxConcurrent` at once.

A child that fails is a row with its error, not a failed batch. The `progress` query
answers how many are done while it runs; the result is one row per question, in order.
"""

from __future__ import annotations

import asyncio

from pydantic import BaseModel, Field
from temporalio import workflow
from temporalio.exceptions import ChildWorkflowError

import workflows.passthrough  # noqa: F401  (first: contracts shared, see its docstring)
from contracts.run import PRINCIPAL_MEMO, KnowledgeMinerResponse, MiningRequest
from workflows.mining import MiningWorkflow

MAX_QUESTIONS = 500


class BatchInput(BaseModel):
    requests: list[MiningRequest] = Field(min_length=1, max_length=MAX_QUESTIONS)
    maxConcurrent: int = Field(default=4, ge=1, le=50)


class BatchItem(BaseModel):
    index: int
    query: str
    runId: str
    status: str = "pending"  # pending | running | completed | failed
    candidates: int = 0
    published: int = 0
    error: str | None = None


class BatchProgress(BaseModel):
    total: int
    running: int
    completed: int
    failed: int


class BatchResult(BaseModel):
    items: list[BatchItem]


@workflow.defn
class BatchWorkflow:
    def __init__(self) -> None:
        self._items: list[BatchItem] = []

    @workflow.run
    async def run(self, batch: BatchInput) -> BatchResult:
        prefix = workflow.info().workflow_id
        self._items = [
            BatchItem(index=i, query=r.query, runId=f"{prefix}-{i + 1:03d}")
            for i, r in enumerate(batch.requests)
        ]
        slots = asyncio.Semaphore(batch.maxConcurrent)
        principal = workflow.memo_value(PRINCIPAL_MEMO, None, type_hint=str)
        memo = {PRINCIPAL_MEMO: principal} if isinstance(principal, str) else None

        async def one(item: BatchItem, request: MiningRequest) -> None:
            async with slots:
                item.status = "running"
                try:
                    result: KnowledgeMinerResponse = await workflow.execute_child_workflow(
                        MiningWorkflow.run, request, id=item.runId, memo=memo
                    )
                except ChildWorkflowError as exc:
                    item.status, item.error = "failed", str(exc.cause or exc)
                    return
                item.status = "completed"
                item.candidates = len(result.candidateAssets)
                item.published = len(result.publishedAssets)

        await asyncio.gather(
            *(one(item, req) for item, req in zip(self._items, batch.requests, strict=True))
        )
        return BatchResult(items=self._items)

    @workflow.query
    def progress(self) -> BatchProgress:
        count = {
            s: sum(1 for i in self._items if i.status == s)
            for s in ("running", "completed", "failed")
        }
        return BatchProgress(total=len(self._items), **count)
