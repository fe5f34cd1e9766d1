"""Agent tools that run as activities, built inside the workflow.

`activity_as_tool` would mirror each activity's single positional parameter,
so a model would see `{"args": {...}}`; these tools advertise the flat argument
model instead and still dispatch every call as its own activity.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from temporalio import workflow
from temporalio.common import RetryPolicy

from contracts.activity_names import (
    DKG_FIND_DUPLICATES,
    DKG_FIND_RELATED_ASSETS,
    DKG_GET_ASSET,
    DKG_GET_ASSET_METADATA,
    DKG_SPARQL,
    PROPOSE_KNOWLEDGE_ASSETS,
    SCORE_CANDIDATES,
)
from contracts.tools import (
    TOOL_ARGS,
    TOOL_DESCRIPTIONS,
    ProposeToolArgs,
    ScoreToolArgs,
    ToolMetadata,
    ToolResponse,
    unknown_reference,
)
from workflows.candidate_refs import CANDIDATES_FILE, CandidateLedger
from workflows.patches import LOCAL_TOOLS_PATCH, patched
from workflows.run_clock import run_clock
from workflows.statement_refs import STATEMENTS_FILE, resolve_statements

with workflow.unsafe.imports_passed_through():
    from langchain_core.tools import StructuredTool

TOOL_TIMEOUT = timedelta(seconds=20)
TOOL_RETRY = RetryPolicy(maximum_attempts=5, initial_interval=timedelta(seconds=1))
# Reads of the embedded DKG and the scoring formula answer in milliseconds: as local
# activities they cost no task-queue round trip. Runs recorded before replay them as the
# activities they were then (LOCAL_TOOLS_PATCH).
LOCAL_TOOLS = frozenset(
    {
        DKG_GET_ASSET,
        DKG_SPARQL,
        DKG_GET_ASSET_METADATA,
        DKG_FIND_RELATED_ASSETS,
        DKG_FIND_DUPLICATES,
        SCORE_CANDIDATES,
    }
)


# A run's ledger, or how to find the running run's (a graph shared by runs, see
# workflows/agent_graphs.py).
Ledger = CandidateLedger | Callable[[], CandidateLedger]


@dataclass(frozen=True)
class ToolRouting:
    """Where a run's tools execute.

    `task_queue`: the worker owning the DKG (None: the run's own queue). `local_reads`:
    the cheap tools run as local activities, which is only right when this worker holds
    the DKG itself (no tool queue) and it is the embedded store.
    """

    task_queue: str | None = None
    local_reads: bool = False


async def dispatch_activity(name: str, args: Any, routing: ToolRouting) -> ToolResponse:
    """A tool call as the activity `name` (local for the cheap ones where `routing` says)."""
    if routing.local_reads and name in LOCAL_TOOLS and patched(LOCAL_TOOLS_PATCH):
        return await run_clock().local_activity(
            name, args, result_type=ToolResponse,
            start_to_close_timeout=TOOL_TIMEOUT, retry_policy=TOOL_RETRY, summary=f"tool:{name}",
        )  # fmt: skip
    return await run_clock().activity(
        name, args, result_type=ToolResponse, task_queue=routing.task_queue,
        start_to_close_timeout=TOOL_TIMEOUT, retry_policy=TOOL_RETRY, summary=f"tool:{name}",
    )  # fmt: skip


# How a tool's call reaches its function: `dispatch_activity` in a workflow; a direct call
# where bench/overhead_direct.py runs the same agents without Temporal.
Dispatch = Callable[[str, Any, ToolRouting], Awaitable[ToolResponse]]


def activity_tool(
    name: str,
    routing: ToolRouting,
    ledger: Ledger | None = None,
    dispatch: Dispatch = dispatch_activity,
) -> StructuredTool:
    args_model = TOOL_ARGS[name]

    async def run(**kwargs: Any) -> str:
        args: Any = args_model(**kwargs)
        run_ledger = ledger() if callable(ledger) else ledger
        refused: str | None = None
        if isinstance(args, ScoreToolArgs):
            refused = unknown_reference("candidatesRef", args.candidatesRef, CANDIDATES_FILE)
            if not refused:
                args = (run_ledger or CandidateLedger()).resolve(args)
        elif isinstance(args, ProposeToolArgs):
            refused = unknown_reference("statementsRef", args.statementsRef, STATEMENTS_FILE)
            if not refused:
                args = resolve_statements(args, run_ledger.statements if run_ledger else [],
                                          run_ledger.room if run_ledger else None)  # fmt: skip
        if refused:
            refusal = ToolResponse(success=False, error=refused, metadata=ToolMetadata())
            return refusal.model_dump_json()
        response = await dispatch(name, args, routing)
        if run_ledger is not None and name == PROPOSE_KNOWLEDGE_ASSETS:
            return run_ledger.proposed(response)
        return response.model_dump_json()

    return StructuredTool.from_function(
        coroutine=run, name=name, description=TOOL_DESCRIPTIONS[name], args_schema=args_model
    )


def activity_tools(
    names: list[str],
    routing: ToolRouting | None = None,
    ledger: Ledger | None = None,
    dispatch: Dispatch = dispatch_activity,
) -> list[StructuredTool]:
    """Tools for `names`, routed by `routing` (default: the run's own queue, dispatched, the
    same commands as before the options existed); with a `ledger`, candidates travel by
    reference (workflows/candidate_refs.py)."""
    routing = routing or ToolRouting()
    return [activity_tool(n, routing, ledger, dispatch) for n in names]
