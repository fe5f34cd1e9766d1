"""Review rules: which decisions are valid and what they do (pure functions)."""

from __future__ import annotations

from typing import Any

from contracts.run import Candidate, Decision, DecisionResult, TrustSignals
from mining.jsonld import jsonld_problem
from mining.report import report_lines


def decision_problem(decision: Decision, candidates: dict[str, Candidate]) -> str | None:
    candidate = candidates.get(decision.candidateId)
    if candidate is None:
        known = ", ".join(sorted(candidates)) or "none"
        return f"unknown candidate {decision.candidateId!r} (known: {known})"
    if candidate.status != "pending":
        return f"candidate {decision.candidateId} is already {candidate.status}"
    if decision.action == "edit":
        if decision.asset is None:
            return f"edit of {decision.candidateId} needs the edited asset"
        problem = jsonld_problem(decision.asset)
        if problem:
            return f"edited asset for {decision.candidateId} is invalid JSON-LD: {problem}"
    return None


def batch_problem(decisions: list[Decision], candidates: dict[str, Candidate]) -> str | None:
    if not decisions:
        return "no decisions given"
    seen: set[str] = set()
    for decision in decisions:
        if decision.candidateId in seen:
            return f"candidate {decision.candidateId} appears twice in one batch"
        seen.add(decision.candidateId)
        problem = decision_problem(decision, candidates)
        if problem:
            return problem
    return None


class ReviewBoard:
    """The candidates and what reviewers decided about them (workflow state, no I/O).

    Decisions are recorded synchronously, so a `decide` batch takes effect as a
    whole before any re-validation awaits, and a signal or the deadline arriving
    meanwhile sees a consistent board.
    """

    def __init__(self) -> None:
        self.candidates: dict[str, Candidate] = {}
        self.decisions: list[Decision] = []
        self.revalidating = 0
        self.closed = False
        self._before_edit: dict[str, dict[str, Any]] = {}

    def pending(self) -> list[str]:
        return [cid for cid, c in self.candidates.items() if c.status == "pending"]

    def settled(self) -> bool:
        return not self.pending() and self.revalidating == 0

    def problem(self, decisions: list[Decision]) -> str | None:
        if self.closed:
            return "the review deadline has passed"
        return batch_problem(decisions, self.candidates)

    def record(self, decision: Decision, when: str = "") -> None:
        candidate = self.candidates[decision.candidateId]
        self.decisions.append(decision)
        candidate.reviewNote = decision.reason
        resolve_contradictions(candidate, decision, when)
        if decision.action == "reject":
            candidate.status = "rejected"
        elif decision.action == "approve":
            candidate.status = "approved"
        else:
            self._before_edit[candidate.id] = candidate.asset
            candidate.asset = dict(decision.asset or {})
            candidate.edited = True
            candidate.status = "revalidating"
            self.revalidating += 1

    def revalidated(self, candidate_id: str, row: dict[str, Any] | None, error: str = "") -> None:
        """Settle an edit: approved if validation accepts it, else back to the reviewer."""
        candidate = self.candidates[candidate_id]
        self.revalidating -= 1
        previous = self._before_edit.pop(candidate_id, candidate.asset)
        if row is None:
            candidate.asset = previous
            candidate.edited = False
            candidate.reviewNote = f"edit not applied: re-validation failed ({error})"
        else:
            apply_score(candidate, row)
            if candidate.accepted:
                candidate.status = "approved"
                return
            candidate.reviewNote = (
                "re-validation did not accept the edit; approve to publish it anyway, or edit again"
            )
        candidate.status = "expired" if self.closed else "pending"

    def expire(self) -> None:
        self.closed = True
        for cid in self.pending():
            self.candidates[cid].status = "expired"

    def result(self, candidate_id: str) -> DecisionResult:
        candidate = self.candidates[candidate_id]
        signals = candidate.asset.get("trustSignals") or {}
        return DecisionResult(
            candidateId=candidate.id,
            status=candidate.status,
            accepted=candidate.accepted,
            confidence=signals.get("confidence"),
        )


def resolve_contradictions(candidate: Candidate, decision: Decision, when: str) -> None:
    """A reviewer's decision on a contradicted candidate resolves its flagged records.

    Approving (or editing) keeps the candidate's side; rejecting keeps the other side.
    An automatic decision is not a resolution: the records stay flagged for a human.
    """
    if decision.reviewer == "auto":
        return
    side = "the candidate" if decision.action in ("approve", "edit") else "the contradicting side"
    who = decision.reviewer or "reviewer"
    note = f"{decision.action} by {who}: kept {side}" + (
        f" ({decision.reason})" if decision.reason else ""
    )
    for record in candidate.contradictions:
        if record.status in ("flagged", "under_review"):
            record.status = "resolved"
            record.resolved_at = when or None
            record.resolution_notes = note


def scored_report(summary: str, candidates: list[Candidate]) -> str:
    """Validation's report: its summary, then a line per candidate as finally scored
    (the agent's scores and the workflow's own for what the agent left out)."""
    rows = [
        {"candidateId": c.id, "accepted": c.accepted, "reasoning": c.reasoning,
         "trustSignals": c.asset.get("trustSignals") or {}}
        for c in candidates
    ]  # fmt: skip
    return "\n".join([summary, *report_lines(rows)])


def apply_score(candidate: Candidate, row: dict[str, Any]) -> None:
    """A `score_candidates` row onto its candidate: trust signals, verdict, reasoning."""
    signals = TrustSignals(**row["trustSignals"])
    candidate.asset["trustSignals"] = signals.model_dump()
    candidate.accepted = bool(row["accepted"])
    candidate.reasoning = list(row.get("reasoning", []))
