"""Runs: start, list, read the live workspace, decide, result, cancel.

A `miner` reads and cancels only the runs it started (the run's memo names its
principal); a `reviewer` or `admin` reads all of them and decides.
"""

from __future__ import annotations

import hashlib
from typing import Annotated

from fastapi import APIRouter, Header, HTTPException, Query, Request, Response
from pydantic import BaseModel
from temporalio.client import (
    WorkflowExecution,
    WorkflowExecutionStatus,
    WorkflowFailureError,
    WorkflowHandle,
    WorkflowQueryFailedError,
    WorkflowUpdateFailedError,
)
from temporalio.exceptions import WorkflowAlreadyStartedError
from temporalio.service import RPCError, RPCStatusCode

from activities import metrics
from api.auth import Miner, Reviewer
from api.deps import TemporalClient, owned, rpc_http_error
from api.run_listing import SAFE_VALUE, BadCursor, decode_cursor, encode_cursor, visibility_query
from api.throttle import retry_after
from contracts.run import (
    PRINCIPAL_MEMO,
    QUERY_MEMO,
    QUERY_MEMO_CHARS,
    Decision,
    DecisionResult,
    KnowledgeMinerResponse,
    MiningRequest,
    Phase,
    Workspace,
)
from mining.jsonld import jsonld_problem
from temporal_client.runs import start_run
from temporal_client.visibility import indexing
from workflows.mining import MiningWorkflow
from workflows.search_attributes import KM_PHASE, KM_PUBLISHED, KM_TAGS, KM_THREAD

router = APIRouter(prefix="/api/runs", tags=["runs"])


class RunSummary(BaseModel):
    runId: str
    status: str
    startedAt: str
    closedAt: str | None
    principal: str | None = None
    query: str | None = None  # the question, as the memo keeps it (older runs: none)
    threadId: str | None = None
    domainTags: list[str] = []
    phase: Phase | None = None
    published: int | None = None


class RunPage(BaseModel):
    runs: list[RunSummary]
    nextCursor: str | None = None


class StartedRun(BaseModel):
    runId: str
    threadId: str
    domainTags: list[str]


def idempotent_run_id(who: str, key: str) -> str:
    """The run id an Idempotency-Key stands for: the same key of one principal, one run."""
    return "mine-" + hashlib.sha256(f"{who}\n{key}".encode()).hexdigest()[:12]


@router.post("", status_code=202)
async def start(
    body: MiningRequest,
    request: Request,
    response: Response,
    client: TemporalClient,
    who: Miner,
    idempotency_key: Annotated[str | None, Header(max_length=200)] = None,
) -> StartedRun:
    run_id = idempotent_run_id(who.sub, idempotency_key) if idempotency_key else None
    if run_id is None or not await _exists(client, run_id):
        wait = request.app.state.start_limiter.take(who.sub)
        if wait:
            raise HTTPException(
                429,
                f"{who.sub} starts runs too often; try again in {retry_after(wait)} s",
                {"Retry-After": retry_after(wait)},
            )
    try:
        handle = await start_run(
            client,
            request.app.state.task_queue,
            body,
            run_id=run_id,
            memo={PRINCIPAL_MEMO: who.sub, QUERY_MEMO: body.query[:QUERY_MEMO_CHARS]},
            reuse_existing=run_id is not None,
        )
    except WorkflowAlreadyStartedError:
        handle = client.get_workflow_handle(run_id or "")  # a finished run of the same key
    except RPCError as exc:
        raise rpc_http_error(exc, "new run") from exc
    metrics.RUNS_STARTED.inc()
    # Accepted: the run goes on in Temporal; its workspace is at Location.
    response.headers["Location"] = f"/api/runs/{handle.id}"
    return StartedRun(runId=handle.id, threadId=body.threadId, domainTags=body.domainTags)


async def _exists(client: TemporalClient, run_id: str) -> bool:
    try:
        await client.get_workflow_handle(run_id).describe()
    except RPCError:
        return False
    return True


@router.get("")
async def list_runs(
    request: Request,
    client: TemporalClient,
    who: Miner,
    tag: str | None = Query(default=None, pattern=r"^[a-z0-9_]{1,64}$"),
    phase: Phase | None = None,
    limit: int = Query(default=20, ge=1, le=200),
    cursor: str | None = Query(default=None, max_length=4096),
) -> RunPage:
    """Newest first, filtered and paged by Temporal visibility (search attributes)."""
    indexed = await indexing(client)
    if not indexed and (tag or phase):
        raise HTTPException(
            400, "tag and phase filters need the Km* search attributes, which this cluster lacks"
        )
    mine_only = not who.at_least("reviewer")
    by_attribute = indexed and mine_only and SAFE_VALUE.fullmatch(who.sub) is not None
    try:
        query = visibility_query(tag=tag, phase=phase, principal=who.sub if by_attribute else None)
        token = decode_cursor(cursor, request.app.state.cursor_key)
    except (BadCursor, ValueError) as exc:
        raise HTTPException(400, str(exc)) from exc
    pages = client.list_workflows(query, page_size=limit, next_page_token=token)
    try:
        await pages.fetch_next_page()
    except RPCError as exc:
        if exc.status == RPCStatusCode.INVALID_ARGUMENT:
            raise HTTPException(400, f"cannot list runs: {exc.message}") from exc
        raise rpc_http_error(exc, "runs") from exc
    runs: list[RunSummary] = []
    for wf in pages.current_page or []:
        memo = await wf.memo()
        owner = memo.get(PRINCIPAL_MEMO)
        if mine_only and owner != who.sub:
            continue  # unindexed runs: filtered here instead
        summary = summary_of(wf, owner if isinstance(owner, str) else None)
        question = memo.get(QUERY_MEMO)
        summary.query = question if isinstance(question, str) else None
        runs.append(summary)
    key = request.app.state.cursor_key
    return RunPage(runs=runs, nextCursor=encode_cursor(pages.next_page_token, key))


