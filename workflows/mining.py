"""MiningWorkflow: discovery → enrichment → validation → review → publish, durably.

The agent loops replay here; every model call and I/O tool call is an activity.
Reviewers decide through signals (`approve`, `edit`, `reject`) or the `decide`
update; `workspace` answers with the live state in every phase.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

from pydantic import ValidationError
from temporalio import workflow
from temporalio.common import RetryPolicy
from temporalio.exceptions import ActivityError, ApplicationError, is_cancelled_exception

from workflows.contracts import (
    Candidate,
    Decision,
    DecisionResult,
    KnowledgeMinerResponse,
    MiningInput,
    MiningRequest,
    Phase,
    PublishedAsset,
    RuntimeConfig,
    Triplet,
    Workspace,
    memory_tags,
)
from workflows.review import ReviewBoard, apply_score
from workflows.subagents import SubagentRunner
from workflows.tool_contracts import (
    AppendNotesInput,
    AppendNotesOutput,
    LoadNotesInput,
    PublishArgs,
    PublishResult,
    ScoreArgs,
    ToolResponse,
)
from workflows.workspace import response_from

SHORT = timedelta(seconds=20)
RETRY = RetryPolicy(maximum_attempts=10, initial_interval=timedelta(seconds=1))
NOTE_OF = {
    "discovery": "discovery-notes",
    "enrichment": "schema-notes",
    "validation": "validation-rules",
}


@workflow.defn
class MiningWorkflow:
    def __init__(self) -> None:
        self._ws = Workspace()
        self._board = ReviewBoard()
        self._rules_text = ""

    # -- the run -------------------------------------------------------------

    @workflow.run
    async def run(self, raw: MiningInput) -> KnowledgeMinerResponse:
        request = self._validated(raw)
        info = workflow.info()
        tags = request.domainTags
        self._ws = Workspace(
            runId=info.workflow_id, threadId=request.threadId, query=request.query, domainTags=tags
        )
        try:
            await self._mine(request)
        except BaseException as exc:
            # A cancel reaches us as CancelledError or wrapped in the activity it stopped.
            cancelled = isinstance(exc, asyncio.CancelledError) or is_cancelled_exception(exc)
            self._enter(Phase.CANCELED if cancelled else Phase.FAILED)
            if not cancelled:
                self._ws.errors.append(str(exc))
            raise
        # A decision still re-validating must finish before the run reports.
        await workflow.wait_condition(workflow.all_handlers_finished)
        self._ws.decisions = list(self._board.decisions)
        return response_from(self._ws, list(self._board.candidates.values()))

    async def _mine(self, request: MiningRequest) -> None:
        runtime = await workflow.execute_activity(
            "get_runtime_config",
            result_type=RuntimeConfig,
            start_to_close_timeout=SHORT,
            retry_policy=RETRY,
        )
        folders = memory_tags(request.domainTags)
        memory: dict[str, str] = await workflow.execute_activity(
            "load_memory_notes",
            LoadNotesInput(tags=folders),
            result_type=dict[str, str],
            start_to_close_timeout=SHORT,
            retry_policy=RETRY,
        )
        self._rules_text = "\n".join(
            text for path, text in sorted(memory.items()) if path.endswith("validation-rules.md")
        )
        agents = SubagentRunner(self._ws, runtime.model, request, memory)

        self._enter(Phase.DISCOVERY)
        discovery = await agents.discovery()
        await self._remember("discovery", discovery.notes, folders)

        self._enter(Phase.ENRICHMENT)
        enrichment = await agents.enrichment(discovery.statements)
        await self._remember("enrichment", enrichment.notes, folders)
        for row in enrichment.proposed:
            self._board.candidates[row["candidateId"]] = Candidate(
                id=row["candidateId"], asset=row["asset"]
            )
            self._ws.triplets.extend(Triplet(**t) for t in row.get("triplets", []))

        self._enter(Phase.VALIDATION)
        validation = await agents.validation(
            [{"candidateId": c.id, "asset": c.asset} for c in self._board.candidates.values()],
            self._rules_text,
        )
        await self._score_all(validation.scores)
        self._ws.synthesizedReport = validation.report
        await self._remember("validation", validation.notes, folders)

        await self._review(request)

        self._enter(Phase.PUBLISHING)
        await self._publish(request)
        published = len(self._ws.publishedAssets)
        self._ws.summary = (
            f"{discovery.summary} {enrichment.summary} {published} of "
            f"{len(self._board.candidates)} candidates published to the DKG."
        )
        self._enter(Phase.COMPLETED)

    def _enter(self, phase: Phase) -> None:
        self._ws.phase = phase
        self._ws.phaseHistory.append(phase)

    @staticmethod
    def _validated(raw: MiningInput) -> MiningRequest:
        try:
            return MiningRequest.model_validate(raw.model_dump(exclude_none=True))
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
        written = await workflow.execute_activity(
            "append_memory_notes",
            AppendNotesInput(
                runId=self._ws.runId, step=step, tags=folders, note=NOTE_OF[step], lines=notes
            ),
            result_type=AppendNotesOutput,
            start_to_close_timeout=SHORT,
            retry_policy=RETRY,
        )
        for path in written.paths:
            if path not in self._ws.memoryWrites:
                self._ws.memoryWrites.append(path)

    async def _score(self, candidates: list[Candidate]) -> list[dict[str, Any]]:
        response = await workflow.execute_activity(
            "score_candidates",
            ScoreArgs(
                candidates=[{"candidateId": c.id, "asset": c.asset} for c in candidates],
                validationRules=self._rules_text,
            ),
            result_type=ToolResponse,
            start_to_close_timeout=timedelta(seconds=60),
            retry_policy=RETRY,
        )
        return [r for r in response.results if "candidateId" in r]

    async def _score_all(self, rows: list[dict[str, Any]]) -> None:
        """Apply the validation agent's scores; score what it left out ourselves."""
        for row in rows:
            apply_score(self._board.candidates[row["candidateId"]], row)
        scored = {row["candidateId"] for row in rows}
        missing = [c for cid, c in self._board.candidates.items() if cid not in scored]
        if missing:
            # Confidence is never guessed: what the model did not score, the formula does.
            for row in await self._score(missing):
                apply_score(self._board.candidates[row["candidateId"]], row)

    # -- review ----------------------------------------------------------------

    async def _review(self, request: MiningRequest) -> None:
        board = self._board
        if not board.candidates:
            return
        if request.review == "auto":
            for candidate in board.candidates.values():
                board.record(
                    Decision(
                        candidateId=candidate.id,
                        action="approve" if candidate.accepted else "reject",
                        reason=None if candidate.accepted else "below the accept threshold",
                        reviewer="auto",
                    )
                )
            return
        self._enter(Phase.REVIEW)
        try:
            await workflow.wait_condition(
                board.settled, timeout=timedelta(seconds=request.reviewTimeoutSeconds)
            )
        except TimeoutError:
            board.expire()
            self._ws.errors.append("review deadline passed: undecided candidates expired")
            await workflow.wait_condition(lambda: board.revalidating == 0)

    async def _revalidate(self, candidate_id: str) -> None:
        candidate = self._board.candidates[candidate_id]
        try:
            rows = await self._score([candidate])
        except ActivityError as exc:
            self._ws.errors.append(f"re-validation of {candidate_id} failed: {exc.cause or exc}")
            self._board.revalidated(candidate_id, None, str(exc.cause or exc))
            return
        self._board.revalidated(candidate_id, rows[0])

    async def _decide(self, decisions: list[Decision]) -> list[DecisionResult]:
        # Record the whole batch before the first await: nothing can slip in between.
        for decision in decisions:
            self._board.record(decision)
        for decision in decisions:
            if decision.action == "edit":
                await self._revalidate(decision.candidateId)
        return [self._board.result(d.candidateId) for d in decisions]

    def _refusal(self, decisions: list[Decision]) -> str | None:
        if self._ws.phase != Phase.REVIEW:
            return f"run is in phase {self._ws.phase.value}, decisions are taken in REVIEW"
        return self._board.problem(decisions)

    @workflow.signal
    async def approve(self, candidate_id: str) -> None:
        await self._signal(Decision(candidateId=candidate_id, action="approve"))

    @workflow.signal
    async def edit(self, candidate_id: str, asset: dict[str, Any]) -> None:
        await self._signal(Decision(candidateId=candidate_id, action="edit", asset=asset))

    @workflow.signal
    async def reject(self, candidate_id: str, reason: str = "") -> None:
        await self._signal(Decision(candidateId=candidate_id, action="reject", reason=reason))

    async def _signal(self, decision: Decision) -> None:
        # A signal cannot answer with an error, so a bad one is recorded and ignored.
        problem = self._refusal([decision])
        if problem:
            self._ws.errors.append(f"ignored {decision.action} signal: {problem}")
            return
        await self._decide([decision])

    @workflow.update
    async def decide(self, decisions: list[Decision]) -> list[DecisionResult]:
        return await self._decide(decisions)

    @decide.validator
    def _check_decide(self, decisions: list[Decision]) -> None:
        problem = self._refusal(decisions)
        if problem:
            raise ValueError(problem)

    # -- publish and report ------------------------------------------------------

    async def _publish(self, request: MiningRequest) -> None:
        domain = request.domainTags[0] if request.domainTags else None
        for cid in sorted(self._board.candidates):
            candidate = self._board.candidates[cid]
            if candidate.status != "approved":
                continue
            try:
                result = await workflow.execute_activity(
                    "dkg_publish_asset",
                    PublishArgs(
                        runId=self._ws.runId, candidateId=cid, asset=candidate.asset, domain=domain
                    ),
                    result_type=PublishResult,
                    # A remote publish is a chain transaction plus polling: minutes, not seconds.
                    start_to_close_timeout=timedelta(minutes=10),
                    heartbeat_timeout=timedelta(seconds=20),
                    retry_policy=RETRY,
                )
            except ActivityError as exc:
                if is_cancelled_exception(exc):
                    raise
                # One asset the DKG refuses must not cost the others their publication.
                candidate.reviewNote = f"not published: {exc.cause or exc}"
                self._ws.errors.append(f"publishing {cid} failed: {exc.cause or exc}")
                continue
            candidate.status = "published"
            candidate.publishedUal = result.ual
            self._ws.publishedAssets.append(PublishedAsset(candidateId=cid, ual=result.ual))

    @workflow.query
    def workspace(self) -> Workspace:
        # Rebuilt from a dump so every field counts as set: the converter drops
        # unset fields, and in-place appends do not mark a field as set.
        review = self._ws.phase == Phase.REVIEW
        return Workspace.model_validate(
            {
                **self._ws.model_dump(),
                "candidates": [c.model_dump() for c in self._board.candidates.values()],
                "decisions": [d.model_dump() for d in self._board.decisions],
                "pendingApprovals": self._board.pending() if review else [],
            }
        )
