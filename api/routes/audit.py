"""A run's audit trail: tool calls, decisions, publications and memory writes."""

from __future__ import annotations

import asyncio
import json
from datetime import datetime
from typing import Any, Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel
from temporalio.service import RPCError

from api.auth import Miner
from api.deps import Services, TemporalClient, owned, rpc_http_error
from storage.sql.audit_log import AuditLog

router = APIRouter(prefix="/api/runs", tags=["audit"])


class AuditEntry(BaseModel):
    id: int
    kind: str
    tool: str
    principal: str | None
    success: bool
    resultCount: int
    elapsedMs: int
    detail: dict[str, Any] | None
    at: datetime


class AuditPage(BaseModel):
    runId: str
    events: list[AuditEntry]
    nextAfter: int | None = None


@router.get("/{run_id}/audit")
async def run_audit(
    run_id: str,
    client: TemporalClient,
    services: Services,
    who: Miner,
    kind: Literal["tool", "decision", "publication", "memory"] | None = None,
    tool: str | None = Query(default=None, max_length=100),
    principal: str | None = Query(default=None, max_length=200),
    after: int = Query(default=0, ge=0, le=2**63 - 1, description="the last event id already read"),
    limit: int = Query(default=100, ge=1, le=1000),
) -> AuditPage:
    handle = await owned(client, run_id, who)  # 404 for a run this principal may not see
    try:
        await handle.describe()  # and for a run that does not exist
    except RPCError as exc:
        raise rpc_http_error(exc, run_id) from exc
    rows = await asyncio.to_thread(
        AuditLog(services.engine).for_run,
        run_id,
        kind=kind,
        tool=tool,
        principal=principal,
        after=after,
        limit=limit,
    )
    events = [
        AuditEntry(
            id=row.id or 0,
            kind=row.kind or "tool",
            tool=row.tool,
            principal=row.principal,
            success=row.success,
            resultCount=row.result_count,
            elapsedMs=row.elapsed_ms,
            detail=json.loads(row.detail) if row.detail else None,
            at=row.created_at,
        )
        for row in rows
    ]
    full = len(events) == limit
    return AuditPage(runId=run_id, events=events, nextAfter=events[-1].id if full else None)
