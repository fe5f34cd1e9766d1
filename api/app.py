"""FastAPI app: runs (start, list-less get, decisions, result, cancel), memory, DKG read."""

from __future__ import annotations

from typing import Any

from fastapi import Depends, FastAPI, HTTPException, Query, Request
from pydantic import BaseModel, Field
from temporalio.client import (
    Client,
    WorkflowExecutionStatus,
    WorkflowFailureError,
    WorkflowUpdateFailedError,
)
from temporalio.service import RPCError, RPCStatusCode

from kminer.runs import start_run
from workflows.contracts import (
    Decision,
    DecisionResult,
    KnowledgeMinerResponse,
    MiningRequest,
    Workspace,
)
from workflows.mining import MiningWorkflow


def rpc_http_error(exc: RPCError, run_id: str) -> HTTPException:
    """Temporal's answer as HTTP: an unknown run is 404, an unreachable server 503."""
    if exc.status == RPCStatusCode.NOT_FOUND:
        return HTTPException(404, f"run {run_id} not found")
    if exc.status == RPCStatusCode.ALREADY_EXISTS:
        return HTTPException(409, f"run {run_id} already exists")
    return HTTPException(503, f"Temporal unavailable: {exc.message}")


class RunSummary(BaseModel):
    runId: str
    status: str
    startedAt: str
    closedAt: str | None


class StartedRun(BaseModel):
    runId: str
    threadId: str
    domainTags: list[str]


class SparqlRequest(BaseModel):
    query: str = Field(min_length=1)
    limit: int = Field(default=100, ge=1, le=1000)


def create_app(client: Client, task_queue: str, services: Any | None = None) -> FastAPI:
    app = FastAPI(title="Knowledge Miner", version="0.1.0")
    app.state.client = client
    app.state.services = services
    app.state.task_queue = task_queue
    app.state.worker_ready = services is not None

    def temporal(request: Request) -> Client:
        return request.app.state.client

    @app.get("/healthz")
    async def healthz(request: Request) -> dict[str, Any]:
        try:
            await request.app.state.client.service_client.check_health()
        except RPCError as exc:
            raise HTTPException(503, f"temporal unreachable: {exc}") from exc
        if not request.app.state.worker_ready:
            raise HTTPException(503, "worker not running")
        return {"status": "ok", "taskQueue": request.app.state.task_queue}

    @app.post("/api/runs", status_code=201)
    async def start(body: MiningRequest, client: Client = Depends(temporal)) -> StartedRun:
        try:
            handle = await start_run(client, app.state.task_queue, body)
        except RPCError as exc:
            raise rpc_http_error(exc, "new run") from exc
        return StartedRun(runId=handle.id, threadId=body.threadId, domainTags=body.domainTags)

    @app.get("/api/runs")
    async def list_runs(
        limit: int = Query(default=20, ge=1, le=200), client: Client = Depends(temporal)
    ) -> list[RunSummary]:
        runs: list[RunSummary] = []
        try:
            async for wf in client.list_workflows("WorkflowType = 'MiningWorkflow'", limit=limit):
                runs.append(
                    RunSummary(
                        runId=wf.id,
                        status=wf.status.name if wf.status else "UNKNOWN",
                        startedAt=wf.start_time.isoformat(),
                        closedAt=wf.close_time.isoformat() if wf.close_time else None,
                    )
                )
        except RPCError as exc:
            raise rpc_http_error(exc, "runs") from exc
        return runs

    async def _workspace(client: Client, run_id: str) -> Workspace:
        handle = client.get_workflow_handle(run_id)
        try:
            return await handle.query(MiningWorkflow.workspace)
        except RPCError as exc:
            raise rpc_http_error(exc, run_id) from exc

    @app.get("/api/runs/{run_id}")
    async def get_run(run_id: str, client: Client = Depends(temporal)) -> Workspace:
        return await _workspace(client, run_id)

    @app.post("/api/runs/{run_id}/decisions")
    async def decide(
        run_id: str, decisions: list[Decision], client: Client = Depends(temporal)
    ) -> list[DecisionResult]:
        handle = client.get_workflow_handle(run_id)
        try:
            return await handle.execute_update(MiningWorkflow.decide, decisions)
        except WorkflowUpdateFailedError as exc:
            cause = exc.cause
            raise HTTPException(409, getattr(cause, "message", str(cause))) from exc
        except RPCError as exc:
            raise rpc_http_error(exc, run_id) from exc

    @app.get("/api/runs/{run_id}/result")
    async def result(run_id: str, client: Client = Depends(temporal)) -> KnowledgeMinerResponse:
        handle = client.get_workflow_handle(run_id)
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

    @app.post("/api/runs/{run_id}/cancel", status_code=202)
    async def cancel(run_id: str, client: Client = Depends(temporal)) -> dict[str, str]:
        try:
            await client.get_workflow_handle(run_id).cancel()
        except RPCError as exc:
            raise rpc_http_error(exc, run_id) from exc
        return {"runId": run_id, "status": "cancel requested"}

    def _services(request: Request) -> Any:
        services = request.app.state.services
        if services is None:
            raise HTTPException(503, "this API process has no DKG / database attached")
        return services

    @app.get("/api/memory")
    def memory(tag: str | None = None, services: Any = Depends(_services)) -> list[dict]:
        from storage.memory_repo import MemoryRepository

        notes = MemoryRepository(services.engine).list_notes(tag)
        return [n.model_dump(mode="json") for n in notes]

    @app.post("/api/dkg/sparql")
    def sparql(body: SparqlRequest, services: Any = Depends(_services)) -> dict[str, Any]:
        from storage.dkg_store import SPARQL_ANSWER, DkgError

        try:
            result = services.dkg.query(body.query, row_limit=body.limit)
        except DkgError as exc:
            raise HTTPException(400, str(exc)) from exc
        return result.model_dump(include=SPARQL_ANSWER)

    @app.get("/api/dkg/assets/{ual:path}")
    def get_asset(ual: str, services: Any = Depends(_services)) -> dict[str, Any]:
        from storage.dkg_store import DkgError

        try:
            asset = services.dkg.get_asset(ual)
            meta = services.dkg.get_metadata(ual) if asset is not None else None
        except DkgError as exc:
            raise HTTPException(502, f"DKG: {exc}") from exc
        if asset is None:
            raise HTTPException(404, f"no Knowledge Asset {ual}")
        return {"ual": ual, "asset": asset, "metadata": meta.model_dump() if meta else None}

    @app.get("/api/blobs/{sha256}")
    def get_blob(sha256: str, services: Any = Depends(_services)) -> dict[str, Any]:
        from sqlmodel import Session

        from storage.tables import Blob

        with Session(services.engine) as session:
            blob = session.get(Blob, sha256)
        if blob is None:
            raise HTTPException(404, f"no blob {sha256}")
        return {"sha256": blob.sha256, "size": blob.size, "content": blob.content}

    return app
