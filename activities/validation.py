"""Validate candidates against the DKG: duplicates, contradictions, stake, confidence.

Confidence is never a model's guess: it is `activities.scoring.score_candidate`
over evidence gathered here from the DKG.
"""

from __future__ import annotations

import asyncio
from typing import Any

from temporalio import activity

from activities.common import Auditor, run_tool
from activities.scoring import (
    Contradiction,
    LinkedAssetInfo,
    ScoringInput,
    score_candidate,
    synthesize_report,
    threshold_from_rules,
)
from workflows.review import jsonld_problem
from workflows.tool_contracts import ScoreArgs, ToolResponse

# Properties an entity has one value of: a different value is a contradiction.
FUNCTIONAL_PROPERTIES = (
    "foundingDate",
    "dissolutionDate",
    "addressCountry",
    "numberOfEmployees",
    "legalName",
    "leiCode",
    "taxID",
    "startDate",
    "endDate",
)
HIGH_STAKE = 50_000.0
KNOWN_PUBLISHER_MIN_ASSETS = 3

KNOWN_PUBLISHERS_QUERY = """
SELECT ?publisher (COUNT(?ual) AS ?assets) WHERE {
  GRAPH <did:dkg:metadata> { ?ual dkg:publisher ?publisher }
} GROUP BY ?publisher HAVING (COUNT(?ual) >= %d)
"""


def _strings(value: Any) -> list[str]:
    """A list of non-empty strings from whatever shape the model or a reviewer sent."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return []
    return [v for v in value if isinstance(v, str) and v.strip()]


def _ref_ual(value: Any) -> str | None:
    if isinstance(value, dict):
        ref = value.get("@id")
        return ref if isinstance(ref, str) and ref.startswith("did:dkg:") else None
    return None


def _scalar(value: Any) -> str | None:
    if isinstance(value, dict):
        value = value.get("@value", value.get("name"))
    if value is None or isinstance(value, (dict, list)):
        return None
    return str(value).strip()


def _functional_values(obj: Any) -> dict[str, str]:
    if not isinstance(obj, dict):
        return {}
    values = {}
    for prop in FUNCTIONAL_PROPERTIES:
        val = _scalar(obj.get(prop))
        if val:
            values[prop] = val
    address = obj.get("address")
    if isinstance(address, dict) and _scalar(address.get("addressCountry")):
        values["addressCountry"] = _scalar(address.get("addressCountry")) or ""
    return values


class ValidationActivities:
    def __init__(self, dkg: Any, auditor: Auditor) -> None:
        self._dkg = dkg
        self._audit = auditor

    def _known_publishers(self) -> list[str]:
        result = self._dkg.query(KNOWN_PUBLISHERS_QUERY % KNOWN_PUBLISHER_MIN_ASSETS)
        return [str(row["publisher"]) for row in result.rows]

    def _linked_info(self, uals: list[str]) -> list[LinkedAssetInfo]:
        infos = []
        for ual in uals:
            meta = self._dkg.get_metadata(ual)
            if meta is not None:
                infos.append(
                    LinkedAssetInfo(
                        ual=ual,
                        stakeAmount=float(meta.stakeAmount),
                        publisher=meta.publisher,
                        updateCount=int(meta.updateCount),
                    )
                )
        return infos

    def _contradictions(self, asset: dict[str, Any], linked: list[str]) -> list[Contradiction]:
        """Compare what the candidate states about an entity with that entity's asset."""
        found: list[Contradiction] = []
        stated: list[tuple[str | None, dict[str, str]]] = [(None, _functional_values(asset))]
        about = asset.get("about")
        stated.append((_ref_ual(about), _functional_values(about)))
        for about_ual, values in stated:
            if not values:
                continue
            subjects = [about_ual] if about_ual else linked
            for ual in subjects:
                existing = self._dkg.get_asset(ual)
                meta = self._dkg.get_metadata(ual)
                if existing is None or meta is None:
                    continue
                current = _functional_values(existing)
                for prop, value in values.items():
                    if prop in current and current[prop].lower() != value.lower():
                        found.append(
                            Contradiction(
                                property=prop,
                                candidateValue=value,
                                existingValue=current[prop],
                                existingUal=ual,
                                existingStake=float(meta.stakeAmount),
                            )
                        )
        return found

    def score(self, args: ScoreArgs) -> list[dict[str, Any]]:
        threshold = args.threshold
        if threshold is None:
            threshold = threshold_from_rules(args.validationRules, default=0.7)
        publishers = self._known_publishers()
        rows: list[dict[str, Any]] = []
        assessments = []
        for entry in args.candidates:
            cid = str(entry.get("candidateId") or entry.get("id") or "")
            asset = entry.get("asset", entry)
            problem = jsonld_problem(asset)
            linked_uals = _strings(asset.get("linkedAssets")) if not problem else []
            duplicates = (
                [d.ual for d in self._dkg.find_duplicates(asset) if d.ual not in linked_uals]
                if not problem
                else []
            )
            provenance = asset.get("provenance") if not problem else None
            assessment = score_candidate(
                ScoringInput(
                    candidate=asset if isinstance(asset, dict) else {},
                    sources=_strings(provenance.get("sources"))
                    if isinstance(provenance, dict)
                    else [],
                    linked=self._linked_info(linked_uals),
                    duplicates=duplicates,
                    contradictions=self._contradictions(asset, linked_uals) if not problem else [],
                    knownPublishers=publishers,
                    threshold=threshold,
                )
            )
            if problem:
                # Not publishable as it stands: scored for the record, never accepted.
                assessment.accepted = False
                assessment.reasoning.append(f"not publishable JSON-LD: {problem}")
            assessments.append((cid, assessment))
            rows.append(
                {
                    "candidateId": cid,
                    "trustSignals": assessment.trustSignals.model_dump(),
                    "accepted": assessment.accepted,
                    "reasoning": assessment.reasoning,
                    "duplicates": duplicates,
                }
            )
        rows.append({"report": synthesize_report(assessments), "threshold": threshold})
        return rows

    @activity.defn(name="score_candidates")
    async def score_candidates(self, args: ScoreArgs) -> ToolResponse:
        def body() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
            return self.score(args), []

        return await asyncio.to_thread(
            run_tool, self._audit, "score_candidates", {"n": len(args.candidates)}, body
        )
