"""Deep research inside discovery (seed 004): cache, plan, gather by priority, synthesis.

Workflow code: deterministic, every I/O step an activity. The cheap steps (cache lookup
and store, the rules plan) are local activities; each priority group of sub-questions is
one `research_gather` activity that runs them concurrently (at most
`max_concurrent_subtasks` at once), groups in priority order. A failed sub-question (or
a whole group whose activity failed) is recorded with its error and the run goes on.
Statuses follow seed 004 per task and sub-question, live in the workspace.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from temporalio.common import RetryPolicy
from temporalio.exceptions import ActivityError, is_cancelled_exception

from contracts.activity_names import (
    PLAN_RESEARCH,
    RESEARCH_CACHE_LOOKUP,
    RESEARCH_CACHE_STORE,
    RESEARCH_GATHER,
)
from contracts.model_calls import DegradedStep, ModelLimits
from contracts.research import (
    CacheLookupArgs,
    CacheLookupResult,
    CacheStoreArgs,
    GatherArgs,
    GatherResult,
    PlanArgs,
    PlanResult,
    ResearchConfig,
    ResearchQuestion,
    ResearchQuestionResult,
    ResearchSubtask,
    ResearchTask,
    ResearchTaskStatus,
)
from contracts.run import MiningRequest, RuntimeConfig, Todo, Workspace
from contracts.tools import Statement
from workflows.research_planner import PLANNER_ROLE, as_plan, model_plan
from workflows.research_synthesis import (
    ANGLE_RELEVANCE,
    evidence_ref,
    findings,
    merged,
    notes,
    provenance,
    sources_of,
    summary,
    synthesis,
)
from workflows.run_clock import run_clock

S = ResearchTaskStatus
RULES_MODEL = "rules"
LOCAL_TIMEOUT = timedelta(seconds=30)
RETRY = RetryPolicy(maximum_attempts=5, initial_interval=timedelta(seconds=1))
GATHER_TIMEOUT = timedelta(minutes=5)
# The gather activity heartbeats every 2 s (the SDK sends at most one per 0.8 x this
# timeout): a dead worker's group is retried within seconds, its checkpoint fresh.
GATHER_HEARTBEAT = timedelta(seconds=6)
TODO_STATUS = {
    S.PENDING: "pending",
    S.GATHERING: "in_progress",
    S.COMPLETED: "completed",
    S.FAILED: "completed",
}


@dataclass
class ResearchOutcome:
    statements: list[dict[str, Any]]
    sources: list[str]
    summary: str
    notes: list[str]
    cache_hit: bool = False
    findings: list[str] = field(default_factory=list)


def research_config(request: MiningRequest, runtime: RuntimeConfig) -> ResearchConfig:
    """The request's config, else the worker's environment defaults, else seed 004's."""
    return request.research or runtime.research or ResearchConfig()


