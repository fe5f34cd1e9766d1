"""The run's queries and its ordered log (workflows/run_log.py), for MiningWorkflow.

Workflow code, inherited by `MiningWorkflow` through `RunSteps`. `_sync` records the
workspace into the log; the workflow calls it where its state may have changed: when a
phase begins or ends, after each step of an agent loop (with the tool calls and results
the step made), before each activity it schedules, after a batch of decisions and after
each publication. It issues no command, so recorded histories replay as they are, and a
replay rebuilds the same log: the same points, stamped by the run's clock, which reads the
same time live and in replay where `workflow.now()` does not (after a local activity).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from temporalio import workflow

from contracts.run import Phase, Workspace
from contracts.run_log import RunLogPage
from workflows.continuation import HistoryTotals
from workflows.review import ReviewBoard
from workflows.run_clock import RunClock
from workflows.run_log import PAGE_LIMIT, RunLog, workspace_view
from workflows.subagents import SubagentRunner


class LoggedRun:
    """The live workspace, its log and the queries that read them."""

    _ws: Workspace
    _board: ReviewBoard
    _history: HistoryTotals
    _agents: SubagentRunner | None
    _log: RunLog
    _clock: RunClock  # workflow time as every replay reads it (workflows/run_clock.py)

    def _view(self) -> dict[str, Any]:
        """The workspace as the log holds it: the candidates and decisions are the
        review board's, the pending ones only while the run is in REVIEW."""
        board = self._board
        return workspace_view(
            self._ws,
            candidates=[c.model_dump(mode="json") for c in board.candidates.values()],
            decisions=[d.model_dump(mode="json") for d in board.decisions],
            pendingApprovals=board.pending() if self._ws.phase == Phase.REVIEW else [],
        )

    def _sync(self, events: Iterable[dict[str, Any]] = ()) -> None:
        """Record what changed since the last record (after `events`)."""
        self._log.record(self._view(), self._clock.now(), events)

    # -- queries -----------------------------------------------------------------

    @workflow.query
    def run_log(self, after: int = -1, limit: int = PAGE_LIMIT) -> RunLogPage:
        """The log's entries after `after` (-1: from the start), at most `limit`."""
        return self._log.page(after, max(1, min(limit, PAGE_LIMIT)))

    @workflow.query
    def research_file(self, path: str) -> str | None:
        """A research file's text (the workspace lists path and size), None if unknown."""
        return self._agents.file_texts.get(path) if self._agents else None

    @workflow.query
    def workspace(self) -> Workspace:
        # Rebuilt from a dump so every field counts as set: the converter drops
        # unset fields, and in-place appends do not mark a field as set.
        info = workflow.info()
        return Workspace.model_validate(
            {
                **self._view(),
                # The whole chain: the earlier runs' totals plus this run's so far.
                "historyEvents": self._history.events + info.get_current_history_length(),
                "historyBytes": self._history.bytes + info.get_current_history_size(),
                "historyRuns": self._history.runs + 1,
            }
        )