def summary_of(wf: WorkflowExecution, owner: str | None) -> RunSummary:
    found = wf.typed_search_attributes
    phase = found.get(KM_PHASE)
    return RunSummary(
        runId=wf.id,
        status=wf.status.name if wf.status else "UNKNOWN",
        startedAt=wf.start_time.isoformat(),
        closedAt=wf.close_time.isoformat() if wf.close_time else None,
        principal=owner,
        threadId=found.get(KM_THREAD),
        domainTags=list(found.get(KM_TAGS) or []),
        phase=Phase(phase) if phase else None,
        published=found.get(KM_PUBLISHED),
    )


@router.get("/{run_id}", response_model=Workspace)
async def get_run(run_id: str, request: Request, client: TemporalClient, who: Miner) -> Response:
    handle = await owned(client, run_id, who)
    try:
        snapshot = await request.app.state.workspaces.snapshot(handle)
    except RPCError as exc:
        raise rpc_http_error(exc, run_id) from exc
    except WorkflowQueryFailedError as exc:  # a running run whose workflow task fails
        raise HTTPException(503, f"run {run_id} cannot answer now: {exc}") from exc
    # Rendered once per query for every reader sharing it (api/workspace_reads.py).
    return Response(snapshot.json, media_type="application/json")


@router.post("/{run_id}/decisions")
async def decide(
    run_id: str, decisions: list[Decision], client: TemporalClient, who: Reviewer
) -> list[DecisionResult]:
    for decision in decisions:
        # Refused here, before Temporal's payload converter or the workflow sees it.
        if decision.asset is not None and (problem := jsonld_problem(decision.asset)):
            raise HTTPException(
                422, f"edited asset for {decision.candidateId} is invalid JSON-LD: {problem}"
            )
    # The decision is recorded under the signed-in reviewer, whatever the body says.
    signed = [d.model_copy(update={"reviewer": who.sub}) for d in decisions]
    handle = client.get_workflow_handle(run_id)
    try:
        results = await handle.execute_update(MiningWorkflow.decide, signed)
        for decision in signed:
            metrics.DECISIONS.labels(action=decision.action).inc()
        return results
    except WorkflowUpdateFailedError as exc:
        cause = exc.cause
        raise HTTPException(409, getattr(cause, "message", str(cause))) from exc
    except RPCError as exc:
        if exc.status == RPCStatusCode.NOT_FOUND:
            raise await _no_update_target(handle, run_id, exc) from exc
        raise rpc_http_error(exc, run_id) from exc


async def _no_update_target(handle: WorkflowHandle, run_id: str, exc: RPCError) -> HTTPException:
    """Temporal answers NOT_FOUND both for no such run and for a run that has ended: the
    latter is a conflict with the run's state (409), not a missing run."""
    try:
        status = (await handle.describe()).status
    except RPCError as described:
        return rpc_http_error(described, run_id)
    if status is not None and status != WorkflowExecutionStatus.RUNNING:
        return HTTPException(409, f"run {run_id} ended {status.name}: it takes no more decisions")
    return rpc_http_error(exc, run_id)


@router.get("/{run_id}/result")
async def result(run_id: str, client: TemporalClient, who: Miner) -> KnowledgeMinerResponse:
    handle = await owned(client, run_id, who)
    try:
        desc = await handle.describe()
    except RPCError as exc:
        raise rpc_http_error(exc, run_id) from exc
    if desc.status == WorkflowExecutionStatus.RUNNING:
        raise HTTPException(409, f"run {run_id} is still running")
    try:
        return await handle.result()
    except WorkflowFailureError as exc:
        raise HTTPException(
            409, f"run {run_id} ended {desc.status.name}: {exc.cause or exc}"
        ) from exc


@router.post("/{run_id}/cancel", status_code=202)
async def cancel(run_id: str, client: TemporalClient, who: Miner) -> dict[str, str]:
    handle = await owned(client, run_id, who)
    try:
        await handle.cancel()
    except RPCError as exc:
        raise rpc_http_error(exc, run_id) from exc
    return {"runId": run_id, "status": "cancel requested"}
