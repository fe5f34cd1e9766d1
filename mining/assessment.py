"""Candidates assessed against the DKG: evidence, duplicates, contradictions, stake, confidence.

Confidence is never a model's guess: it is `mining.scoring.score_candidate` over what
this module gathers from the DKG (stake and publisher of linked assets and of DKG assets
cited as evidence, duplicates, functional properties that disagree). Claims are scored
first; a new entity is accepted only when an accepted claim uses it.

Pure given the `AssessedDkg` reader it is passed (the `score_candidates` activity,
`activities/validation.py`, passes the worker's DKG and the publishers it knows).
"""

from __future__ import annotations

from typing import Any, Protocol

from mining.claims import GOODS_PROPERTY
from mining.jsonld import jsonld_problem
from mining.report import report_summary
from mining.scoring import (
    Assessment,
    Contradiction,
    EvidenceInput,
    LinkedAssetInfo,
    ScoringInput,
    score_candidate,
)

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


class AssessedDkg(Protocol):
    """The DKG reads an assessment makes (`activities/dkg.py` `Dkg` has them)."""

    def get_asset(self, ual: str) -> dict[str, Any] | None: ...
    def get_metadata(self, ual: str) -> Any: ...
    def find_duplicates(self, asset: dict[str, Any]) -> list[Any]: ...


def assess_candidates(
    candidates: list[dict[str, Any]],
    dkg: AssessedDkg,
    threshold: float,
    publishers: list[str],
    as_of: str,
) -> list[dict[str, Any]]:
    """The report row (its summary), then one row a candidate (claims first, then entities)."""
    assessor = _Assessor(dkg, threshold, publishers, as_of)
    rows: list[dict[str, Any]] = []
    assessments: list[tuple[str, Assessment]] = []
    claims = [e for e in candidates if e.get("kind", "claim") != "entity"]
    entities = [e for e in candidates if e.get("kind") == "entity"]
    accepted_refs: dict[str, float] = {}
    relevance_of: dict[str, float] = {}
    for entry in claims:
        cid = str(entry.get("candidateId") or entry.get("id") or "")
        assessment, duplicates = assessor.assess(entry)
        about = (
            entry.get("asset", {}).get("about") if isinstance(entry.get("asset"), dict) else None
        )
        goods = about.get(GOODS_PROPERTY) if isinstance(about, dict) else None
        for node in (
            about,
            (about or {}).get(_relation_key(about)) if isinstance(about, dict) else None,
            *(goods if isinstance(goods, list) else []),
        ):
            ref = node.get("@id") if isinstance(node, dict) else None
            if isinstance(ref, str):
                rel = assessment.trustSignals.relevance or 0.0
                relevance_of[ref] = max(relevance_of.get(ref, 0.0), rel)
                if assessment.accepted:
                    accepted_refs[ref] = assessment.trustSignals.confidence
        assessments.append((cid, assessment))
        rows.append(_row(cid, assessment, duplicates))
    for entry in entities:
        cid = str(entry.get("candidateId") or entry.get("id") or "")
        asset = entry.get("asset", entry)
        ref = asset.get("@id") if isinstance(asset, dict) else None
        assessment, duplicates = assessor.assess(entry, relevance=relevance_of.get(str(ref)))
        if not jsonld_problem(asset):
            entity_verdict(assessment, accepted_refs.get(str(ref)), duplicates)
        assessments.append((cid, assessment))
        rows.append(_row(cid, assessment, duplicates))
    # The report's summary leads: a tool response capped for size (many candidates) drops
    # rows from the end, and it must survive that. Its line per candidate is written from
    # the rows by whoever reads them (`mining.report.report_lines`), not repeated here.
    return [{"report": report_summary(assessments), "threshold": threshold}, *rows]


