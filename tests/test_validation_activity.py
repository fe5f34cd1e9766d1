"""score_candidates over the real embedded DKG: stake, duplicates, contradictions."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from activities.common import Auditor
from activities.validation import ValidationActivities
from storage.dkg_store import EmbeddedDkg
from workflows.tool_contracts import ScoreArgs

PREFIX = "did:dkg:otp:2043/0x5cac41237127f94c2d21dae0b14bfefa99880630/"
ALBEMARLE = PREFIX + "193"  # 500,000 TRAC, foundingDate 1994
GANFENG = PREFIX + "195"  # 350,000 TRAC


@pytest.fixture(scope="module")
def validator() -> Iterator[ValidationActivities]:
    dkg = EmbeddedDkg(None)
    dkg.ensure_seeded()
    yield ValidationActivities(dkg, Auditor(None))
    dkg.close()


def claim(**extra: object) -> dict:
    return {
        "@context": "https://schema.org/",
        "@type": "Claim",
        "name": "Albemarle supplies Ganfeng Lithium",
        "identifier": "urn:kminer:claim:test-1",
        "about": {"@id": ALBEMARLE, "name": "Albemarle"},
        "linkedAssets": [ALBEMARLE, GANFENG],
        "provenance": {"sources": ["https://news.example.org/a"]},
        **extra,
    }


def score(validator: ValidationActivities, asset: dict, rules: str = "") -> dict:
    rows = validator.score(
        ScoreArgs(candidates=[{"candidateId": "c1", "asset": asset}], validationRules=rules)
    )
    return rows[0]


def test_two_high_stake_links_lift_a_claim_over_the_threshold(validator) -> None:
    row = score(validator, claim())
    signals = row["trustSignals"]
    assert signals["linkedToHighStakeAssets"] is True
    assert signals["averageLinkedStake"] == pytest.approx((500_000 + 350_000) / 2)
    assert row["accepted"] is True
    assert any("high-stake" in line for line in row["reasoning"])


def test_a_contradiction_with_a_high_stake_asset_is_flagged_and_costs_confidence(
    validator,
) -> None:
    clean = score(validator, claim())
    contradicting = claim(about={"@id": ALBEMARLE, "name": "Albemarle", "foundingDate": "1887"})
    row = score(validator, contradicting)
    assert row["trustSignals"]["confidence"] < clean["trustSignals"]["confidence"]
    assert any("foundingDate" in line and "1887" in line for line in row["reasoning"])


def test_a_duplicate_of_an_existing_asset_is_rejected(validator) -> None:
    duplicate = {
        "@context": "https://schema.org/",
        "@type": "Organization",
        "name": "Albemarle Corp",
        "identifier": "urn:test:albemarle-copy",
        "linkedAssets": [GANFENG],
        "provenance": {"sources": ["https://news.example.org/b"]},
    }
    row = score(validator, duplicate)
    assert ALBEMARLE in row["duplicates"]
    assert row["accepted"] is False


def test_validation_rules_override_the_threshold(validator) -> None:
    row = score(validator, claim(), rules="- accept_threshold: 0.99")
    assert row["accepted"] is False
