"""Start a run and follow it live from a terminal: phases and todos as they change."""

from __future__ import annotations

import asyncio
import sys
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, TextIO

from temporalio.client import Client, WorkflowHandle
from temporalio.common import WorkflowIDConflictPolicy, WorkflowIDReusePolicy

from contracts.run import (
    PRINCIPAL_MEMO,
    KnowledgeMinerResponse,
    MiningRequest,
    Phase,
    Workspace,
    validation_verdict,
)
from temporal_client.visibility import indexing
from workflows.mining import MiningWorkflow
from workflows.search_attributes import at_start

POLL_SECONDS = 0.3
TERMINAL = {Phase.COMPLETED, Phase.FAILED, Phase.CANCELED}


def new_run_id() -> str:
    return f"mine-{uuid.uuid4().hex[:12]}"


async def start_run(
    client: Client,
    task_queue: str,
    request: MiningRequest,
    run_id: str | None = None,
    memo: dict[str, Any] | None = None,
    reuse_existing: bool = False,
) -> WorkflowHandle:
    """Start a run; `memo` (e.g. who asked) stays readable beside it in Temporal.

    `reuse_existing`: a run already going under `run_id` is returned instead of a new
    one, and a finished one is never started again (idempotent starts).
    """
    extra: dict[str, Any] = {}
    memo = memo or {PRINCIPAL_MEMO: "cli"}
    if await indexing(client):
        principal = str(memo.get(PRINCIPAL_MEMO, ""))
        extra["search_attributes"] = at_start(request.threadId, request.domainTags, principal)
    if reuse_existing:
        extra |= {
            "id_conflict_policy": WorkflowIDConflictPolicy.USE_EXISTING,
            "id_reuse_policy": WorkflowIDReusePolicy.REJECT_DUPLICATE,
        }
    return await client.start_workflow(
        MiningWorkflow.run,
        request,
        id=run_id or new_run_id(),
        task_queue=task_queue,
        memo=memo,
        **extra,
    )


class Progress:
    """Prints only what changed since the last look."""

    def __init__(self, out: TextIO) -> None:
        self._out = out
        self._phases_shown = 0
        self._todos: set[tuple[str, str, str]] = set()
        self._pending: tuple[str, ...] = ()

    def show(self, ws: Workspace) -> None:
        # The history, not the current phase: a fast phase must not go unseen.
        for phase in ws.phaseHistory[self._phases_shown :]:
            print(f"[{phase.value}]", file=self._out, flush=True)
        self._phases_shown = max(self._phases_shown, len(ws.phaseHistory))
        for todo in ws.todos:
            key = (todo.agent, todo.content, todo.status)
            if key not in self._todos:
                self._todos.add(key)
                mark = {"completed": "✓", "in_progress": "⧗"}.get(todo.status, "·")
                print(f"  {mark} {todo.agent}: {todo.content}", file=self._out, flush=True)
        pending = tuple(ws.pendingApprovals)
        if pending and pending != self._pending:
            print(f"  awaiting review of {len(pending)} candidates:", file=self._out)
            for c in ws.candidates:
                if c.id in pending:
                    conf = (c.asset.get("trustSignals") or {}).get("confidence")
                    verdict = validation_verdict(c)
                    print(f"    {c.id} {conf} {verdict}: {c.asset.get('name')}", file=self._out)
            print(
                f"  decide with: kminer review {ws.runId} --approve ID | --reject ID",
                file=self._out,
                flush=True,
            )
        self._pending = pending


def settle(task: asyncio.Future[Any]) -> None:
    """Leave no result task behind: a stopped command (Ctrl-C, SIGTERM) cancels it, and
    an error it already holds (the server went down with the command) counts as seen, so
    the stop is the one line "kminer: stopped", not asyncio's "exception never retrieved"."""
    if not task.done():
        task.cancel()
    elif not task.cancelled():
        task.exception()


async def watch(
    handle: WorkflowHandle, show: Callable[[], Awaitable[None]], every: float = POLL_SECONDS
) -> Any:
    """The workflow's result, calling `show` every `every` seconds until it comes."""
    result_task = asyncio.ensure_future(handle.result())
    try:
        while not result_task.done():
            try:
                await show()
            except Exception:  # noqa: BLE001  (a query can race the workflow's first task)
                pass
            await asyncio.wait([result_task], timeout=every)
    finally:
        settle(result_task)
    return result_task.result()


async def follow(handle: WorkflowHandle, out: TextIO = sys.stderr) -> KnowledgeMinerResponse:
    progress = Progress(out)

    async def show() -> None:
        progress.show(await handle.query(MiningWorkflow.workspace))

    result = await watch(handle, show)
    try:
        await show()  # the phases since the last look
    except Exception:  # noqa: BLE001  (the progress is a nicety: the result is in hand)
        pass
    return result
