"""The steps of a MiningWorkflow after its agents: scoring, the answer, review and its
decisions, publishing; and the two helpers every stage uses (`_step`, `_enter`).

Workflow code, sandboxed like workflows/mining.py, whose `MiningWorkflow` inherits these
methods (its signal, update and query handlers stay on the workflow class itself). They
read and write the run's state, which the workflow's `__init__` sets up.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from temporalio import workflow
from temporalio.common import RetryPolicy
from temporalio.exceptions import ActivityError, ApplicationError, is_cancelled_exception

from contracts.activity_names import (
    AUDIT_DECISIONS,
    COMPOSE_ANSWER,
    DKG_PUBLISH_ASSET,
    SCORE_CANDIDATES,
)
from contracts.run import (
    Answer,
    Candidate,
    Decision,
    DecisionResult,
    MiningRequest,
    Phase,
    PublishedAsset,
    RuntimeConfig,
    Workspace,
    auto_review_reason,
)
from contracts.tools import (
    AnswerArgs,
    DecisionAuditArgs,
    PublishArgs,
    PublishResult,
    ScoreArgs,
    ToolResponse,
)
from workflows import run_metrics
from workflows.degradation import with_degraded_note
from workflows.patches import (
    AUDIT_DECISIONS_PATCH,
    HANDLERS_WAIT_PATCH,
    LOCAL_STEPS_PATCH,
    RunPatches,
)
from workflows.relink import relinked
from workflows.review import ReviewBoard, apply_score
from workflows.run_clock import RunClock
from workflows.run_logging import LoggedRun
from workflows.search_attributes import KM_PHASE, KM_PUBLISHED

SHORT = timedelta(seconds=20)
RETRY = RetryPolicy(maximum_attempts=10, initial_interval=timedelta(seconds=1))


class RunSteps(LoggedRun):
    """What MiningWorkflow does around its agents; the state is the workflow's own."""

    _ws: Workspace
    _board: ReviewBoard
    _rules_text: str
    _searched: int
    _indexed: bool
    _phase_began: datetime | None
    _tool_queue: str | None
    _runtime: RuntimeConfig
    _clock: RunClock
    run_patches: RunPatches

    def _patched(self, patch: str) -> bool:
        return self.run_patches.patched(patch)

    def _enter(self, phase: Phase) -> None:
        self._sync()  # what the phase before did is logged in it
        if self._phase_began is not None:
            run_metrics.phase_finished(self._ws.phase.value, self._phase_began)
        self._phase_began = workflow.now()
        self._ws.phase = phase
        self._ws.phaseHistory.append(phase)
        if self._indexed:
            workflow.upsert_search_attributes([KM_PHASE.value_set(phase.value)])
        self._sync()

    async def _step(self, name: str, arg: Any, result_type: Any) -> Any:
        """A cheap, short step (runtime config, memory notes, the answer, the decision
        audit): a local activity, so it costs no task-queue round trip. Runs recorded before
        this change replay it as the activity it was then."""
        args = [] if arg is None else [arg]
        self._sync()
        if self._patched(LOCAL_STEPS_PATCH):
            return await self._clock.local_activity(
                name, args=args, result_type=result_type,
                start_to_close_timeout=SHORT, retry_policy=RETRY,
            )  # fmt: skip
        return await self._clock.activity(
            name, args=args, result_type=result_type,
            start_to_close_timeout=SHORT, retry_policy=RETRY,
        )  # fmt: skip

    def _entries(self, only: list[Candidate] | None = None) -> list[dict[str, Any]]:
        """Candidates as the validation tools take them (claims and the entities they use)."""
        return [
            {
                "candidateId": c.id,
                "kind": c.kind,
                "asset": c.asset,
                "knownInDkg": c.knownInDkg,
                "contradictions": [r.model_dump() for r in c.contradictions],
            }
            for c in (only if only is not None else self._board.candidates.values())
        ]

    async def _answer(self, request: MiningRequest) -> Answer:
        answer = await self._step(
            COMPOSE_ANSWER,
            AnswerArgs(
                query=request.query,
                candidates=[
                    {
                        **entry,
                        "accepted": c.accepted,
                        "status": c.status,
                        "reviewNote": c.reviewNote,
                    }
                    for entry, c in zip(
                        self._entries(), self._board.candidates.values(), strict=True
                    )
                ],
                sourcesSearched=self._searched,
            ),
            Answer,
        )
        # A step that went on without its model says so (workflows/degradation.py).
        return with_degraded_note(answer, self._ws.degradedSteps)

    async def _score(self, candidates: list[Candidate]) -> list[dict[str, Any]]:
        self._sync()
        response = await self._clock.activity(
            SCORE_CANDIDATES,
            ScoreArgs(candidates=self._entries(candidates), validationRules=self._rules_text),
            result_type=ToolResponse,
            task_queue=self._tool_queue,
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

    async def _review(self, request: MiningRequest, folders: list[str] | None = None) -> None:
        board = self._board
        if not board.candidates:
            return
        if request.review == "auto":
            when = self._clock.now().replace(microsecond=0).isoformat()
            automatic = [
                Decision(
                    candidateId=candidate.id,
                    action="approve" if candidate.accepted else "reject",
                    reason=None if candidate.accepted else auto_review_reason(candidate),
                    reviewer="auto",
                )
                for candidate in board.candidates.values()
            ]
            first = len(board.decisions)
            for decision in automatic:
                board.record(decision, when)
            await self._audit_decisions(first, automatic, when)
            return
        self._enter(Phase.REVIEW)
        try:
            await workflow.wait_condition(
                board.settled, timeout=timedelta(seconds=request.reviewTimeoutSeconds)
            )
        except TimeoutError:
            board.expire()
            self._ws.errors.append("review deadline passed: undecided candidates expired")
            self._sync()
            await workflow.wait_condition(lambda: board.revalidating == 0)

    async def _revalidate(self, candidate_id: str) -> None:
        try:
            # Scored beside the others: an entity is accepted only with a claim that uses it.
            rows = await self._score(list(self._board.candidates.values()))
        except ActivityError as exc:
            self._ws.errors.append(f"re-validation of {candidate_id} failed: {exc.cause or exc}")
            self._board.revalidated(candidate_id, None, str(exc.cause or exc))
            return
        row = next(r for r in rows if r["candidateId"] == candidate_id)
        self._board.revalidated(candidate_id, row)
        self._sync()

    async def _decide(self, decisions: list[Decision]) -> list[DecisionResult]:
        """The `decide` update: refused with a message when, once it may act, the batch no
        longer fits the run (the validator checked it on arrival)."""
        if await self._arrived():
            problem = self._refusal(decisions)
            if problem:
                raise ApplicationError(problem, type="DecisionRefused", non_retryable=True)
        return await self._apply_decisions(decisions)

    async def _arrived(self) -> bool:
        """A signal's or update's handler, first: wait for the local activities in flight
        (workflows/run_clock.py); False for runs recorded before it waited."""
        if not self._patched(HANDLERS_WAIT_PATCH):
            return False
        await self._clock.handler_arrived()
        return True

    async def _apply_decisions(self, decisions: list[Decision]) -> list[DecisionResult]:
        # Record the whole batch before the first await: nothing can slip in between.
        when = self._clock.now().replace(microsecond=0).isoformat()
        first = len(self._board.decisions)
        for decision in decisions:
            self._board.record(decision, when)
        # Logged at once, not at the next step: a review may wait long for the next batch.
        self._sync([decided_event(decisions)])
        await self._audit_decisions(first, decisions, when)
        for decision in decisions:
            if decision.action == "edit":
                await self._revalidate(decision.candidateId)
        return [self._board.result(d.candidateId) for d in decisions]

    async def _audit_decisions(self, first: int, decisions: list[Decision], when: str) -> None:
        # Runs recorded before decisions were audited replay without this activity.
        if not self._patched(AUDIT_DECISIONS_PATCH):
            return
        await self._step(
            AUDIT_DECISIONS,
            DecisionAuditArgs(
                runId=self._ws.runId,
                first=first,
                decidedAt=when,
                decisions=[d.model_dump() for d in decisions],
            ),
            int,
        )

    def _refusal(self, decisions: list[Decision]) -> str | None:
        if self._ws.phase != Phase.REVIEW:
            return f"run is in phase {self._ws.phase.value}, decisions are taken in REVIEW"
        return self._board.problem(decisions)

    async def _signal(self, decision: Decision) -> None:
        await self._arrived()
        # A signal cannot answer with an error, so a bad one is recorded and ignored.
        problem = self._refusal([decision])
        if problem:
            self._ws.errors.append(f"ignored {decision.action} signal: {problem}")
            self._sync()
            return
        await self._apply_decisions([decision])

    async def _publish(self, request: MiningRequest) -> None:
        domain = request.domainTags[0] if request.domainTags else None
        # New entities first: the claims that use them then link them by their UAL.
        order = sorted(self._board.candidates.values(), key=lambda c: (c.kind != "entity", c.id))
        entity_uals: dict[str, str] = {}
        for candidate in order:
            cid = candidate.id
            if candidate.status != "approved":
                continue
            asset = relinked(candidate.asset, entity_uals)
            self._sync()
            try:
                result = await self._clock.activity(
                    DKG_PUBLISH_ASSET,
                    PublishArgs(runId=self._ws.runId, candidateId=cid, asset=asset, domain=domain),
                    result_type=PublishResult,
                    # Its own queue when publishing is scaled and rate-limited apart.
                    task_queue=self._runtime.publishTaskQueue or self._tool_queue,
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
            if candidate.kind == "entity" and isinstance(candidate.asset.get("@id"), str):
                entity_uals[candidate.asset["@id"]] = result.ual
            self._ws.publishedAssets.append(PublishedAsset(candidateId=cid, ual=result.ual))
            if self._indexed:
                published = len(self._ws.publishedAssets)
                workflow.upsert_search_attributes([KM_PUBLISHED.value_set(published)])


def decided_event(decisions: list[Decision]) -> dict[str, Any]:
    """The log event of a batch of reviewers' decisions (each candidate and action)."""
    return {
        "kind": "decided",
        "value": {
            "decisions": [
                {"candidateId": d.candidateId, "action": d.action, "reviewer": d.reviewer}
                for d in decisions
            ]
        },
    }

