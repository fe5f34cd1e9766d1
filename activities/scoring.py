"""Trust / confidence formula of the validation subagent (pure: no I/O, clock or randomness).

Confidence is never a model's guess; it is this documented formula, so a Temporal activity
replaying it gets the same number and a reviewer can recompute it by hand::

    confidence = clamp01( 0.35 * completeness
                        + 0.25 * source_reliability
                        + stake_bonus
                        + 0.10 * publisher_reputation
                        - contradiction_penalty )           rounded to 3 decimals
    accepted   = confidence >= threshold (default 0.7, overridable per domain in
                 validation-rules.md) and duplicate_penalty == 0

completeness
    share of required fields (default ``@type``, ``name``, ``identifier``) present and
    non-empty, at the top level or inside a nested ``properties`` object.
source_reliability
    noisy-OR over distinct sources (a URL's host, a UAL): ``1 - prod(1 - r_i)``, so each extra
    independent source helps less than the one before. Per-source reliability ``r_i``:

    ====== ===== ==============================================================================
    tier   r_i   sources
    ====== ===== ==============================================================================
    high   0.8   DKG UALs (``did:dkg:``); ``.gov``, ``.mil``, ``.int``, ``.edu`` hosts and
                 national forms (``gov.uk``, ``gob.cl``, ``ac.uk``, ...); intergovernmental
                 bodies (``europa.eu``, ``un.org``, ``worldbank.org``, ``imf.org``, ``oecd.org``,
                 ``iea.org``, ``wto.org``, ``unctad.org``, ``iaea.org``, ``irena.org``,
                 ``ipcc.ch``)
    medium 0.6   known news / analysis outlets (``reuters.com``, ``bloomberg.com``, ``ft.com``,
                 ``spglobal.com``, ``fastmarkets.com``, ... see ``MEDIUM_DOMAINS``)
    low    0.3   anything else
    ====== ===== ==============================================================================
stake_bonus
    +0.2 per distinct linked asset with stake > 50,000 TRAC, capped at +0.4 (seed: "assets
    with >50K TRAC get +0.2 confidence"). ``averageLinkedStake`` is the mean stake of all
    distinct linked assets (0.0 with none).
publisher_reputation
    over distinct linked assets: ``0.8 * share published by a known publisher
    + 0.2 * share updated at least once`` (an ERC-721 history of updates shows a publisher
    that maintains its assets). 0.0 with no linked assets.
contradiction_penalty
    0.3 per contradicted high-stake (> 50,000 TRAC) asset, 0.1 per low-stake one, capped at
    0.6; counted once per (property, existing UAL).
duplicate_penalty
    a veto, not a subtraction: 1.0 when the candidate duplicates an existing asset, else 0.0.
    The confidence is left as computed (the content may be sound: it matches the DKG), but the
    candidate is rejected because publishing it again would only fork the existing asset.

Consequence, by design: without a high-stake link the other terms stay below 0.7
(0.35 + 0.25 * r + 0.10 with r < 1), so at the default threshold a candidate is only accepted
when it is anchored to staked knowledge; everything else is left for a human reviewer or a
per-domain threshold in validation-rules.md.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from pydantic import BaseModel, Field

from workflows.contracts import TrustSignals

__all__ = [
    "Assessment",
    "Contradiction",
    "LinkedAssetInfo",
    "ScoringInput",
    "TrustSignals",
    "classify_source",
    "completeness",
    "contradiction_penalty",
    "duplicate_penalty",
    "publisher_reputation",
    "score_candidate",
    "source_reliability",
    "stake_bonus",
    "synthesize_report",
    "threshold_from_rules",
]

W_COMPLETENESS = 0.35
W_SOURCES = 0.25
W_PUBLISHER = 0.10
HIGH_STAKE_TRAC = 50_000.0
STAKE_BONUS_PER_ASSET = 0.2
STAKE_BONUS_CAP = 0.4
PENALTY_HIGH_STAKE = 0.3
PENALTY_LOW_STAKE = 0.1
PENALTY_CAP = 0.6
DEFAULT_THRESHOLD = 0.7
DEFAULT_REQUIRED = ["@type", "name", "identifier"]

TIER_RELIABILITY = {"high": 0.8, "medium": 0.6, "low": 0.3}
HIGH_SUFFIXES = (".gov", ".mil", ".int", ".edu")
# Second-level labels that national registries (two-letter TLDs) reserve for government and
# academia: gov.uk, gob.cl, go.jp, ac.uk, edu.au.
HIGH_SECOND_LEVEL = {"gov", "gob", "gouv", "govt", "go", "mil", "ac", "edu"}
INTERGOVERNMENTAL = (
    "europa.eu",
    "un.org",
    "worldbank.org",
    "imf.org",
    "oecd.org",
    "iea.org",
    "wto.org",
    "unctad.org",
    "iaea.org",
    "irena.org",
    "ipcc.ch",
)
MEDIUM_DOMAINS = (
    "reuters.com",
    "apnews.com",
    "bloomberg.com",
    "ft.com",
    "wsj.com",
    "economist.com",
    "nytimes.com",
    "theguardian.com",
    "bbc.com",
    "bbc.co.uk",
    "cnbc.com",
    "nikkei.com",
    "aljazeera.com",
    "spglobal.com",
    "fastmarkets.com",
    "benchmarkminerals.com",
    "argusmedia.com",
    "woodmac.com",
    "mining.com",
    "mckinsey.com",
    "carbonbrief.org",
    "nature.com",
    "science.org",
)


class LinkedAssetInfo(BaseModel):
    ual: str
    stakeAmount: float
    publisher: str | None = None
    updateCount: int = 0


class Contradiction(BaseModel):
    property: str
    candidateValue: str
    existingValue: str
    existingUal: str
    existingStake: float


class ScoringInput(BaseModel):
    candidate: dict[str, Any]
    requiredFields: list[str] = Field(default_factory=lambda: list(DEFAULT_REQUIRED))
    sources: list[str] = Field(default_factory=list)
    linked: list[LinkedAssetInfo] = Field(default_factory=list)
    duplicates: list[str] = Field(default_factory=list)
    contradictions: list[Contradiction] = Field(default_factory=list)
    knownPublishers: list[str] = Field(default_factory=list)
    threshold: float = Field(default=DEFAULT_THRESHOLD, ge=0.0, le=1.0)


class Assessment(BaseModel):
    trustSignals: TrustSignals
    accepted: bool
    reasoning: list[str]
    components: dict[str, float]


def _n(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _filled(value: Any) -> bool:
    if value is None:
        return False
    if isinstance(value, str):
        return bool(value.strip())
    if isinstance(value, list | dict | tuple | set):
        return len(value) > 0
    return True


def completeness(candidate: dict[str, Any], required: list[str]) -> float:
    """Share of `required` fields that are present and non-empty (top level or `properties`)."""
    if not required:
        return 1.0
    nested = candidate.get("properties")
    nested = nested if isinstance(nested, dict) else {}
    present = sum(1 for f in required if _filled(candidate.get(f)) or _filled(nested.get(f)))
    return present / len(required)


def _host(source: str) -> str:
    text = source.strip().lower()
    parsed = urlsplit(text if "//" in text else "//" + text)
    host = (parsed.hostname or "").rstrip(".")
    return host[4:] if host.startswith("www.") else host


def _under(host: str, domain: str) -> bool:
    return host == domain or host.endswith("." + domain)


def classify_source(source: str) -> tuple[str, str]:
    """(dedup key, tier) of a source; keyed by UAL or host so one outlet counts once."""
    text = source.strip()
    if text.lower().startswith("did:dkg:"):
        return text, "high"
    host = _host(text)
    if not host or "." not in host:
        return text.lower(), "low"
    labels = host.split(".")
    if (
        host.endswith(HIGH_SUFFIXES)
        or (len(labels[-1]) == 2 and labels[-2] in HIGH_SECOND_LEVEL)
        or any(_under(host, d) for d in INTERGOVERNMENTAL)
    ):
        return host, "high"
    if any(_under(host, d) for d in MEDIUM_DOMAINS):
        return host, "medium"
    return host, "low"


def _distinct_sources(sources: list[str]) -> dict[str, str]:
    best: dict[str, str] = {}
    for src in sources:
        if not src or not src.strip():
            continue
        key, tier = classify_source(src)
        if key not in best or TIER_RELIABILITY[tier] > TIER_RELIABILITY[best[key]]:
            best[key] = tier
    return best


def source_reliability(sources: list[str]) -> float:
    """Noisy-OR of per-source reliability over distinct sources (0.0 with none)."""
    doubt = 1.0
    for tier in _distinct_sources(sources).values():
        doubt *= 1.0 - TIER_RELIABILITY[tier]
    return round(1.0 - doubt, 4)


def _distinct_linked(linked: list[LinkedAssetInfo]) -> list[LinkedAssetInfo]:
    seen: dict[str, LinkedAssetInfo] = {}
    for info in linked:
        seen.setdefault(info.ual, info)
    return list(seen.values())


def stake_bonus(linked: list[LinkedAssetInfo]) -> tuple[float, bool, float]:
    """(bonus, linkedToHighStakeAssets, averageLinkedStake) over distinct linked assets."""
    assets = _distinct_linked(linked)
    if not assets:
        return 0.0, False, 0.0
    high = sum(1 for a in assets if a.stakeAmount > HIGH_STAKE_TRAC)
    bonus = min(STAKE_BONUS_PER_ASSET * high, STAKE_BONUS_CAP)
    average = sum(a.stakeAmount for a in assets) / len(assets)
    return round(bonus, 4), high > 0, round(average, 2)


def publisher_reputation(linked: list[LinkedAssetInfo], known_publishers: list[str]) -> float:
    """0.8 * share of linked assets by a known publisher + 0.2 * share updated at least once."""
    assets = _distinct_linked(linked)
    if not assets:
        return 0.0
    known = {p.strip().lower() for p in known_publishers if p.strip()}
    by_known = sum(1 for a in assets if a.publisher and a.publisher.strip().lower() in known)
    maintained = sum(1 for a in assets if a.updateCount > 0)
    return round((0.8 * by_known + 0.2 * maintained) / len(assets), 4)


def _distinct_contradictions(contradictions: list[Contradiction]) -> list[Contradiction]:
    seen: dict[tuple[str, str], Contradiction] = {}
    for c in contradictions:
        seen.setdefault((c.property, c.existingUal), c)
    return list(seen.values())


def _contradiction_cost(c: Contradiction) -> float:
    return PENALTY_HIGH_STAKE if c.existingStake > HIGH_STAKE_TRAC else PENALTY_LOW_STAKE


def contradiction_penalty(contradictions: list[Contradiction]) -> float:
    """0.3 per high-stake, 0.1 per low-stake contradicted asset, capped at 0.6."""
    total = sum(_contradiction_cost(c) for c in _distinct_contradictions(contradictions))
    return round(min(total, PENALTY_CAP), 4)


def duplicate_penalty(duplicates: list[str]) -> float:
    """1.0 (veto: reject regardless of confidence) when any duplicate exists, else 0.0."""
    return 1.0 if any(d.strip() for d in duplicates) else 0.0


def score_candidate(inp: ScoringInput) -> Assessment:
    """Apply the module's formula to one candidate; every term gets a reasoning line."""
    reasons: list[str] = []
    comp = completeness(inp.candidate, inp.requiredFields)
    nested = inp.candidate.get("properties")
    nested = nested if isinstance(nested, dict) else {}
    missing = [
        f
        for f in inp.requiredFields
        if not (_filled(inp.candidate.get(f)) or _filled(nested.get(f)))
    ]
    have = len(inp.requiredFields) - len(missing)
    line = f"completeness {have}/{len(inp.requiredFields)} required fields"
    line += f" (missing {', '.join(missing)})" if missing else ""
    reasons.append(f"{line}: +{W_COMPLETENESS * comp:.2f}")

    rel = source_reliability(inp.sources)
    tiers = list(_distinct_sources(inp.sources).values())
    mix = ", ".join(f"{tiers.count(t)} {t}" for t in ("high", "medium", "low") if t in tiers)
    reasons.append(
        f"{_n(len(tiers), 'distinct source')} ({mix or 'none'}), reliability {rel:.2f}: "
        f"+{W_SOURCES * rel:.2f}"
    )

    bonus, high_linked, avg_stake = stake_bonus(inp.linked)
    assets = _distinct_linked(inp.linked)
    n_high = sum(1 for a in assets if a.stakeAmount > HIGH_STAKE_TRAC)
    if n_high:
        capped = " (capped)" if STAKE_BONUS_PER_ASSET * n_high > STAKE_BONUS_CAP else ""
        reasons.append(
            f"linked to {_n(n_high, 'high-stake asset')} (>50,000 TRAC): +{bonus:.2f}{capped}"
        )
    elif assets:
        reasons.append(
            f"linked to {_n(len(assets), 'asset')}, none above 50,000 TRAC "
            f"(average {avg_stake:,.0f} TRAC): +0.00"
        )
    else:
        reasons.append("no linked DKG assets: +0.00")

    rep = publisher_reputation(inp.linked, inp.knownPublishers)
    if assets:
        reasons.append(f"publisher reputation {rep:.2f}: +{W_PUBLISHER * rep:.2f}")

    distinct = _distinct_contradictions(inp.contradictions)
    for c in distinct:
        reasons.append(
            f"contradicts {c.existingUal} on {c.property} "
            f"({c.candidateValue} vs {c.existingValue}): -{_contradiction_cost(c):.2f}"
        )
    penalty = contradiction_penalty(inp.contradictions)
    if distinct and sum(_contradiction_cost(c) for c in distinct) > PENALTY_CAP:
        reasons.append(f"contradiction penalty capped at -{PENALTY_CAP:.2f}")

    raw = W_COMPLETENESS * comp + W_SOURCES * rel + bonus + W_PUBLISHER * rep - penalty
    confidence = round(min(1.0, max(0.0, raw)), 3)

    veto = duplicate_penalty(inp.duplicates)
    dups = [d.strip() for d in inp.duplicates if d.strip()]
    if veto:
        reasons.append(f"duplicates existing asset {', '.join(dups)}: rejected")
    accepted = confidence >= inp.threshold and not veto
    verdict = "accepted" if accepted else "rejected"
    relation = ">=" if confidence >= inp.threshold else "<"
    reasons.append(
        f"confidence {confidence:.3f} {relation} threshold {inp.threshold:.2f}: {verdict}"
    )

    return Assessment(
        trustSignals=TrustSignals(
            confidence=confidence, linkedToHighStakeAssets=high_linked, averageLinkedStake=avg_stake
        ),
        accepted=accepted,
        reasoning=reasons,
        components={
            "completeness": round(comp, 4),
            "sourceReliability": rel,
            "stakeBonus": bonus,
            "publisherReputation": rep,
            "contradictionPenalty": penalty,
            "duplicatePenalty": veto,
            "linkedAssets": float(len(assets)),
            "highStakeLinks": float(n_high),
            "contradictions": float(len(distinct)),
            "duplicates": float(len(dups)),
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
    Values outside [0, 1], percentages and malformed numbers are ignored, so a stray edit in a
    memory note can never disable validation.
    """
    found = default
    for match in _THRESHOLD_RE.finditer(markdown or ""):
        raw = next(g for g in match.groups() if g is not None)
        value = float(raw)
        if 0.0 <= value <= 1.0:
            found = value
    return found


def synthesize_report(assessments: list[tuple[str, Assessment]]) -> str:
    """The seed's synthesizedReport: a summary paragraph, then one line per candidate."""
    if not assessments:
        return "Validated 0 candidates: nothing to report."
    total = len(assessments)
    accepted = sum(1 for _, a in assessments if a.accepted)
    avg_conf = sum(a.trustSignals.confidence for _, a in assessments) / total
    high = sum(1 for _, a in assessments if a.trustSignals.linkedToHighStakeAssets)
    with_links = [a for _, a in assessments if a.components.get("linkedAssets", 0.0) > 0]
    avg_stake = (
        sum(a.trustSignals.averageLinkedStake for a in with_links) / len(with_links)
        if with_links
        else 0.0
    )
    contradictions = int(sum(a.components.get("contradictions", 0.0) for _, a in assessments))
    duplicates = sum(1 for _, a in assessments if a.components.get("duplicatePenalty", 0.0))
    summary = (
        f"Validated {_n(total, 'candidate')}: {accepted} accepted, {total - accepted} rejected. "
        f"Average confidence {avg_conf:.2f}. "
        f"{_n(high, 'candidate')} linked to high-stake DKG assets (>50,000 TRAC); "
        f"average linked stake {avg_stake:,.0f} TRAC. "
        f"{_n(contradictions, 'contradiction')} flagged; {_n(duplicates, 'duplicate')} rejected."
    )
    lines = [summary]
    for cid, a in assessments:
        verdict = "accepted" if a.accepted else "rejected"
        lines.append(
            f"- {cid}: {verdict} (confidence {a.trustSignals.confidence:.2f}): "
            + "; ".join(a.reasoning)
        )
    return "\n".join(lines)
