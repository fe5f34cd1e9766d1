"""MiningWorkflow: discovery → enrichment → validation → review → publish, durably.

The agent loops replay here; every model call and I/O tool call is an activity.
Reviewers decide through signals (`approve`, `edit`, `reject`) or the `decide`
update; `workspace` answers with the live state in every phase. Scoring, the answer,
review and publishing are workflows/review_and_publish.py (inherited).
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any

from pydantic import ValidationError
from temporalio import workflow
from temporalio.exceptions import ApplicationError, is_cancelled_exception

import workflows.passthrough  # noqa: F401  (first: contracts shared, see its docstring)
from contracts.activity_names import (
    APPEND_MEMORY_NOTES,
    GET_RUNTIME_CONFIG,
    LOAD_MEMORY_NOTES,
)
from contracts.run import (
    Candidate,
    ContradictionRecord,
    Decision,
    DecisionResult,
    KnowledgeMinerResponse,
    MiningInput,
    MiningRequest,
    Phase,
    RuntimeConfig,
    Triplet,
    Workspace,
    memory_tags,
)
from contracts.tools import (
    AppendNotesInput,
    AppendNotesOutput,
    LoadNotesInput,
)
from workflows import run_metrics
from workflows.continuation import (
    STAGES,
    HistoryTotals,
    RunCheckpoint,
    Stage,
    checkpoint_of,
    continue_due,
    totals_after_this_run,
)
from workflows.degradation import with_degraded_lines
from workflows.model_limits import run_limits
from workflows.patches import (
    BUDGETS_PATCH,
    CONTINUE_AS_NEW_PATCH,
    RESEARCH_PATCH,
    RunPatches,
)
from workflows.research import ResearchRunner, research_config
from workflows.research_planner import PLANNER_ROLE
from workflows.research_synthesis import merged, provenance
from workflows.review import ReviewBoard, scored_report
from workflows.review_and_publish import RunSteps
from workflows.run_clock import RUN_CLOCK, RunClock
from workflows.run_log import RunLog, workspace_view
from workflows.search_attributes import KM_THREAD
from workflows.subagents import SubagentOutcome, SubagentRunner
from workflows.workspace import response_from

SIGNAL_REVIEWER = "temporal-cli"
RULES_MODEL = "rules"
EMBEDDED_DKG = "embedded"  # RuntimeConfig.dkg of a worker with the store on its own disk
NOTE_OF = {
    "discovery": "discovery-notes",
    "enrichment": "schema-notes",
    "validation": "validation-rules",
}


@workflow.defn
class MiningWorkflow(RunSteps):
    def __init__(self) -> None:
        # First, in the run's first activation: see workflows/patches.py.
        self.run_patches = RunPatches()
        self._ws = Workspace()
        self._board = ReviewBoard()
        # Every change of the workspace, in order (workflows/run_logging.py).
        self._log = RunLog(workspace_view(Workspace()))
        # The time it stamps with, the same live and in replay (workflows/run_clock.py).
        self._clock = RunClock()
        self._rules_text = ""
        self._searched = 0
        self._indexed = False
        self._phase_began: datetime | None = None
        self._model = "unknown"
        self._agents: SubagentRunner | None = None
        self._tool_queue: str | None = None  # RuntimeConfig.toolTaskQueue
        self._runtime = RuntimeConfig(model="unknown", search="unknown", dkg="unknown")
        self._memory: dict[str, str] = {}
        # What one stage hands the next (carried across a continue-as-new).
        self._statements: list[dict[str, Any]] = []
        self._origin: dict[tuple[str, str], int] | None = None
        self._discovery_summary = ""
        self._enrichment_summary = ""
        # The earlier runs of this workflow id's continue-as-new chain.
        self._history = HistoryTotals()

    # -- the run -------------------------------------------------------------

    @workflow.run
    async def run(self, raw: MiningInput) -> KnowledgeMinerResponse:
        request = self._validated(raw)
        RUN_CLOCK.set(self._clock)  # for the agent tools and research steps of this run
        # Set when an earlier run of this workflow id continued as new.
        carried = checkpoint_of(raw.continued)
        info = workflow.info()
        # Indexed only if the starter set our search attributes (so they are registered).
        self._indexed = info.typed_search_attributes.get(KM_THREAD) is not None
        tags = request.domainTags
        self._phase_began = workflow.now()
        self._ws = Workspace(
            runId=info.workflow_id, threadId=request.threadId, query=request.query, domainTags=tags
        )
        if carried is not None:
            # Before any await: the first query of this run already sees the workspace.
            self._resume(carried)
        self._sync()
        try:
            await self._mine(raw, request, carried)
        except workflow.ContinueAsNewError:
            raise  # not an end: the next run of the chain goes on
        except BaseException as exc:
            # A cancel reaches us as CancelledError or wrapped in the activity it stopped.
            cancelled = isinstance(exc, asyncio.CancelledError) or is_cancelled_exception(exc)
            self._enter(Phase.CANCELED if cancelled else Phase.FAILED)
            if not cancelled:
                self._ws.errors.append(str(exc))
                self._sync()
            run_metrics.run_ended(self._ws.phase.value.lower(), self._model, self._ws.usage)
            raise
        # A decision still re-validating must finish before the run reports.
        await workflow.wait_condition(workflow.all_handlers_finished)
        self._ws.decisions = list(self._board.decisions)
        self._sync()
        run_metrics.run_ended("completed", self._model, self._ws.usage)
        return response_from(self._ws, list(self._board.candidates.values()))

    async def _mine(
        self, raw: MiningInput, request: MiningRequest, carried: RunCheckpoint | None
    ) -> None:
        folders = memory_tags(request.domainTags)
        if carried is None:
            runtime = await self._step(GET_RUNTIME_CONFIG, None, RuntimeConfig)
            memory: dict[str, str] = await self._step(
                LOAD_MEMORY_NOTES, LoadNotesInput(tags=folders), dict[str, str]
            )
        else:  # the chain keeps the first run's configuration and memory notes
            runtime, memory = carried.runtime, carried.memory
        self._runtime, self._memory = runtime, memory
        self._rules_text = "\n".join(
            text for path, text in sorted(memory.items()) if path.endswith("validation-rules.md")
        )
        self._model = runtime.model
        budgets = self._patched(BUDGETS_PATCH)
        self._tool_queue = runtime.toolTaskQueue
        # The cheap tools run beside the workflow only where this worker holds the DKG.
        local_reads = runtime.toolTaskQueue is None and runtime.dkg == EMBEDDED_DKG
        self._agents = SubagentRunner(
            self._ws, runtime.model, request, memory, runtime.toolTaskQueue, budgets=budgets,
            local_reads=local_reads, model_queue=runtime.modelTaskQueue,
            model_limits=run_limits(request, runtime), on_change=self._sync,
        )  # fmt: skip
        if carried is not None:
            self._agents.restore(carried.agents)
        stages = {
            "discovery": self._discover,
            "enrichment": self._enrich,
            "validation": self._validate,
            "review": self._review,
            "publishing": self._finish,
        }
        first = STAGES.index(carried.stage) if carried is not None else 0
        for index in range(first, len(STAGES)):
            if index > first:
                await self._continue_if_due(raw, STAGES[index])
            await stages[STAGES[index]](request, folders)

    async def _discover(self, request: MiningRequest, folders: list[str]) -> None:
        agents = self._subagents()
        self._enter(Phase.DISCOVERY)
        if self._patched(RESEARCH_PATCH):
            discovery = await self._research(request, self._runtime, self._memory, agents)
        else:
            discovery = await agents.discovery()
        await self._remember("discovery", discovery.notes, folders)
        self._statements = discovery.statements
        self._discovery_summary = discovery.summary
        self._searched = discovery.sources

    async def _enrich(self, request: MiningRequest, folders: list[str]) -> None:
        self._enter(Phase.ENRICHMENT)
        enrichment = await self._subagents().enrichment(self._statements)
        await self._remember("enrichment", enrichment.notes, folders)
        for row in enrichment.proposed:
            self._board.candidates[row["candidateId"]] = Candidate(
                id=row["candidateId"],
                asset=row["asset"],
                kind=row.get("kind", "claim"),
                knownInDkg=row.get("knownInDkg", []),
                contradictions=[
                    ContradictionRecord.model_validate(r) for r in row.get("contradictions", [])
                ],
            )
            self._ws.triplets.extend(Triplet(**t) for t in row.get("triplets", []))
        task, origin = self._ws.research, self._origin
        if task is not None and origin is not None:  # which sub-question found the evidence
            found = provenance(task, origin, enrichment.proposed)
            self._ws.triplets.extend(Triplet(**t) for t in found)
        self._enrichment_summary = enrichment.summary

    async def _validate(self, request: MiningRequest, folders: list[str]) -> None:
        self._enter(Phase.VALIDATION)
        validation = await self._subagents().validation(self._entries(), self._rules_text)
        await self._score_all(validation.scores)
        report = scored_report(validation.report, list(self._board.candidates.values()))
        self._ws.synthesizedReport = with_degraded_lines(report, self._ws.degradedSteps)
        self._ws.answer = await self._answer(request)
        await self._remember("validation", validation.notes, folders)

    async def _finish(self, request: MiningRequest, folders: list[str]) -> None:
        self._enter(Phase.PUBLISHING)
        await self._publish(request)
        self._ws.answer = await self._answer(request)
        published = len(self._ws.publishedAssets)
        self._ws.summary = (
            f"{self._discovery_summary} {self._enrichment_summary} {published} of "
            f"{len(self._board.candidates)} candidates published to the DKG."
        )
        self._enter(Phase.COMPLETED)

    def _subagents(self) -> SubagentRunner:
        assert self._agents is not None, "built before the first stage"
        return self._agents

    # -- continue-as-new -----------------------------------------------------------

    async def _continue_if_due(self, raw: MiningInput, stage: Stage) -> None:
        """Between two stages, continue as new when the history has grown too large.
        Runs recorded before this existed never continued, so their replay never does."""
        if not continue_due(self._runtime.continueAsNewBytes):
            return
        if not self._patched(CONTINUE_AS_NEW_PATCH):
            return
        # No decision may be half applied: the next run starts from this state.
        await workflow.wait_condition(workflow.all_handlers_finished)
        # As plain JSON: the converter drops fields pydantic counts as unset, and in-place
        # appends (most of the workspace) do not count as set.
        state = self._checkpoint(stage).model_dump(mode="json")
        workflow.continue_as_new(
            MiningInput.model_validate({**raw.model_dump(exclude_unset=True), "continued": state})
        )

    def _checkpoint(self, stage: Stage) -> RunCheckpoint:
        origin = self._origin
        return RunCheckpoint(
            stage=stage, runtime=self._runtime, memory=self._memory, workspace=self._ws,
            candidates=list(self._board.candidates.values()), decisions=self._board.decisions,
            reviewClosed=self._board.closed, statements=self._statements,
            origin=None if origin is None else [(s, i, q) for (s, i), q in origin.items()],
            discoverySummary=self._discovery_summary,
            enrichmentSummary=self._enrichment_summary, sourcesSearched=self._searched,
            agents=self._subagents().snapshot(), history=totals_after_this_run(self._history),
            log=self._log.carried(),
        )  # fmt: skip

    def _resume(self, carried: RunCheckpoint) -> None:
        self._ws = carried.workspace
        self._board.candidates = {c.id: c for c in carried.candidates}
        self._board.decisions = list(carried.decisions)
        self._board.closed = carried.reviewClosed
        self._statements = carried.statements
        if carried.origin is not None:
            self._origin = {(s, i): q for s, i, q in carried.origin}
        self._discovery_summary = carried.discoverySummary
        self._enrichment_summary = carried.enrichmentSummary
        self._searched = carried.sourcesSearched
        self._history = carried.history
        if carried.log is not None:  # chains recorded before the log start a new one
            self._log = RunLog.restored(carried.log)

    async def _research(
        self,
        request: MiningRequest,
        runtime: RuntimeConfig,
        memory: dict[str, str],
        agents: SubagentRunner,
    ) -> SubagentOutcome:
        """Discovery as a research task: a cached one reused, or a plan of sub-questions
        gathered by priority. The rules policy's discovery *is* that plan; a real model's
        discovery agent runs after it, told the findings, and may search further."""
        llm = runtime.model != RULES_MODEL
        planner = agents.callbacks(PLANNER_ROLE) if llm else []
        runner = ResearchRunner(
            self._ws, request, research_config(request, runtime), memory, runtime.search,
            lambda todos: agents.set_todos("discovery", todos),
            runtime.model, planner, runtime.toolTaskQueue, runtime.modelTaskQueue,
            run_limits(request, runtime),
        )  # fmt: skip
        research = await runner.run()
        self._origin = runner.origin
        if planner:
            agents.priced(PLANNER_ROLE)
        out = SubagentOutcome(
            summary=research.summary, notes=research.notes, statements=research.statements,
            sources=len(research.sources),
        )  # fmt: skip
        if not llm or research.cache_hit:
            return out
        agent = await agents.discovery(findings=research.findings)
        out.statements = merged([research.statements, agent.statements])
        out.sources += agent.sources
        out.summary = f"{research.summary} {agent.summary}".strip()
        out.notes = research.notes + agent.notes
        return out

    @staticmethod
    def _validated(raw: MiningInput) -> MiningRequest:
        try:
            return MiningRequest.model_validate(
                raw.model_dump(exclude_none=True, exclude={"continued"})
            )
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'request'}: {e['msg']}"
                for e in exc.errors()
            )
            raise ApplicationError(
                f"invalid mining request: {problems}", type="InvalidRequest", non_retryable=True
            ) from None

    async def _remember(self, step: str, notes: list[str], folders: list[str]) -> None:
        if not notes:
            return
        written = await self._step(
            APPEND_MEMORY_NOTES,
            AppendNotesInput(
                runId=self._ws.runId, step=step, tags=folders, note=NOTE_OF[step], lines=notes
            ),
            AppendNotesOutput,
        )
        for path in written.paths:
            if path not in self._ws.memoryWrites:
                self._ws.memoryWrites.append(path)

    # -- review ----------------------------------------------------------------

    # Signals come from the Temporal CLI (the API and kminer use the `decide` update).
    @workflow.signal
    async def approve(self, candidate_id: str) -> None:
        await self._signal(
            Decision(candidateId=candidate_id, action="approve", reviewer=SIGNAL_REVIEWER)
        )

    @workflow.signal
    async def edit(self, candidate_id: str, asset: dict[str, Any]) -> None:
        await self._signal(
            Decision(candidateId=candidate_id, action="edit", asset=asset, reviewer=SIGNAL_REVIEWER)
        )

    @workflow.signal
    async def reject(self, candidate_id: str, reason: str = "") -> None:
        await self._signal(
            Decision(
                candidateId=candidate_id, action="reject", reason=reason, reviewer=SIGNAL_REVIEWER
            )
        )

    @workflow.update
    async def decide(self, decisions: list[Decision]) -> list[DecisionResult]:
        return await self._decide(decisions)

    @decide.validator
    def _check_decide(self, decisions: list[Decision]) -> None:
        problem = self._refusal(decisions)
        if problem:
            raise ValueError(problem)
