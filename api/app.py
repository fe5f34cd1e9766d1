"""The FastAPI app, assembled: limits, sign-in, routers by resource, health."""

from __future__ import annotations

import asyncio
import hashlib
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import PlainTextResponse
from prometheus_client import CONTENT_TYPE_LATEST, Gauge, generate_latest
from temporalio.client import Client
from temporalio.service import RPCError

from api import audit, dkg, events, memory, problems, run_files, runs
from api.auth import TokenIssuer
from api.limits import DEFAULT_MAX_BYTES, RequestLimits
from api.mcp import mount_mcp
from api.throttle import StartLimiter
from api.ui import mount_ui
from api.workspace_reads import WorkspaceReader
from temporal_client.telemetry import drain_metrics

RUNS_BY_STATUS = Gauge("kminer_runs", "Mining runs known to Temporal, by status", ["status"])


async def _count_runs(client: Client) -> None:
    for status in ("Running", "Completed", "Failed", "Canceled", "Terminated", "TimedOut"):
        query = f"WorkflowType = 'MiningWorkflow' AND ExecutionStatus = '{status}'"
        try:
            count = (await client.count_workflows(query)).count
        except RPCError:
            continue  # visibility briefly unavailable: keep the last figure
        RUNS_BY_STATUS.labels(status=status.lower()).set(count)


def _database_check(engine: Any) -> str:
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql("SELECT 1")
    except Exception as exc:  # noqa: BLE001  (any driver error means not ready)
        return f"unreachable: {type(exc).__name__}"
    return "ok"


def _dkg_check(dkg: Any) -> str:
    try:
        dkg.query("ASK { ?s ?p ?o }", row_limit=1, timeout_s=2.0)
    except Exception as exc:  # noqa: BLE001
        return f"unreachable: {type(exc).__name__}: {exc}"
    return "ok"


def create_app(
    client: Client,
    task_queue: str,
    services: Any | None = None,
    max_body_bytes: int = DEFAULT_MAX_BYTES,
    jwt_secret: str = "",
    runs_per_minute: int = 30,
) -> FastAPI:
    if not jwt_secret:
        raise ValueError("the API needs a JWT secret (api.auth.load_secret)")
    app = FastAPI(title="Knowledge Miner", version="0.1.0")
    app.add_middleware(RequestLimits, max_bytes=max_body_bytes)
    app.state.client = client
    app.state.services = services
    app.state.task_queue = task_queue
    app.state.worker_ready = services is not None
    app.state.issuer = TokenIssuer(jwt_secret)
    # Signs list cursors, so no forged page token reaches Temporal (api/run_listing.py).
    app.state.cursor_key = hashlib.sha256(b"kminer-run-cursor\n" + jwt_secret.encode()).digest()
    app.state.start_limiter = StartLimiter(runs_per_minute)
    app.state.workspaces = WorkspaceReader()
    problems.install(app)

    @app.get("/healthz", tags=["health"])
    async def healthz(request: Request) -> dict[str, Any]:
        try:
            await request.app.state.client.service_client.check_health()
        except RPCError as exc:
            raise HTTPException(503, f"temporal unreachable: {exc}") from exc
        if not request.app.state.worker_ready:
            raise HTTPException(503, "worker not running")
        return {"status": "ok", "taskQueue": request.app.state.task_queue}

    @app.get("/readyz", tags=["health"])
    async def readyz(request: Request) -> dict[str, Any]:
        """Ready to serve: Temporal answers, the database answers, the DKG answers."""
        checks: dict[str, str] = {}
        try:
            await request.app.state.client.service_client.check_health()
            checks["temporal"] = "ok"
        except RPCError as exc:
            checks["temporal"] = f"unreachable: {exc}"
        attached = request.app.state.services
        if attached is None:
            checks["database"] = checks["dkg"] = "not attached to this process"
        else:
            checks["database"] = await asyncio.to_thread(_database_check, attached.engine)
            checks["dkg"] = await asyncio.to_thread(_dkg_check, attached.dkg)
        if any(v != "ok" for v in checks.values()):
            raise HTTPException(503, checks)
        return {"status": "ok", **checks}

    @app.get("/metrics", tags=["health"], response_class=PlainTextResponse)
    async def metrics(request: Request) -> PlainTextResponse:
        """Prometheus text format; run totals by status from Temporal's visibility."""
        await _count_runs(request.app.state.client)
        drain_metrics()
        return PlainTextResponse(generate_latest(), media_type=CONTENT_TYPE_LATEST)

    for router in (
        runs.router, run_files.router, events.router, audit.router, dkg.router, memory.router
    ):
        app.include_router(router)
    # The MCP tools over streamable HTTP, behind the same bearer tokens as /api.
    mount_mcp(app, client, task_queue)
    mount_ui(app)  # the chat UI at `/` (api/ui.py)
    return app
