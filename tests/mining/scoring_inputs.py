"""The scoring tests' inputs: a claim, a known publisher, the day it is scored, three
low-reliability sources, and builders of evidence, linked assets, contradictions and a
scored assessment (mining/scoring.py's score_candidate with those defaults)."""

from __future__ import annotations

from mining.scoring import (
    Assessment,
    Contradiction,
    EvidenceInput,
    LinkedAssetInfo,
    ScoringInput,
    score_candidate,
)

CLAIM = {"@type": "Claim", "name": "Zimbabwe restricts exports of lithium ore", "identifier": "x"}
PUB = "0xAbC0000000000000000000000000000000000001"
TODAY = "2026-11-23"
LOW_A, LOW_B, LOW_C = (
    "https://africa-resources.example.org/zimbabwe",
    "https://minerals-wire.example.com/zim",
    "https://trade-monitor.example.net/zim",
)


def src(url: str, score: float = 1.0, published: str | None = TODAY, **kw: object) -> EvidenceInput:
    return EvidenceInput(source=url, score=score, published=published, **kw)  # type: ignore[arg-type]


def link(
    n: int, stake: float | None, publisher: str | None = PUB, updates: int = 1
) -> LinkedAssetInfo:
    return LinkedAssetInfo(
        ual=f"did:dkg:otp:20430/0xcdb/{n}", stakeAmount=stake, publisher=publisher,
        updateCount=updates,
    )  # fmt: skip


def contradiction(stake: float | None, ual: str = "did:dkg:otp:20430/0xcdb/99") -> Contradiction:
    return Contradiction(
        property="foundingDate", candidateValue="1992", existingValue="2000", existingUal=ual,
        existingStake=stake,
    )  # fmt: skip


def scored(**kw: object) -> Assessment:
    base: dict[str, object] = {
        "candidate": CLAIM,
        "predicate": "restrictsExportsOf",
        "knownPublishers": [PUB.lower()],
        "asOf": TODAY,
    }
    return score_candidate(ScoringInput(**{**base, **kw}))  # type: ignore[arg-type]
