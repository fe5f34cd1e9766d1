"""Confidence of a candidate and whether it is accepted (pure: no I/O, clock or randomness).

Confidence is never a model's guess: it is this documented formula, so a replayed activity
gets the same number and a reviewer can recompute it by hand. Evidence comes first; stake
raises trust but never carries a claim alone::

    confidence = clamp01( Σ w_t · term_t / Σ w_t   over the terms that apply
                          − contradiction_penalty )                   rounded to 3 decimals

    term              weight  value in [0, 1]
    evidence           0.30   noisy-OR of source reliability x recency over independent
                              sources (`mining/reliability.py`; DKG assets are sources
                              weighted by stake)
    relevance          0.20   relevance of the claim to the question
                              (`mining/relevance.py`: best over its evidence)
    corroboration      0.15   min(1, (independent sources - 1) / 2): 0 for one source,
                              0.5 for two, 1 from three
    completeness       0.15   share of required fields present (`@type`, `name`,
                              `identifier`)
    stake              0.10   min(1, 0.5 per linked asset staked above 50,000 TRAC);
                              left out (not zero) when no linked asset's stake is known —
                              no links, or a DKG node that does not report stake
    publisher          0.10   0.8 · share of linked assets by a known publisher + 0.2 ·
                              share updated at least once; left out with no linked assets

    contradiction_penalty = min(0.6, Σ 0.3 per contradicted asset staked above 50,000 TRAC,
                                     0.1 per lower-staked one, 0.2 when its stake is
                                     unknown, 0.15 per flagged contradiction record)

Accepted only when every gate holds, each stated in the reasoning:
  - confidence >= threshold (0.7; a domain's validation-rules.md may set
    `accept_threshold`, never below `MIN_THRESHOLD`);
  - relevance >= the relevance floor (an off-topic claim is never published);
  - more than one independent source, unless that one source is worth at least
    `TRUSTED_SINGLE_SOURCE` (a fresh high-tier outlet, a well-staked DKG asset):
    **a claim from one low-reliability source is never accepted**, whatever the stake
    of the assets it links;
  - a typed relation (`relatedTo` always waits for a reviewer), not hedged, and no
    flagged contradiction record (resolving one is a reviewer's decision);
  - not a duplicate of an existing asset (`duplicates` or already stated in the DKG).

Worked example: one low-tier source, linked to two 500,000-TRAC assets, relevance 1.0:
(0.30·0.3 + 0.20·1 + 0.15·0 + 0.15·1 + 0.10·1 + 0.10·1) = 0.64 < 0.7, and gated anyway.
The same fact from two more low-tier outlets: evidence 0.657, corroboration 1 →
0.30·0.657 + 0.20 + 0.15 + 0.15 + 0.10 + 0.10 = 0.897: accepted.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, Field

from contracts.run import TrustSignals
from mining.relevance import RELEVANCE_FLOOR
from mining.reliability import classify_source, noisy_or, recency, reliability

W_EVIDENCE = 0.30
W_RELEVANCE = 0.20
W_CORROBORATION = 0.15
W_COMPLETENESS = 0.15
W_STAKE = 0.10
W_PUBLISHER = 0.10
HIGH_STAKE_TRAC = 50_000.0
STAKE_PER_HIGH_LINK = 0.5
PENALTY_HIGH_STAKE = 0.3
PENALTY_LOW_STAKE = 0.1
PENALTY_UNKNOWN_STAKE = 0.2
PENALTY_RECORD = 0.15
PENALTY_CAP = 0.6
# One source alone may carry a claim only at this reliability (x recency) or above: a high
# tier outlet, or a DKG asset staked at about 34,000 TRAC or more.
TRUSTED_SINGLE_SOURCE = 0.6
DEFAULT_THRESHOLD = 0.7
MIN_THRESHOLD = 0.5
DEFAULT_REQUIRED = ["@type", "name", "identifier"]
RELATED_TO = "relatedTo"


class LinkedAssetInfo(BaseModel):
    ual: str
    stakeAmount: float | None = None  # None: the DKG does not say
    publisher: str | None = None
    updateCount: int = 0


class EvidenceInput(BaseModel):
    source: str
    tier: str | None = None  # declared tier, else decided from the source
    published: str | None = None
    score: float = 0.0  # relevance of the snippet to the question
    stake: float | None = None  # for DKG assets


class Contradiction(BaseModel):
    property: str
    candidateValue: str
    existingValue: str
    existingUal: str
    existingStake: float | None = None


class ScoringInput(BaseModel):
    candidate: dict[str, Any]
    requiredFields: list[str] = Field(default_factory=lambda: list(DEFAULT_REQUIRED))
    evidence: list[EvidenceInput] = Field(default_factory=list)
    relevance: float | None = None  # None: take the best evidence score
    predicate: str | None = None  # claims: the relation; entities: None
    hedged: bool = False
    linked: list[LinkedAssetInfo] = Field(default_factory=list)
    duplicates: list[str] = Field(default_factory=list)
    contradictions: list[Contradiction] = Field(default_factory=list)
    flaggedRecords: int = 0
    knownPublishers: list[str] = Field(default_factory=list)
    threshold: float = Field(default=DEFAULT_THRESHOLD, ge=0.0, le=1.0)
    asOf: str | None = None  # YYYY-MM-DD the recency of sources is measured at


class Assessment(BaseModel):
    trustSignals: TrustSignals
    accepted: bool
    reasoning: list[str]
    components: dict[str, float]


def support_level(tiers: list[str]) -> str:
    """How a claim is supported, in the words an answer hedges it with."""
    if "dkg" in tiers:
        return "stated by a DKG asset"
    if len(tiers) >= 2:
        return f"{len(tiers)} independent sources"
    return "one source" if tiers else "no source"


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _filled(value: Any) -> bool:
    if value is None:
        return False
    if isinstance(value, str):
        return bool(value.strip())
    if isinstance(value, list | dict | tuple | set):
        return len(value) > 0
    return True


def missing_fields(candidate: dict[str, Any], required: list[str]) -> list[str]:
    """Required fields absent or empty at the top level and in a nested `properties`."""
    nested = candidate.get("properties")
    nested = nested if isinstance(nested, dict) else {}
    return [f for f in required if not (_filled(candidate.get(f)) or _filled(nested.get(f)))]


def completeness(candidate: dict[str, Any], required: list[str]) -> float:
    if not required:
        return 1.0
    return (len(required) - len(missing_fields(candidate, required))) / len(required)


def independent_sources(
    evidence: list[EvidenceInput], as_of: str | None
) -> dict[str, tuple[str, float]]:
    """key -> (tier, best reliability x recency) over the distinct sources of the evidence."""
    best: dict[str, tuple[str, float]] = {}
    for item in evidence:
        if not item.source.strip():
            continue
        key, tier = classify_source(item.source, item.tier)
        weight = reliability(tier, item.stake) * recency(item.published, as_of)
        if key not in best or weight > best[key][1]:
            best[key] = (tier, weight)
    return best


def corroboration(count: int) -> float:
    return min(1.0, max(0, count - 1) / 2)


def _distinct_linked(linked: list[LinkedAssetInfo]) -> list[LinkedAssetInfo]:
    seen: dict[str, LinkedAssetInfo] = {}
    for info in linked:
        seen.setdefault(info.ual, info)
    return list(seen.values())


def stake_term(linked: list[LinkedAssetInfo]) -> tuple[float | None, bool, float]:
    """(term or None when no stake is known, linkedToHighStakeAssets, averageLinkedStake)."""
    stakes = [a.stakeAmount for a in _distinct_linked(linked) if a.stakeAmount is not None]
    if not stakes:
        return None, False, 0.0
    high = sum(1 for stake in stakes if stake > HIGH_STAKE_TRAC)
    return min(1.0, STAKE_PER_HIGH_LINK * high), high > 0, round(sum(stakes) / len(stakes), 2)


def publisher_reputation(
    linked: list[LinkedAssetInfo], known_publishers: list[str]
) -> float | None:
    """0.8 * share by a known publisher + 0.2 * share updated at least once; None unlinked."""
    assets = _distinct_linked(linked)
    if not assets:
        return None
    known = {p.strip().lower() for p in known_publishers if p.strip()}
    by_known = sum(1 for a in assets if a.publisher and a.publisher.strip().lower() in known)
    maintained = sum(1 for a in assets if a.updateCount > 0)
    return round((0.8 * by_known + 0.2 * maintained) / len(assets), 4)


def contradiction_cost(c: Contradiction) -> float:
    if c.existingStake is None:
        return PENALTY_UNKNOWN_STAKE
    return PENALTY_HIGH_STAKE if c.existingStake > HIGH_STAKE_TRAC else PENALTY_LOW_STAKE


def _distinct_contradictions(contradictions: list[Contradiction]) -> list[Contradiction]:
    seen: dict[tuple[str, str], Contradiction] = {}
    for c in contradictions:
        seen.setdefault((c.property, c.existingUal), c)
    return list(seen.values())


def contradiction_penalty(contradictions: list[Contradiction], records: int = 0) -> float:
    costs = sum(contradiction_cost(c) for c in _distinct_contradictions(contradictions))
    return round(min(PENALTY_CAP, costs + PENALTY_RECORD * max(0, records)), 4)


def effective_threshold(threshold: float) -> float:
    return max(MIN_THRESHOLD, threshold)


def score_candidate(inp: ScoringInput) -> Assessment:
    """Apply the module's formula and gates to one candidate; every term gets a reason."""
    reasons: list[str] = []
    notes: list[str] = []
    missing = missing_fields(inp.candidate, inp.requiredFields)
    comp = completeness(inp.candidate, inp.requiredFields)
    have = len(inp.requiredFields) - len(missing)
    line = f"completeness {have}/{len(inp.requiredFields)} required fields"
    reasons.append(line + (f" (missing {', '.join(missing)})" if missing else ""))

    sources = independent_sources(inp.evidence, inp.asOf)
    strength = noisy_or([w for _, w in sources.values()])
    tiers = [t for t, _ in sources.values()]
    mix = ", ".join(f"{tiers.count(t)} {t}" for t in ("high", "medium", "low", "dkg") if t in tiers)
    reasons.append(
        f"{plural(len(sources), 'independent source')} ({mix or 'none'}): evidence {strength:.2f}"
    )
    corro = corroboration(len(sources))
    rel = inp.relevance
    if rel is None:
        rel = max((e.score for e in inp.evidence), default=0.0)
    reasons.append(f"relevance to the question {rel:.2f} (floor {RELEVANCE_FLOOR:g})")

    stake, high_linked, avg_stake = stake_term(inp.linked)
    rep = publisher_reputation(inp.linked, inp.knownPublishers)
    n_linked = len(_distinct_linked(inp.linked))
    if stake is None:
        note = "no linked DKG assets" if not n_linked else "stake of linked assets unknown"
        notes.append(f"{note}: scored without the stake term")
        reasons.append(f"{note}: stake term left out")
    else:
        reasons.append(
            f"linked to {plural(n_linked, 'asset')}, average stake {avg_stake:,.0f} TRAC, "
            f"{'some' if high_linked else 'none'} above 50,000: stake term {stake:.2f}"
        )
    if rep is not None:
        reasons.append(f"publisher reputation {rep:.2f}")

    terms: list[tuple[float, float]] = [
        (W_EVIDENCE, strength),
        (W_RELEVANCE, min(1.0, max(0.0, rel))),
        (W_CORROBORATION, corro),
        (W_COMPLETENESS, comp),
    ]
    if stake is not None:
        terms.append((W_STAKE, stake))
    if rep is not None:
        terms.append((W_PUBLISHER, rep))
    base = sum(w * v for w, v in terms) / sum(w for w, _ in terms)

    for c in _distinct_contradictions(inp.contradictions):
        reasons.append(
            f"contradicts {c.existingUal} on {c.property} "
            f"({c.candidateValue} vs {c.existingValue}): -{contradiction_cost(c):.2f}"
        )
    if inp.flaggedRecords:
        reasons.append(
            f"{plural(inp.flaggedRecords, 'flagged contradiction')} with other sources or "
            f"candidates: -{PENALTY_RECORD * inp.flaggedRecords:.2f}"
        )
    penalty = contradiction_penalty(inp.contradictions, inp.flaggedRecords)
    # Every term is in [0, 1] and the weights are normalised, so only the floor can bind.
    confidence = round(max(0.0, base - penalty), 3)

    threshold = effective_threshold(inp.threshold)
    # (reason, evidence only): a claim short of evidence alone, relevant and asserted, is
    # proposed to a reviewer; any other gate rejects it.
    gates: list[tuple[str, bool]] = []
    if confidence < threshold:
        gates.append((f"confidence {confidence:.3f} < threshold {threshold:.2f}", True))
    if rel < RELEVANCE_FLOOR:
        gates.append(("below the relevance floor: off-topic for the question", False))
    if len(sources) < 2 and not any(
        t == "high" or (t == "dkg" and w >= TRUSTED_SINGLE_SOURCE) for t, w in sources.values()
    ):
        gates.append(("a single low-reliability source is never enough", True))
    if inp.predicate == RELATED_TO:
        gates.append(("generic relation relatedTo: needs a reviewer", False))
    if inp.hedged:
        gates.append(("hedged in its source (possible, not stated)", False))
    if inp.flaggedRecords:
        gates.append(("contradicted by another source or candidate: a reviewer resolves it", False))
    dups = [d.strip() for d in inp.duplicates if d.strip()]
    if dups:
        gates.append((f"duplicates existing asset {', '.join(dups)}", False))
    accepted = not gates
    proposed = bool(gates) and inp.predicate is not None and all(ev for _, ev in gates)
    verdict = "proposed for review" if proposed else "rejected"
    reasons.extend(f"{verdict}: {g}" for g, _ in gates)
    if accepted:
        reasons.append(f"confidence {confidence:.3f} >= threshold {threshold:.2f}: accepted")

    return Assessment(
        trustSignals=TrustSignals(
            confidence=confidence,
            linkedToHighStakeAssets=high_linked,
            averageLinkedStake=avg_stake,
            relevance=round(rel, 3),
            independentSources=len(sources),
            corroborated=len(sources) > 1,
            stakeKnown=stake is not None,
            notes=notes,
            support=support_level(tiers),
            proposed=proposed,
        ),
        accepted=accepted,
        reasoning=reasons,
        components={
            "completeness": round(comp, 4),
            "evidence": strength,
            "relevance": round(rel, 4),
            "corroboration": corro,
            "stake": -1.0 if stake is None else stake,
            "publisherReputation": -1.0 if rep is None else rep,
            "contradictionPenalty": penalty,
            "duplicate": 1.0 if dups else 0.0,
            "linkedAssets": float(n_linked),
            "independentSources": float(len(sources)),
        },
    )


