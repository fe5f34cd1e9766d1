"""Candidate Knowledge Assets by reference: the model sees a compact view, never the JSON-LD.

A candidate's JSON-LD is ~2.5 KB (evidence snippets, provenance, contradiction records).
Every model call carries the whole conversation, so a candidate list the model was shown
once is sent again with every later call, and each copy is recorded in workflow history.
Instead, `propose_knowledge_assets` answers the model with one compact row per candidate
(id, kind, label, the claim's ends, scores) and the workflow keeps the full rows here, in
workflow memory (they are deterministic: rebuilt from the activity results on replay).
`score_candidates` takes `candidatesRef` (or candidates by id) and the workflow hands the
activity the full entries the reference stands for.
"""

from __future__ import annotations

import json
from typing import Any

from contracts.tools import ScoreArgs, ScoreToolArgs, ToolResponse

# The reference the model passes: the research file the full JSON-LD is written to.
CANDIDATES_FILE = "/research/candidates.jsonld"
# What one candidate costs in the model's view: enough to reason about, not to re-publish.
LABEL_CHARS = 160


def _about(asset: dict[str, Any]) -> tuple[str | None, str | None]:
    """(subject, object) names of a claim's `about` node and its relation."""
    about = asset.get("about")
    if not isinstance(about, dict):
        return None, None
    subject = about.get("name") if isinstance(about.get("name"), str) else None
    for key, value in about.items():
        if not key.startswith("@") and key != "name" and isinstance(value, dict):
            name = value.get("name")
            return subject, name if isinstance(name, str) else None
    return subject, None


def compact_view(row: dict[str, Any]) -> dict[str, Any]:
    """One candidate as the model sees it (a proposal row or a validation entry)."""
    asset = row.get("asset") if isinstance(row.get("asset"), dict) else {}
    provenance = asset.get("provenance") if isinstance(asset.get("provenance"), dict) else {}
    view: dict[str, Any] = {
        "candidateId": row.get("candidateId"),
        "kind": row.get("kind", "claim"),
        "type": asset.get("@type"),
        "label": str(asset.get("name", ""))[:LABEL_CHARS],
    }
    prop = asset.get("additionalProperty")
    if isinstance(prop, dict) and prop.get("name") == "predicate":
        subject, obj = _about(asset)
        view["claim"] = {"subject": subject, "predicate": prop.get("value"), "object": obj}
    if isinstance(provenance.get("relevance"), int | float):
        view["relevance"] = provenance["relevance"]
    view["sources"] = len(provenance.get("sources") or [])
    view["linkedAssets"] = list(asset.get("linkedAssets") or [])
    view["knownInDkg"] = list(row.get("knownInDkg") or [])
    view["contradictions"] = len(row.get("contradictions") or [])
    return view


class CandidateLedger:
    """The run's full statements and candidate rows, behind the references the model
    passes around."""

    def __init__(self) -> None:
        # The discovery statements `statementsRef` stands for (workflows/statement_refs.py).
        self.statements: list[dict[str, Any]] = []
        # The claims the run has room for, which a propose call leaving maxCandidates
        # out gets (the task names it; a small model often drops it).
        self.room: int | None = None
        # Every propose_knowledge_assets answer, whole, in call order.
        self.proposals: list[ToolResponse] = []
        # The entries validation scores (the run's candidates as they stand).
        self.entries: dict[str, dict[str, Any]] = {}

    def proposed(self, response: ToolResponse) -> str:
        """Keep a proposal whole; the tool message the model gets instead."""
        self.proposals.append(response)
        if not response.success:
            return response.model_dump_json()
        view = response.model_copy(update={"results": [compact_view(r) for r in response.results]})
        body = json.loads(view.model_dump_json())
        body["candidatesRef"] = CANDIDATES_FILE
        return json.dumps(body)

    def proposed_rows(self) -> list[dict[str, Any]]:
        """The latest proposal of each candidate, in first-proposed order."""
        latest: dict[str, dict[str, Any]] = {}
        for response in self.proposals:
            for row in response.results if response.success else []:
                latest[row["candidateId"]] = row
        return list(latest.values())

    def truncated(self) -> int:
        return sum(1 for r in self.proposals if r.success and r.metadata.truncated)

    def file_text(self) -> str:
        """The research file behind the reference: every proposed asset as JSON-LD."""
        return json.dumps([r["asset"] for r in self.proposed_rows()], indent=1, sort_keys=True)

    def validating(self, entries: list[dict[str, Any]]) -> None:
        self.entries = {e["candidateId"]: e for e in entries}

    def resolve(self, args: ScoreToolArgs) -> ScoreArgs:
        """The activity's arguments: the reference and ids-only entries become full entries.

        An entry that carries its own `asset` is passed as given (a model may have edited
        it; such scores are not trusted, see `workflows.workspace.trusted_score_rows`).
        """
        return ScoreArgs(
            candidates=resolve_candidates(args.candidates, args.candidatesRef, self.entries),
            threshold=args.threshold,
            validationRules=args.validationRules,
        )


def resolve_candidates(
    given: list[dict[str, Any]], ref: str | None, entries: dict[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    """Entries a score call stands for: all of `entries` for the reference, else `given`
    with each entry that has no asset replaced by the run's entry of the same id."""
    if ref == CANDIDATES_FILE and not given:
        return list(entries.values())
    out = []
    for entry in given:
        cid = entry.get("candidateId") if isinstance(entry, dict) else None
        if isinstance(entry, dict) and "asset" not in entry and cid in entries:
            out.append(entries[cid])
        else:
            out.append(entry)
    return out
