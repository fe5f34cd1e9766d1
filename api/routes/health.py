"""Health: `/healthz` (Temporal and the worker), `/readyz` (Temporal, database, DKG) and
`/metrics` (Prometheus, with run totals by status from Temporal's visibility). Under
`kminer up` both also say how the parts it supervises are doing (kminer/supervisor.py):
a dev server or worker being restarted makes them 503, saying which and why."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import PlainTextResponse
from prometheus_client import CONTENT_TYPE_LATEST, Gauge, generate_latest
from temporalio.client import Client
from temporalio.service import RPCError

from temporal_client.telemetry import drain_metrics

RUNS_BY_STATUS = Gauge("kminer_runs", "Mining runs known to Temporal, by status", ["status"])

router = APIRouter(tags=["health"])


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


def _children(request: Request) -> dict[str, dict[str, Any]]:
    """The supervised parts of this process and their state (none outside `kminer up`)."""
    report = request.app.state.children
    return report() if report is not None else {}


def _down(children: dict[str, dict[str, Any]]) -> list[str]:
    return [
        f"{name} {child['state']} ({child['restarts']} restarts; last: {child['lastExit']})"
        for name, child in children.items()
        if child["state"] != "running"
    ]


@router.get("/healthz")
async def healthz(request: Request) -> dict[str, Any]:
    children = _children(request)
    down = _down(children)
    if down:
        raise HTTPException(503, "; ".join(down))
    try:
        await request.app.state.client.service_client.check_health()
    except RPCError as exc:
        raise HTTPException(503, f"temporal unreachable: {exc}") from exc
    if not request.app.state.worker_ready:
        raise HTTPException(503, "worker not running")
    answer: dict[str, Any] = {"status": "ok", "taskQueue": request.app.state.task_queue}
    if children:
        answer["children"] = children
    return answer


@router.get("/readyz")
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
    for name, child in _children(request).items():
        checks[name] = "ok" if child["state"] == "running" else "; ".join(_down({name: child}))
    if any(v != "ok" for v in checks.values()):
        raise HTTPException(503, checks)
    return {"status": "ok", **checks}


@router.get("/metrics", response_class=PlainTextResponse)
async def metrics(request: Request) -> PlainTextResponse:
    """Prometheus text format; run totals by status from Temporal's visibility."""
    await _count_runs(request.app.state.client)
    drain_metrics()
    return PlainTextResponse(generate_latest(), media_type=CONTENT_TYPE_LATEST)