_NUM = r"(\d+(?:\.\d+)?|\.\d+)(?![\w%]|\.\d)"
_THRESHOLD_RE = re.compile(
    r"(?:accept(?:ance)?|confidence|trust)[ _-]?threshold\s*[:=]\s*"
    + _NUM
    + r"|min(?:imum)?[ _-]?confidence\s*[:=]\s*"
    + _NUM
    + r"|reject\s+(?:if|when)\s+confidence\s*(?:<=?|≤|is\s+below|below|under)\s*"
    + _NUM
    + r"|accept\s+(?:if|when)\s+confidence\s*(?:>=?|≥|is\s+at\s+least)\s*"
    + _NUM,
    re.IGNORECASE,
)


def threshold_from_rules(markdown: str, default: float = DEFAULT_THRESHOLD) -> float:
    """Last valid per-domain threshold in validation-rules.md text, else `default`.

    Understood: ``accept_threshold: 0.75`` (also ``confidence threshold = 0.75``,
    ``min_confidence: 0.75``), ``Reject if confidence < 0.65``, ``Accept if confidence >= 0.8``.
    Values outside [0, 1], percentages and malformed numbers are ignored; the result is
    never below `MIN_THRESHOLD`, so a stray edit of a memory note (they can be written by a
    model) can never disable validation.
    """
    found = default
    for match in _THRESHOLD_RE.finditer(markdown):
        raw = next(g for g in match.groups() if g is not None)
        value = float(raw)
        if 0.0 <= value <= 1.0:
            found = value
    return effective_threshold(found)
