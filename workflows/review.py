"""Review rules: which decisions are valid and what they do (pure functions)."""

from __future__ import annotations

from typing import Any

from workflows.contracts import Candidate, Decision


def jsonld_problem(asset: Any) -> str | None:
    """Why an asset is not publishable JSON-LD, or None when it is."""
    if not isinstance(asset, dict):
        return "asset must be a JSON object"
    context = asset.get("@context")
    if not context or not isinstance(context, (str, dict, list)):
        return "asset has no usable @context"
    kind = asset.get("@type")
    if not kind or not isinstance(kind, (str, list)):
        return "asset has no @type"
    return None


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
