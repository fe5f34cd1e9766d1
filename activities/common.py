"""What every tool activity shares: the standard response, caps, and the audit trail."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from sqlalchemy.engine import Engine
from temporalio import activity

from activities import metrics
from activities.run_context import current_principal
from contracts.tools import (
    MAX_TOOL_RESULT_CHARS,
    ProvenanceItem,
    ToolMetadata,
    ToolResponse,
)
from mining.interruption import interruptible
from storage.sql.audit_log import args_hash, insert_event
from storage.sql.blobs import BlobStore
from storage.sql.tables import AuditEvent


async def heartbeating(fn: Callable[..., T], *args: Any) -> T:
    """Run blocking work in a thread and heartbeat while it runs."""
    task = asyncio.ensure_future(asyncio.to_thread(fn, *args))
    while True:
        done, _ = await asyncio.wait([task], timeout=HEARTBEAT_EVERY_SECONDS)
        if done:
            return task.result()
        activity.heartbeat()


@asynccontextmanager
async def stops_when_cancelled() -> AsyncIterator[threading.Event]:
    """A scope for an activity's threaded reading (`mining/interruption.py`): its work
    stops between steps once the activity ends or is cancelled (Temporal cancels it when
    the worker's shutdown grace is over), so no thread reads on after its activity and
    holds the process's exit while the server is already gone. A worker that only starts
    shutting down lets the reading finish within its grace, as every activity may."""
    stop = threading.Event()
    try:
        with interruptible(stop):
            yield stop
    finally:
        stop.set()


T = TypeVar("T")
HEARTBEAT_EVERY_SECONDS = 5.0


def cap_results(
    results: list[dict[str, Any]], cap: int = MAX_TOOL_RESULT_CHARS
) -> tuple[list[dict[str, Any]], bool]:
    """Keep whole rows while they fit, so history never carries a giant payload."""
    kept: list[dict[str, Any]] = []
    used = 2  # the list's brackets
    for row in results:
        size = len(json.dumps(row, default=str)) + 2  # and its ", " separator
        if used + size > cap:
            return kept, True
        kept.append(row)
        used += size
    return kept, False


def current_run_id() -> str | None:
    """The run (workflow id) the current activity works for; None outside an activity."""
    return activity.info().workflow_id if activity.in_activity() else None


def store_blob(engine: Engine, content: str) -> str:
    """Keep a large body out of history: content-addressed, written once, owned by the
    current run and its principal (only who may read that run reads it)."""
    return BlobStore(engine).store(content, current_run_id(), current_principal())


class Auditor:
    """Writes one AuditEvent per tool call. Losing an audit row never fails a tool."""

    def __init__(self, engine: Engine | None) -> None:
        self._engine = engine

    def overflow(self, results: list[dict[str, Any]]) -> str | None:
        """Store the full results of a capped tool answer; None without a database."""
        if self._engine is None:
            return None
        return store_blob(self._engine, json.dumps(results, sort_keys=True, default=str))

    def record(self, tool: str, args: Any, count: int, elapsed_ms: int, success: bool) -> None:
        metrics.tool_call(tool, elapsed_ms, success)
        if self._engine is None:
            return
        event = AuditEvent(
            run_id=current_run_id(),
            principal=current_principal(),
            tool=tool,
            args_hash=args_hash(args),
            result_count=count,
            elapsed_ms=elapsed_ms,
            success=success,
        )
        try:
            insert_event(self._engine, event)
        except Exception:  # noqa: BLE001
            activity.logger.warning("audit write failed for %s", tool, exc_info=True)


def run_tool(
    auditor: Auditor,
    tool: str,
    args: Any,
    body: Callable[[], tuple[list[dict[str, Any]], list[dict[str, Any]]]],
    expected: tuple[type[Exception], ...] = (),
    cap: int = MAX_TOOL_RESULT_CHARS,
) -> ToolResponse:
    """Run a tool body returning (results, provenance) and wrap it in a ToolResponse.

    Expected errors (bad SPARQL, unknown UAL) become `success=False` with the
    message, so the model can adjust; anything else propagates and Temporal retries.
    """
    start = time.perf_counter()
    try:
        results, provenance = body()
    except expected as exc:
        elapsed = int((time.perf_counter() - start) * 1000)
        auditor.record(tool, args, 0, elapsed, False)
        return ToolResponse(
            success=False, error=str(exc), metadata=ToolMetadata(elapsed_ms=elapsed)
        )
    elapsed = int((time.perf_counter() - start) * 1000)
    kept, truncated = cap_results(results, cap)
    blob = auditor.overflow(results) if truncated else None
    auditor.record(tool, args, len(results), elapsed, True)
    return ToolResponse(
        success=True,
        results=kept,
        provenance=[ProvenanceItem(**item) for item in provenance[:50]],
        metadata=ToolMetadata(
            elapsed_ms=elapsed, truncated=truncated, count=len(results), blobRef=blob
        ),
    )