class ResearchRunner:
    def __init__(
        self,
        ws: Workspace,
        request: MiningRequest,
        config: ResearchConfig,
        memory: dict[str, str],
        search: str,
        set_todos: Callable[[list[Todo]], None],
        model: str = "rules",
        callbacks: list[Any] | None = None,
        tool_queue: str | None = None,
        model_queue: str | None = None,
        model_limits: ModelLimits | None = None,
    ) -> None:
        self._ws = ws
        self._model_queue = model_queue  # where the planner's model calls run; None: here
        self._model_limits = model_limits  # their timeouts and attempts (KM_MODEL_*)
        # Where the DKG / search activities run (`kminer worker --role tools`); None: here.
        self._tool_queue = tool_queue
        self._request = request
        self._config = config
        self._memory = {p: t for p, t in memory.items() if p.endswith("/discovery-notes.md")}
        self._search = search
        self._set_todos = set_todos
        self._model = model
        self._callbacks = callbacks or []
        # Which sub-question first found each piece of evidence (for provenance triplets).
        self.origin: dict[tuple[str, str], int] = {}
        now = self._now()
        self.task = ResearchTask(
            id=ws.runId, query=request.query, conversation_id=request.threadId,
            status=S.PENDING, created_at=now, updated_at=now, config=config,
        )  # fmt: skip
        ws.research = self.task

    @staticmethod
    def _now() -> str:
        return run_clock().now().isoformat()

    def _status(self, status: ResearchTaskStatus) -> None:
        self.task.status = status
        self.task.updated_at = self._now()
        if status in (S.COMPLETED, S.FAILED):
            self.task.completed_at = self.task.updated_at
        self._ws.research = self.task

    def _todos(self) -> None:
        self._set_todos(
            [
                Todo(
                    content=f"[p{s.question.execution_priority} {s.question.node_type}] "
                    f"{s.question.question}",
                    status=TODO_STATUS.get(s.status, "pending"),
                    agent="discovery",
                )
                for s in self.task.subtasks
            ]
        )

    async def _local(self, name: str, arg: Any, result_type: Any) -> Any:
        return await run_clock().local_activity(
            name, arg, result_type=result_type,
            start_to_close_timeout=LOCAL_TIMEOUT, retry_policy=RETRY,
        )  # fmt: skip

    async def _with_dkg(self, name: str, arg: Any, result_type: Any) -> Any:
        """A cheap step that reads the DKG: local beside the workflow, unless the DKG is
        owned by a tools worker (the choice comes from the run's recorded runtime config,
        so a replay makes the same one)."""
        if self._tool_queue is None:
            return await self._local(name, arg, result_type)
        return await run_clock().activity(
            name, arg, result_type=result_type, task_queue=self._tool_queue,
            start_to_close_timeout=LOCAL_TIMEOUT, retry_policy=RETRY,
        )  # fmt: skip

    # -- the task ---------------------------------------------------------------------

    async def run(self) -> ResearchOutcome:
        if self._config.enable_caching:
            found: CacheLookupResult = await self._local(
                RESEARCH_CACHE_LOOKUP,
                CacheLookupArgs(
                    threadId=self._request.threadId, query=self._request.query,
                    similarityThreshold=self._config.similarity_threshold,
                    maxAgeDays=self._config.max_age_days, now=self._now(),
                ),
                CacheLookupResult,
            )  # fmt: skip
            self.task.cacheLookup = found.metadata
            if found.hit is not None:
                return self._reused(found)
        self._status(S.PLANNING)
        planned = await self._plan()
        now = self._now()
        self.task.plan = planned.plan
        self.task.subtasks = [
            ResearchSubtask(
                id=q.id, task_id=self.task.id, question=q, created_at=now, updated_at=now
            )
            for q in planned.questions
        ]
        self._todos()
        self._status(S.GATHERING)
        found_by: dict[int, list[dict[str, Any]]] = {}
        seen: list[str] = []
        for priority in sorted({q.execution_priority for q in planned.questions}):
            group = [q for q in planned.questions if q.execution_priority == priority]
            await self._gather(group, found_by, seen)
        self._status(S.PROCESSING)
        # Sub-question 1 is the question itself; the other angles must be more relevant.
        groups = [found_by.get(s.id, []) for s in self.task.subtasks]
        statements = merged(groups, later=ANGLE_RELEVANCE)
        for sub in self.task.subtasks:
            for row in found_by.get(sub.id, []):
                self.origin.setdefault(evidence_ref(row), sub.id)
        self._status(S.SYNTHESIZING)
        sources = sources_of(self.task)
        self.task.synthesis = synthesis(self.task, self._config.synthesis_max_length)
        ok = any(s.status == S.COMPLETED for s in self.task.subtasks)
        self._status(S.COMPLETED if ok else S.FAILED)
        if not ok:
            self.task.error_message = "every sub-question failed"
        if ok and statements and self._config.enable_caching:
            await self._local(
                RESEARCH_CACHE_STORE,
                CacheStoreArgs(
                    taskId=self.task.id, threadId=self._request.threadId,
                    query=self._request.query, plan=self.task.plan, questions=planned.questions,
                    statements=[Statement.model_validate(s) for s in statements],
                    sources=sources, synthesis=self.task.synthesis,
                    completedAt=self.task.completed_at or self._now(),
                ),
                bool,
            )  # fmt: skip
        return ResearchOutcome(
            statements=statements, sources=sources,
            summary=summary(self.task, statements, sources),
            notes=notes(self.task, statements, sources), findings=findings(self.task),
        )  # fmt: skip

    async def _plan(self) -> PlanResult:
        """The model's plan (one repair allowed) with a real model; else, or when the model
        gives no valid plan, the deterministic decomposition."""
        request, config = self._request, self._config
        primary = min(20, 4 + 2 * request.maxIterations)
        if self._model != RULES_MODEL:
            chosen, problems, failure = await model_plan(
                self._model, request.query, request.domainTags, config.max_subtasks,
                self._callbacks, self._model_queue, self._model_limits,
            )  # fmt: skip
            self._ws.errors.extend(f"research plan: {p}" for p in problems)
            if failure is not None:
                step = DegradedStep(step=PLANNER_ROLE, reason=failure, fallback="rules plan")
                self._ws.degradedSteps.append(step)
            if chosen is not None:
                return as_plan(
                    request.query, chosen, config.max_subtasks, primary,
                    config.search_results_per_question, self._search,
                )  # fmt: skip
            self._ws.errors.append("research plan: no valid plan from the model, rules plan used")
        return await self._with_dkg(
            PLAN_RESEARCH,
            PlanArgs(
                query=request.query, domainTags=request.domainTags, memory=self._memory,
                maxSubtasks=config.max_subtasks, search=self._search,
                resultsPerQuestion=config.search_results_per_question, primaryResults=primary,
            ),
            PlanResult,
        )  # fmt: skip

    async def _gather(
        self, group: list[ResearchQuestion], found_by: dict[int, list[dict[str, Any]]],
        seen: list[str],
    ) -> None:  # fmt: skip
        subtasks = {s.id: s for s in self.task.subtasks}
        for q in group:
            subtasks[q.id].status = S.GATHERING
            subtasks[q.id].updated_at = self._now()
        self._todos()
        try:
            result: GatherResult = await run_clock().activity(
                RESEARCH_GATHER,
                GatherArgs(
                    runId=self.task.id, query=self._request.query, questions=group,
                    maxConcurrent=self._config.max_concurrent_subtasks, memory=self._memory,
                    seenPassages=seen, synthesisMaxLength=self._config.synthesis_max_length,
                ),
                result_type=GatherResult,
                task_queue=self._tool_queue,
                start_to_close_timeout=GATHER_TIMEOUT,
                heartbeat_timeout=GATHER_HEARTBEAT,
                retry_policy=RETRY,
                summary=f"research p{group[0].execution_priority}: {len(group)} sub-questions",
            )  # fmt: skip
        except ActivityError as exc:
            if is_cancelled_exception(exc):
                raise
            error = f"gathering failed: {exc.cause or exc}"
            for q in group:
                self._finish(subtasks[q.id], S.FAILED, error, ResearchQuestionResult(id=q.id))
            self._ws.errors.append(f"research priority {group[0].execution_priority}: {error}")
            self._todos()
            return
        for out in result.outcomes:
            sub = subtasks[out.id]
            sub.started, sub.ended = out.started, out.ended
            sub.statements = len(out.statements)
            found_by[out.id] = [s.model_dump(exclude_defaults=True) for s in out.statements]
            seen.extend(p for p in out.passages if p not in seen)
            answer = ResearchQuestionResult(
                id=out.id, sources=out.sources, synthesized_answer=out.finding,
                error_message=out.error_message,
            )  # fmt: skip
            self._finish(sub, out.status, out.error_message, answer)
            if out.status == S.FAILED:
                self._ws.errors.append(
                    f"research sub-question {out.id} failed: {out.error_message}"
                )
        self._todos()

    def _finish(
        self, sub: ResearchSubtask, status: ResearchTaskStatus, error: str | None,
        result: ResearchQuestionResult,
    ) -> None:  # fmt: skip
        sub.status = status
        sub.error_message = error
        sub.result = result
        sub.updated_at = self._now()

    def _reused(self, found: CacheLookupResult) -> ResearchOutcome:
        hit = found.hit
        assert hit is not None
        self.task.cacheHit = True
        self.task.reusedTaskId = hit.taskId
        self.task.similarity = hit.similarity
        self.task.plan = hit.plan
        self.task.synthesis = hit.synthesis
        self._status(S.COMPLETED)
        statements = [s.model_dump(exclude_defaults=True) for s in hit.statements]
        summary = (
            f"Research reused task {hit.taskId} (similarity {hit.similarity:.2f}, "
            f"asked {hit.createdAt[:10]}): {len(statements)} statements from "
            f"{len(hit.sources)} sources, no new search."
        )
        self._set_todos(
            [
                Todo(
                    content=f"Reuse research task {hit.taskId}",
                    status="completed",
                    agent="discovery",
                )
            ]
        )
        notes = [f"Question '{self._request.query}' reused research of '{hit.query}'"]
        return ResearchOutcome(
            statements=statements, sources=hit.sources, summary=summary, notes=notes,
            cache_hit=True,
        )  # fmt: skip

    def provenance(self, proposed: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Which sub-question found the evidence of each proposed candidate."""
        return provenance(self.task, self.origin, proposed)
