"""What the MCP tools do, whatever the transport: start and follow a run, decide, report.

`api/mcp/server.py` registers these on an MCP server and says who is calling; everything
here talks to Temporal exactly as the REST API and `kminer` do (`start_run`, the
`workspace` query, the `decide` update), so a run started by an agent is the same durable
run.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel, ConfigDict, ValidationError
from temporalio.client import (
    Client,
    WorkflowFailureError,
    WorkflowHandle,
    WorkflowUpdateFailedError,
)
from temporalio.converter import DataConverter
from temporalio.service import RPCError, RPCStatusCode

from activities import metrics
from api.auth import Principal
from api.deps import RUN_RPC_TIMEOUT
from contracts.model_calls import ModelLimits
from contracts.run import (
    PRINCIPAL_MEMO,
    QUERY_MEMO,
    QUERY_MEMO_CHARS,
    Candidate,
    Decision,
    DecisionResult,
    KnowledgeMinerResponse,
    MiningRequest,
    Phase,
    Workspace,
)
from mining.jsonld import jsonld_problem
from temporal_client.runs import POLL_SECONDS, start_run
from temporal_client.workspaces import read_workspace
from workflows.mining import MiningWorkflow

DECIDE_WAIT_SECONDS = 30.0  # long enough to publish to the embedded DKG, short for an agent

Report = Callable[[str], Awaitable[None]]
# How the tools get Temporal's client when it may not be there yet (a stack still
# starting); what it raises reaches the caller as a tool error.
ClientSource = Callable[[], Awaitable[Client]]
Admit = Callable[[str], float]  # the API's StartLimiter.take: seconds to wait, 0 to go
Answer = dict[str, Any]


class McpDecision(BaseModel):
    """A reviewer decision as an agent sends it; the reviewer is who calls, never the body."""

    model_config = ConfigDict(extra="forbid")

    candidateId: str
    action: Literal["approve", "edit", "reject"]
    asset: dict[str, Any] | None = None
    reason: str | None = None


def mining_request(
    query: str,
    tags: list[str],
    max_iterations: int,
    review: str,
    model_limits: ModelLimits | None = None,
) -> MiningRequest:
    """The request as MiningRequest validates it, its own rule as the tool error."""
    try:
        return MiningRequest(
            query=query, domainTags=tags, maxIterations=max_iterations, review=review,
            modelLimits=model_limits,
        )  # fmt: skip
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'request'}: "
            f"{e['msg'].removeprefix('Value error, ')}"
            for e in exc.errors()
        )
        raise ToolError(problems) from None


def _candidate_view(candidate: Candidate) -> Answer:
    signals = candidate.asset.get("trustSignals") or {}
    return {
        "id": candidate.id,
        "name": candidate.asset.get("name"),
        "confidence": signals.get("confidence") if isinstance(signals, dict) else None,
        "accepted": candidate.accepted,
        "reasoning": candidate.reasoning,
        "status": candidate.status,
    }


def review_view(ws: Workspace) -> Answer:
    """What a reviewer needs to decide: the run, its pending ids and every candidate."""
    return {
        "runId": ws.runId,
        "phase": ws.phase.value,
        "pendingApprovals": ws.pendingApprovals,
        "candidates": [_candidate_view(c) for c in ws.candidates],
    }


def status_view(ws: Workspace) -> Answer:
    view: Answer = {
        "runId": ws.runId,
        "phase": ws.phase.value,
        "todos": [t.model_dump() for t in ws.todos],
        "pendingApprovals": ws.pendingApprovals,
    }
    if ws.answer is not None and ws.answer.text:
        view["answer"] = ws.answer.model_dump(mode="json")
    if ws.errors:
        view["errors"] = ws.errors
    return view


def response_view(result: KnowledgeMinerResponse) -> Answer:
    return result.model_dump(mode="json")


class ProgressLines:
    """Only what changed since the last look, as lines (temporal_client.runs.Progress)."""

    def __init__(self) -> None:
        self._phases_seen = 0
        self._todos: set[tuple[str, str, str]] = set()

    def changes(self, ws: Workspace) -> list[str]:
        # The history, not the current phase: a fast phase must not go unreported.
        lines = [f"phase {p.value}" for p in ws.phaseHistory[self._phases_seen :]]
        self._phases_seen = max(self._phases_seen, len(ws.phaseHistory))
        for todo in ws.todos:
            key = (todo.agent, todo.content, todo.status)
            if key not in self._todos:
                self._todos.add(key)
                lines.append(f"{todo.agent}: {todo.content} [{todo.status}]")
        return lines


async def _workspace(handle: WorkflowHandle, converter: DataConverter) -> Workspace | None:
    try:
        # An ended run whose query fails is read from its result (temporal_client/workspaces.py).
        return await read_workspace(handle, RUN_RPC_TIMEOUT, converter)
    except RPCError as exc:
        if exc.status == RPCStatusCode.NOT_FOUND:
            raise ToolError(f"no run {handle.id}") from None
        return None  # a query can race the run's first task: look again next time
    except Exception:  # noqa: BLE001  (a failed query is retried on the next poll)
        return None


async def _show(ws: Workspace | None, lines: ProgressLines, report: Report) -> None:
    for line in lines.changes(ws) if ws is not None else []:
        await report(line)


async def watch(
    handle: WorkflowHandle,
    report: Report,
    converter: DataConverter,
    *,
    until_review: bool = False,
    timeout: float | None = None,
) -> KnowledgeMinerResponse | Workspace | None:
    """Poll the run like `kminer mine` does, reporting each change.

    Ends with the response when the run completes, with the workspace when it reaches
    REVIEW (`until_review`) or the `timeout` passes (None if it could not be read).
    """
    lines = ProgressLines()
    result_task = asyncio.ensure_future(handle.result())
    loop = asyncio.get_running_loop()
    deadline = None if timeout is None else loop.time() + timeout
    try:
        while not result_task.done():
            ws = await _workspace(handle, converter)
            await _show(ws, lines, report)
            if until_review and ws is not None and ws.phase == Phase.REVIEW:
                return ws
            if deadline is not None and loop.time() >= deadline:
                return ws
            await asyncio.wait([result_task], timeout=POLL_SECONDS)
        try:
            result = result_task.result()
        except WorkflowFailureError as exc:
            raise ToolError(f"run {handle.id} ended without a result: {exc.cause or exc}") from None
        await _show(await _workspace(handle, converter), lines, report)
        return result
    finally:
        # The run goes on in Temporal whatever happens to this call.
        result_task.cancel()


class MinerTools:
    """The three tools against one Temporal client and task queue."""

    def __init__(
        self, client: Client | ClientSource, task_queue: str, admit: Admit | None = None
    ) -> None:
        self._source = _ready(client) if isinstance(client, Client) else client
        self._task_queue = task_queue
        self._admit = admit

    async def _temporal(self) -> Client:
        try:
            return await self._source()
        except ToolError:
            raise
        except Exception as exc:  # noqa: BLE001  (one line for the agent, not a trace)
            raise ToolError(f"Temporal unavailable: {exc}") from None

    async def mine(self, who: Principal, request: MiningRequest, report: Report) -> Answer:
        # The API's per-principal limit on run starts holds for its MCP endpoint too.
        wait = self._admit(who.sub) if self._admit is not None else 0.0
        if wait > 0:
            raise ToolError(f"too many runs started by {who.sub}: retry in {math.ceil(wait)} s")
        client = await self._temporal()
        try:
            # The question rides in the memo as the API's starts carry it: the runs list
            # shows it for a run an agent started too.
            memo = {PRINCIPAL_MEMO: who.sub, QUERY_MEMO: request.query[:QUERY_MEMO_CHARS]}
            handle = await start_run(client, self._task_queue, request, memo=memo)
        except RPCError as exc:
            raise ToolError(f"Temporal refused the run: {exc.message}") from None
        metrics.RUNS_STARTED.inc()
        await report(f"run {handle.id} started (thread {request.threadId})")
        outcome = await watch(
            handle, report, client.data_converter, until_review=request.review == "required"
        )
        if isinstance(outcome, KnowledgeMinerResponse):
            return response_view(outcome)
        assert outcome is not None  # watch returns a workspace only once it could read one
        return review_view(outcome)

    async def decide(
        self, who: Principal, run_id: str, decisions: list[McpDecision], report: Report
    ) -> Answer:
        if not who.at_least("reviewer"):
            raise ToolError(f"role {who.role!r} may not decide: needs 'reviewer'")
        signed = [_signed(d, who) for d in decisions]
        client = await self._temporal()
        handle = client.get_workflow_handle_for(MiningWorkflow.run, run_id)
        try:
            results = await handle.execute_update(MiningWorkflow.decide, signed)
        except WorkflowUpdateFailedError as exc:
            reason = getattr(exc.cause, "message", None) or str(exc.cause)
            raise ToolError(f"decision refused: {reason}") from None
        except RPCError as exc:
            raise _rpc_tool_error(exc, run_id) from None
        for decision in signed:
            metrics.DECISIONS.labels(action=decision.action).inc()
        return await _after_decisions(handle, results, report, client.data_converter)

    async def status(self, who: Principal, run_id: str) -> Answer:
        client = await self._temporal()
        handle = client.get_workflow_handle_for(MiningWorkflow.run, run_id)
        if not who.at_least("reviewer"):
            await _check_owner(handle, who)
        ws = await _workspace(handle, client.data_converter)
        if ws is None:
            raise ToolError(f"run {run_id} cannot be read yet; try again")
        return status_view(ws)


def _ready(client: Client) -> ClientSource:
    async def source() -> Client:
        return client

    return source


async def _after_decisions(
    handle: WorkflowHandle, results: list[DecisionResult], report: Report, converter: DataConverter
) -> Answer:
    """The completed run's response if it finishes soon; otherwise where it stands."""
    decided = [r.model_dump(mode="json") for r in results]
    ws = await _workspace(handle, converter)
    if ws is not None and ws.phase == Phase.REVIEW and ws.pendingApprovals:
        return {**review_view(ws), "decided": decided}  # more decisions are awaited
    outcome = await watch(handle, report, converter, timeout=DECIDE_WAIT_SECONDS)
    if isinstance(outcome, KnowledgeMinerResponse):
        return response_view(outcome)
    view = status_view(outcome) if outcome is not None else {"runId": handle.id}
    return {**view, "decided": decided}


async def _check_owner(handle: WorkflowHandle, who: Principal) -> None:
    """A miner sees only its own runs; any other run does not exist for it."""
    try:
        memo = await (await handle.describe()).memo()
    except RPCError as exc:
        raise _rpc_tool_error(exc, handle.id) from None
    if memo.get(PRINCIPAL_MEMO) != who.sub:
        raise ToolError(f"no run {handle.id}")


def _signed(decision: McpDecision, who: Principal) -> Decision:
    """Refused here, like the API does, before Temporal's converter sees a bad asset."""
    if decision.asset is not None and (problem := jsonld_problem(decision.asset)):
        raise ToolError(f"edited asset for {decision.candidateId} is invalid JSON-LD: {problem}")
    return Decision(**decision.model_dump(), reviewer=who.sub)


def _rpc_tool_error(exc: RPCError, run_id: str) -> ToolError:
    if exc.status == RPCStatusCode.NOT_FOUND:
        return ToolError(f"no run {run_id}")
    return ToolError(f"Temporal unavailable: {exc.message}")
