"""Continue-as-new of a long mining run: when it is due, and what the next run carries.

A run checks between its stages (a safe point: no agent loop half done, no reviewer
decision in flight) whether its history has grown past the run's threshold
(`RuntimeConfig.continueAsNewBytes`, KM_CONTINUE_AS_NEW_BYTES) or the server suggests
continuing; if so it continues as new with a `RunCheckpoint`, and the next run starts at
the stage after the checkpoint with the same workspace. Nothing here does I/O.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError
from temporalio import workflow
from temporalio.exceptions import ApplicationError

from contracts.run import (
    Candidate,
    Decision,
    FileInfo,
    RuntimeConfig,
    SpawnedSubagent,
    Todo,
    Workspace,
)

# The run's stages in order; a continued run resumes at the one its checkpoint names.
STAGES = ("discovery", "enrichment", "validation", "review", "publishing")
Stage = Literal["discovery", "enrichment", "validation", "review", "publishing"]


class AgentsState(BaseModel):
    """What the subagent runner mirrors into the workspace, by subagent."""

    todos: dict[str, list[Todo]] = Field(default_factory=dict)
    spawned: dict[str, list[SpawnedSubagent]] = Field(default_factory=dict)
    files: list[FileInfo] = Field(default_factory=list)
    fileTexts: dict[str, str] = Field(default_factory=dict)
    began: datetime  # the run's start, for the wall-time budget


class HistoryTotals(BaseModel):
    """The runs of the chain before this one: their events and bytes, summed."""

    events: int = 0
    bytes: int = 0
    runs: int = 0


class RunCheckpoint(BaseModel):
    """Everything the next run of the chain needs to go on where this one stopped."""

    stage: Stage
    runtime: RuntimeConfig
    memory: dict[str, str]
    workspace: Workspace
    candidates: list[Candidate] = Field(default_factory=list)
    decisions: list[Decision] = Field(default_factory=list)
    reviewClosed: bool = False
    # Discovery's statements (enrichment's input) and the sub-question that first found
    # each piece of evidence (source, id, question id), for the provenance triplets.
    statements: list[dict[str, Any]] = Field(default_factory=list)
    origin: list[tuple[str, str, int]] | None = None
    discoverySummary: str = ""
    enrichmentSummary: str = ""
    sourcesSearched: int = 0
    agents: AgentsState
    history: HistoryTotals = Field(default_factory=HistoryTotals)
    # The run log so far (workflows/run_log.py `RunLog.carried`): its sequence goes on.
    log: dict[str, Any] | None = None


def checkpoint_of(raw: Any) -> RunCheckpoint | None:
    """The checkpoint a continued run was started with (MiningInput.continued), if any."""
    if raw is None:
        return None
    try:
        return RunCheckpoint.model_validate(raw)
    except ValidationError as exc:
        raise ApplicationError(
            f"invalid continuation state: {exc.error_count()} problem(s), first: "
            f"{exc.errors()[0]['msg']}", type="InvalidRequest", non_retryable=True,
        ) from None  # fmt: skip


def continue_due(limit: int | None) -> bool:
    """History past `limit` bytes, or the server suggests continuing. Both values come
    from the workflow task's started event, so a replay decides the same."""
    info = workflow.info()
    if info.is_continue_as_new_suggested():
        return True
    return limit is not None and info.get_current_history_size() >= limit


def totals_after_this_run(before: HistoryTotals) -> HistoryTotals:
    """The chain's totals including this run, measured at its current workflow task."""
    info = workflow.info()
    return HistoryTotals(
        events=before.events + info.get_current_history_length(),
        bytes=before.bytes + info.get_current_history_size(),
        runs=before.runs + 1,
    )
