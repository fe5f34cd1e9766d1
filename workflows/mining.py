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
from temporalio.exceptions import ApplicationError

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
    TrustSignals,
    Workspace,
    memory_tags,
)
from workflows.review import batch_problem, decision_problem
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
        self._candidates: dict[str, Candidate] = {}
        self._revalidating = 0
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
        except asyncio.CancelledError:
            self._enter(Phase.CANCELED)
            raise
        except Exception as exc:
            self._enter(Phase.FAILED)
            self._ws.errors.append(str(exc))
            raise
        return response_from(self._ws, list(self._candidates.values()))

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
            self._candidates[row["candidateId"]] = Candidate(
                id=row["candidateId"], asset=row["asset"]
            )
            self._ws.triplets.extend(Triplet(**t) for t in row.get("triplets", []))
        self._sync()

        self._enter(Phase.VALIDATION)
        validation = await agents.validation(
            [{"candidateId": c.id, "asset": c.asset} for c in self._candidates.values()],
            self._rules_text,
        )
        await self._apply_scores(validation.scores)
        self._ws.synthesizedReport = validation.report
        await self._remember("validation", validation.notes, folders)

        await self._review(request)

        self._enter(Phase.PUBLISHING)
        await self._publish(request)
        published = len(self._ws.publishedAssets)
        self._ws.summary = (
            f"{discovery.summary} {enrichment.summary} {published} of "
            f"{len(self._candidates)} candidates published to the DKG."
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

    async def _apply_scores(self, rows: list[dict[str, Any]]) -> None:
        scored = {r["candidateId"] for r in rows if r["candidateId"] in self._candidates}
        missing = [c for cid, c in self._candidates.items() if cid not in scored]
        if missing:
            # The model skipped the scoring tool for some: confidence is never guessed.
            rows = rows + await self._score(missing)
        for row in rows:
            candidate = self._candidates.get(row["candidateId"])
            if candidate is None:
                continue
            signals = TrustSignals(**row["trustSignals"])
            candidate.asset["trustSignals"] = signals.model_dump()
            candidate.accepted = bool(row["accepted"])
            candidate.reasoning = list(row.get("reasoning", []))
        self._sync()

    # -- review ----------------------------------------------------------------

    async def _review(self, request: MiningRequest) -> None:
        if not self._candidates:
            return
        if request.review == "auto":
            for candidate in self._candidates.values():
                action = "approve" if candidate.accepted else "reject"
                reason = None if candidate.accepted else "below the accept threshold"
                await self._apply(
                    Decision(
                        candidateId=candidate.id, action=action, reason=reason, reviewer="auto"
                    )
                )
            return
        self._enter(Phase.REVIEW)
        self._sync()
        try:
            await workflow.wait_condition(
                lambda: not self._pending() and self._revalidating == 0,
                timeout=timedelta(seconds=request.reviewTimeoutSeconds),
            )
        except TimeoutError:
            for cid in self._pending():
                self._candidates[cid].status = "expired"
            self._ws.errors.append("review deadline passed: undecided candidates expired")
        await workflow.wait_condition(lambda: self._revalidating == 0)
        self._sync()

    def _pending(self) -> list[str]:
        return [cid for cid, c in self._candidates.items() if c.status == "pending"]

    async def _apply(self, decision: Decision) -> DecisionResult:
        candidate = self._candidates[decision.candidateId]
        self._ws.decisions.append(decision)
        if decision.action == "reject":
            candidate.status = "rejected"
            candidate.reviewNote = decision.reason
        elif decision.action == "approve":
            candidate.status = "approved"
        else:
            candidate.status = "approved"
            candidate.edited = True
            candidate.asset = dict(decision.asset or {})
            candidate.reviewNote = decision.reason
            self._revalidating += 1
            try:
                await self._apply_scores(await self._score([candidate]))
            finally:
                self._revalidating -= 1
        self._sync()
        signals = candidate.asset.get("trustSignals") or {}
        return DecisionResult(
            candidateId=candidate.id,
            status=candidate.status,
            accepted=candidate.accepted,
            confidence=signals.get("confidence"),
        )

    def _accepting(self) -> str | None:
        if self._ws.phase != Phase.REVIEW:
            return f"run is in phase {self._ws.phase.value}, decisions are taken in REVIEW"
        return None

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
        problem = self._accepting() or decision_problem(decision, self._candidates)
        if problem:
            self._ws.errors.append(f"ignored {decision.action} signal: {problem}")
            return
        await self._apply(decision)

    @workflow.update
    async def decide(self, decisions: list[Decision]) -> list[DecisionResult]:
        return [await self._apply(d) for d in decisions]

    @decide.validator
    def _check_decide(self, decisions: list[Decision]) -> None:
        problem = self._accepting() or batch_problem(decisions, self._candidates)
        if problem:
            raise ValueError(problem)

    # -- publish and report ------------------------------------------------------

    async def _publish(self, request: MiningRequest) -> None:
        domain = request.domainTags[0] if request.domainTags else None
        for cid in sorted(self._candidates):
            candidate = self._candidates[cid]
            if candidate.status != "approved":
                continue
            result = await workflow.execute_activity(
                "dkg_publish_asset",
                PublishArgs(
                    runId=self._ws.runId, candidateId=cid, asset=candidate.asset, domain=domain
                ),
                result_type=PublishResult,
                start_to_close_timeout=SHORT,
                retry_policy=RETRY,
            )
            candidate.status = "published"
            candidate.publishedUal = result.ual
            self._ws.publishedAssets.append(PublishedAsset(candidateId=cid, ual=result.ual))
            self._sync()

    def _sync(self) -> None:
        self._ws.candidates = list(self._candidates.values())
        self._ws.pendingApprovals = self._pending() if self._ws.phase == Phase.REVIEW else []

    @workflow.query
    def workspace(self) -> Workspace:
        # Rebuilt from a dump so every field counts as set: the converter drops
        # unset fields, and in-place appends do not mark a field as set.
        snapshot = Workspace.model_validate(self._ws.model_dump())
        snapshot.candidates = list(self._candidates.values())
        snapshot.pendingApprovals = self._pending() if self._ws.phase == Phase.REVIEW else []
        return Workspace.model_validate(snapshot.model_dump())
