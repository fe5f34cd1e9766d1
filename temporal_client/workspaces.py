"""A run's workspace, read so that a finished run always answers.

The `workspace` query answers from the workflow's own state; for a run that has ended,
the worker first replays its whole history to rebuild that state. Should the replay
fail (a history the current code cannot replay, a worker that does not answer), the
query fails, and a finished run would become unreadable although everything it
produced is stored in Temporal. So a failed query of an ended run is answered from
what Temporal keeps of it: its request (the start event) and its result or failure.
That workspace says so in `errors`; what only the live state held (the research plan,
the phase history, validation's reasoning) is missing from it.

The run log (`read_log`) is read the same way: the `run_log` query, or for an ended run
whose query fails, a log of one step from the empty workspace to the rebuilt one,
stamped with the time the run closed.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from temporalio.api.enums.v1 import EventType
from temporalio.client import (
    WorkflowExecutionStatus,
    WorkflowFailureError,
    WorkflowHandle,
    WorkflowQueryFailedError,
)
from temporalio.converter import DataConverter
from temporalio.service import RPCError, RPCStatusCode

from contracts.run import (
    Candidate,
    KnowledgeMinerResponse,
    MiningInput,
    Phase,
    Todo,
    Workspace,
)
from contracts.run_log import RunLogPage
from workflows.mining import MiningWorkflow
from workflows.run_log import PAGE_LIMIT, RunLog, workspace_view

ENDED_AS = {
    WorkflowExecutionStatus.COMPLETED: Phase.COMPLETED,
    WorkflowExecutionStatus.CANCELED: Phase.CANCELED,
}
# The keys `response_from` (workflows/workspace.py) adds to each candidate's asset.
CANDIDATE_KEYS = (
    "candidateId",
    "candidateKind",
    "reviewStatus",
    "publishedUal",
    "knownInDkg",
    "contradictions",
)
TODO_MARKS = {"✓ ": "completed", "⧗ ": "in_progress"}


async def read_workspace(
    handle: WorkflowHandle, rpc_timeout: timedelta, converter: DataConverter
) -> Workspace:
    """The run's workspace: its query's answer; for an ended run whose query fails, the
    workspace rebuilt from its request and result (`converter`: the client's, to read the
    request). Raises what the query raised when the run still runs (or Temporal does not
    answer)."""
    try:
        return await handle.query(MiningWorkflow.workspace, rpc_timeout=rpc_timeout)
    except (WorkflowQueryFailedError, RPCError) as exc:
        if isinstance(exc, RPCError) and exc.status == RPCStatusCode.NOT_FOUND:
            raise
        failed = exc
    why = (str(failed).strip().splitlines() or [type(failed).__name__])[0][:300]
    try:
        rebuilt = await ended_workspace(handle, rpc_timeout, converter, why)
    except RPCError:
        rebuilt = None
    if rebuilt is None:
        raise failed
    return rebuilt


async def read_log(
    handle: WorkflowHandle,
    after: int,
    rpc_timeout: timedelta,
    converter: DataConverter,
    limit: int = PAGE_LIMIT,
) -> RunLogPage:
    """The run log's entries after `after` (contracts/run_log.py): the `run_log` query's
    answer; for an ended run whose query fails, the log rebuilt from its result.

    Only a failed query (a worker answered that it cannot: its code cannot replay the run)
    falls back. Temporal not answering in time (an ended run's query replays its whole
    history, slow on a busy worker) raises: that log has other entries and ids than the
    run's own, so a reader that had the run's log must not be switched to it mid-way."""
    try:
        return await handle.query(
            MiningWorkflow.run_log, args=[after, limit], rpc_timeout=rpc_timeout
        )
    except WorkflowQueryFailedError as exc:
        failed = exc
    why = (str(failed).strip().splitlines() or [type(failed).__name__])[0][:300]
    try:
        rebuilt = await ended_workspace(handle, rpc_timeout, converter, why)
        closed = (await handle.describe(rpc_timeout=rpc_timeout)).close_time
    except RPCError:
        rebuilt = None
    if rebuilt is None:
        raise failed
    return log_of(rebuilt, closed or datetime.now(UTC)).page(after, limit)


def log_of(ws: Workspace, at: datetime) -> RunLog:
    """A log of one step, at `at`, from the empty workspace to `ws`."""
    log = RunLog(workspace_view(Workspace()))
    log.record(workspace_view(ws), at)
    return log


async def ended_workspace(
    handle: WorkflowHandle, rpc_timeout: timedelta, converter: DataConverter, why: str
) -> Workspace | None:
    """The workspace of an ended run from its request and its result or failure; None
    while it runs."""
    described = await handle.describe(rpc_timeout=rpc_timeout)
    status = described.status
    if status is None or status == WorkflowExecutionStatus.RUNNING:
        return None
    request = await _request(handle, rpc_timeout, converter)
    note = f"workspace rebuilt from the run's result: its query failed ({why})"
    try:
        result = await handle.result(follow_runs=False, rpc_timeout=rpc_timeout)
    except WorkflowFailureError as exc:
        return Workspace(
            runId=handle.id,
            query=_text(request.query),
            domainTags=_tags(request.domainTags),
            phase=ENDED_AS.get(status, Phase.FAILED),
            errors=[str(exc.cause or exc), note],
        )
    # An untyped handle's result is the plain JSON.
    response = KnowledgeMinerResponse.model_validate(result)
    return workspace_from_result(response, _text(request.query), note)


def workspace_from_result(result: KnowledgeMinerResponse, query: str, note: str) -> Workspace:
    """What a completed run's result says of its workspace (the inverse of
    `response_from`, as far as the result holds it)."""
    return Workspace(
        runId=result.runId,
        threadId=result.threadId,
        query=query,
        domainTags=result.domainTags,
        phase=result.phase,
        phaseHistory=[result.phase],
        todos=[_todo(line) for line in result.todos],
        spawnedSubagents=result.spawnedSubagents,
        filesystemFiles=result.filesystemFiles,
        memoryWrites=result.memoryWrites,
        candidates=[_candidate(row) for row in result.candidateAssets],
        decisions=result.decisions,
        publishedAssets=result.publishedAssets,
        triplets=result.triplets,
        synthesizedReport=result.synthesizedReport,
        answer=result.answer,
        summary=result.summary,
        usage=result.usage,
        usageBySubagent=result.usageBySubagent,
        budgetStops=result.budgetStops,
        errors=[note],
    )


def _candidate(row: dict) -> Candidate:
    status = row.get("reviewStatus") or "pending"
    return Candidate(
        id=str(row.get("candidateId", "")),
        asset={k: v for k, v in row.items() if k not in CANDIDATE_KEYS},
        kind="entity" if row.get("candidateKind") == "entity" else "claim",
        # What the result keeps of validation's verdict: whether the candidate went on.
        accepted=status in ("approved", "published"),
        status=status,
        publishedUal=row.get("publishedUal"),
        knownInDkg=row.get("knownInDkg") or [],
        contradictions=row.get("contradictions") or [],
    )


def _todo(line: str) -> Todo:
    for mark, status in TODO_MARKS.items():
        if line.startswith(mark):
            return Todo(content=line[len(mark) :], status=status)
    return Todo(content=line)


async def _request(
    handle: WorkflowHandle, rpc_timeout: timedelta, converter: DataConverter
) -> MiningInput:
    """The run's input, from its history's first event."""
    async for event in handle.fetch_history_events(rpc_timeout=rpc_timeout):
        if event.event_type != EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
            break
        payloads = event.workflow_execution_started_event_attributes.input.payloads
        if payloads:
            try:
                decoded = await converter.decode(payloads, [MiningInput])
            except Exception:  # noqa: BLE001  (the request is a nicety beside the result)
                break
            return decoded[0]
        break
    return MiningInput()


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _tags(value: object) -> list[str]:
    return [t for t in value if isinstance(t, str)] if isinstance(value, list) else []