class _Assessor:
    """Scores one candidate at a time against the DKG, with the run's threshold, the
    publishers the DKG knows and the day it is scored on."""

    def __init__(
        self, dkg: AssessedDkg, threshold: float, publishers: list[str], as_of: str
    ) -> None:
        self._dkg = dkg
        self._threshold = threshold
        self._publishers = publishers
        self._as_of = as_of

    def _metadata(self, ual: str) -> Any:
        try:
            return self._dkg.get_metadata(ual)
        except Exception:  # noqa: BLE001  (a remote read failing: stake unknown, not fatal)
            return None

    def _linked_info(self, uals: list[str]) -> list[LinkedAssetInfo]:
        infos = []
        for ual in uals:
            meta = self._metadata(ual)
            if meta is not None:
                infos.append(
                    LinkedAssetInfo(
                        ual=ual,
                        stakeAmount=meta.stakeAmount,
                        publisher=meta.publisher,
                        updateCount=int(meta.updateCount or 0),
                    )
                )
        return infos

    def _evidence_inputs(self, asset: dict[str, Any]) -> list[EvidenceInput]:
        out = []
        for item in _evidence(asset):
            source = item["source"]
            stake = None
            if source.startswith("did:dkg:"):
                meta = self._metadata(source)
                stake = meta.stakeAmount if meta is not None else None
            out.append(
                EvidenceInput(
                    source=source,
                    tier=item.get("tier"),
                    published=item.get("published"),
                    score=float(item.get("score") or 0.0),
                    stake=stake,
                )
            )
        return out

    def _contradictions(self, asset: dict[str, Any], linked: list[str]) -> list[Contradiction]:
        """Compare what the candidate states about an entity with that entity's asset."""
        found: list[Contradiction] = []
        stated: list[tuple[str | None, dict[str, str]]] = [(None, _functional_values(asset))]
        about = asset.get("about")
        stated.append((_ref_ual(about), _functional_values(about)))
        for about_ual, values in stated:
            if not values:
                continue
            for ual in [about_ual] if about_ual else linked:
                existing = self._dkg.get_asset(ual)
                meta = self._metadata(ual)
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
                                existingStake=meta.stakeAmount,
                            )
                        )
        return found

    def assess(
        self, entry: dict[str, Any], relevance: float | None = None
    ) -> tuple[Assessment, list[str]]:
        """(the candidate's assessment, the UALs of the DKG assets it duplicates)."""
        asset = entry.get("asset", entry)
        problem = jsonld_problem(asset)
        if problem:
            assessment = score_candidate(ScoringInput(candidate={}, threshold=self._threshold))
            assessment.accepted = False
            assessment.reasoning.append(f"not publishable JSON-LD: {problem}")
            return assessment, []
        linked = _strings(asset.get("linkedAssets"))
        duplicates = [d.ual for d in self._dkg.find_duplicates(asset) if d.ual not in linked]
        duplicates += [u for u in _strings(entry.get("knownInDkg")) if u not in duplicates]
        records = entry.get("contradictions") or []
        flagged = sum(1 for r in records if isinstance(r, dict) and r.get("status") == "flagged")
        assessment = score_candidate(
            ScoringInput(
                candidate=asset,
                evidence=self._evidence_inputs(asset),
                relevance=relevance if relevance is not None else _relevance(asset),
                predicate=_predicate(asset),
                linked=self._linked_info(linked),
                duplicates=duplicates,
                contradictions=self._contradictions(asset, linked),
                flaggedRecords=flagged,
                knownPublishers=self._publishers,
                threshold=self._threshold,
                asOf=self._as_of,
            )
        )
        return assessment, duplicates


def entity_verdict(assessment: Assessment, claim_confidence: float | None, dups: list[str]) -> None:
    """A new entity stands or falls with the claims that use it (in place).

    Its evidence was weighed in those claims; on its own it only needs to be new (no
    duplicate) and used by an accepted claim, whose best confidence it takes.
    """
    kept = [r for r in assessment.reasoning if not r.startswith(("rejected:", "confidence "))]
    if claim_confidence is None:
        assessment.accepted = False
        kept.append("rejected: no accepted claim uses this entity")
    elif dups:
        assessment.accepted = False
        kept.append(f"rejected: duplicates existing asset {', '.join(dups)}")
    else:
        assessment.accepted = True
        assessment.trustSignals.confidence = claim_confidence
        kept.append(f"used by an accepted claim (confidence {claim_confidence:.3f}): accepted")
    assessment.reasoning = kept


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


def _evidence(asset: dict[str, Any]) -> list[dict[str, Any]]:
    provenance = asset.get("provenance")
    items = provenance.get("evidence") if isinstance(provenance, dict) else None
    if isinstance(items, list) and items:
        return [i for i in items if isinstance(i, dict) and isinstance(i.get("source"), str)]
    # An asset written by hand (or an old one) may only list its sources.
    sources = _strings(provenance.get("sources")) if isinstance(provenance, dict) else []
    return [{"source": s} for s in sources]


def _predicate(asset: dict[str, Any]) -> str | None:
    prop = asset.get("additionalProperty")
    if isinstance(prop, dict) and prop.get("name") == "predicate":
        value = prop.get("value")
        return value if isinstance(value, str) else None
    return None


def _relevance(asset: dict[str, Any]) -> float | None:
    provenance = asset.get("provenance")
    value = provenance.get("relevance") if isinstance(provenance, dict) else None
    return float(value) if isinstance(value, int | float) else None


def _relation_key(about: dict[str, Any]) -> str:
    """The key of the relation property on a claim's `about` node (the one object node)."""
    for key, value in about.items():
        if not key.startswith("@") and key != "name" and isinstance(value, dict):
            return key
    return ""


def _row(cid: str, assessment: Assessment, duplicates: list[str]) -> dict[str, Any]:
    return {
        "candidateId": cid,
        "trustSignals": assessment.trustSignals.model_dump(),
        "accepted": assessment.accepted,
        "reasoning": assessment.reasoning,
        "duplicates": duplicates,
    }
