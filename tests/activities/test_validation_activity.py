"""score_candidates over the real embedded DKG: evidence, stake, duplicates, contradictions."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from activities.common import Auditor
from activities.validation import ValidationActivities
from contracts.tools import ScoreArgs
from storage.dkg.embedded import EmbeddedDkg

PREFIX = "did:dkg:otp:2043/0x5cac41237127f94c2d21dae0b14bfefa99880630/"
ALBEMARLE = PREFIX + "193"  # 500,000 TRAC, foundingDate 1994
GANFENG = PREFIX + "195"  # 350,000 TRAC
TODAY = "2026-11-23"
LOW = ["https://a.example.org/1", "https://b.example.com/2", "https://c.example.net/3"]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedDkg]:
    dkg = EmbeddedDkg(Path(tmp_path_factory.mktemp("dkg")))
    dkg.ensure_seeded()
    yield dkg
    dkg.close()


@pytest.fixture(scope="module")
def validator(store: EmbeddedDkg) -> ValidationActivities:
    return ValidationActivities(store, Auditor(None))


@pytest.fixture(scope="module")
def second_big_asset(store: EmbeddedDkg) -> str:
    """A second asset staked at 500,000 TRAC (the seed has one)."""
    asset = {"@context": "https://schema.org/", "@type": "Corporation", "name": "Quarrion Ltd",
             "identifier": "urn:test:quarrion"}  # fmt: skip
    return store.publish(asset, publisher="0xtest", stake_amount=500_000.0).ual


def claim(sources: list[str], linked: list[str], **extra: object) -> dict:
    return {
        "@context": "https://schema.org/",
        "@type": "Claim",
        "name": "Albemarle supplies Ganfeng Lithium",
        "identifier": "urn:kminer:claim:test-1",
        "about": {"@id": ALBEMARLE, "name": "Albemarle"},
        "additionalProperty": {"@type": "PropertyValue", "name": "predicate", "value": "supplies"},
        "linkedAssets": linked,
        "provenance": {
            "relevance": 0.9,
            "evidence": [{"source": s, "score": 0.9, "published": TODAY} for s in sources],
        },
        **extra,
    }


def score(validator: ValidationActivities, *entries: dict, rules: str = "") -> list[dict]:
    candidates = [
        e if "asset" in e else {"candidateId": f"c{i}", "asset": e} for i, e in enumerate(entries)
    ]
    rows = validator.score(ScoreArgs(candidates=candidates, validationRules=rules), TODAY)
    return [r for r in rows if "candidateId" in r]


def test_one_low_source_linked_to_two_500k_assets_is_not_accepted(
    validator: ValidationActivities, second_big_asset: str
) -> None:
    [row] = score(validator, claim(LOW[:1], [ALBEMARLE, second_big_asset]))
    assert row["trustSignals"]["linkedToHighStakeAssets"] is True
    assert row["trustSignals"]["averageLinkedStake"] == 500_000
    assert row["accepted"] is False
    # Relevant and asserted, only short of evidence: proposed to a reviewer, not accepted.
    lone = "proposed for review: a single low-reliability source is never enough"
    assert lone in row["reasoning"]


def test_the_same_claim_from_three_outlets_is_accepted(validator: ValidationActivities) -> None:
    [row] = score(validator, claim(LOW, [ALBEMARLE, GANFENG]))
    assert row["accepted"] is True
    assert row["trustSignals"]["independentSources"] == 3
    assert row["trustSignals"]["relevance"] == 0.9


def test_a_dkg_asset_cited_as_evidence_counts_by_its_stake(validator: ValidationActivities) -> None:
    with_dkg = score(validator, claim([LOW[0], ALBEMARLE], [ALBEMARLE]))[0]
    with_web = score(validator, claim(LOW[:2], [ALBEMARLE]))[0]
    assert with_dkg["trustSignals"]["confidence"] > with_web["trustSignals"]["confidence"]
    assert "1 dkg" in " ".join(with_dkg["reasoning"])


def test_a_contradiction_with_a_high_stake_asset_costs_confidence(
    validator: ValidationActivities,
) -> None:
    clean = score(validator, claim(LOW, [ALBEMARLE]))[0]
    about = {"@id": ALBEMARLE, "name": "Albemarle", "foundingDate": "1887"}
    row = score(validator, claim(LOW, [ALBEMARLE], about=about))[0]
    assert row["trustSignals"]["confidence"] == pytest.approx(
        clean["trustSignals"]["confidence"] - 0.3, abs=0.001
    )
    assert any("foundingDate" in line and "1887" in line for line in row["reasoning"])


def test_a_duplicate_of_an_existing_asset_is_rejected(validator: ValidationActivities) -> None:
    duplicate = {
        "@context": "https://schema.org/",
        "@type": "Organization",
        "name": "Albemarle Corp",
        "identifier": "urn:test:albemarle-copy",
        "provenance": {"evidence": [{"source": s} for s in LOW]},
    }
    [row] = score(validator, duplicate)
    assert ALBEMARLE in row["duplicates"] and row["accepted"] is False


def test_a_fact_the_dkg_already_states_is_a_duplicate(validator: ValidationActivities) -> None:
    entry = {"candidateId": "c1", "asset": claim(LOW, [ALBEMARLE]), "knownInDkg": [GANFENG]}
    [row] = score(validator, entry)
    assert row["accepted"] is False and GANFENG in row["duplicates"]


def test_a_flagged_contradiction_waits_for_a_reviewer(validator: ValidationActivities) -> None:
    entry = {"candidateId": "c1", "asset": claim(LOW, [ALBEMARLE]),
             "contradictions": [{"status": "flagged"}]}  # fmt: skip
    [row] = score(validator, entry)
    assert row["accepted"] is False
    assert any("a reviewer resolves it" in r for r in row["reasoning"])


def test_validation_rules_raise_the_threshold(validator: ValidationActivities) -> None:
    [row] = score(validator, claim(LOW, [ALBEMARLE, GANFENG]), rules="- accept_threshold: 0.99")
    assert row["accepted"] is False


def test_a_new_entity_stands_with_the_claim_that_uses_it(validator: ValidationActivities) -> None:
    new_id = "urn:kminer:entity:organization:quokka-1"
    entity = {"@context": "https://schema.org/", "@type": "Organization", "@id": new_id,
              "identifier": new_id, "name": "Quokka Holdings",
              "provenance": {"evidence": [{"source": LOW[0]}]}}  # fmt: skip
    used = claim(LOW, [ALBEMARLE], about={"@id": new_id, "name": "Quokka Holdings"})
    good_claim, good_entity = score(
        validator, {"candidateId": "c", "asset": used},
        {"candidateId": "e", "kind": "entity", "asset": entity},
    )  # fmt: skip
    assert good_claim["accepted"] and good_entity["accepted"]
    assert good_entity["trustSignals"]["confidence"] == good_claim["trustSignals"]["confidence"]
    weak = claim(LOW[:1], [ALBEMARLE], about={"@id": new_id, "name": "Quokka Holdings"})
    _, lonely = score(
        validator, {"candidateId": "c", "asset": weak},
        {"candidateId": "e", "kind": "entity", "asset": entity},
    )  # fmt: skip
    assert not lonely["accepted"]
    assert "rejected: no accepted claim uses this entity" in lonely["reasoning"]


def test_new_goods_stand_with_the_supply_claim_that_names_them(
    validator: ValidationActivities,
) -> None:
    goods_id = "urn:kminer:entity:product:green-arabica-1"
    goods = {"@context": "https://schema.org/", "@type": "Product", "@id": goods_id,
             "identifier": goods_id, "name": "green arabica",
             "provenance": {"evidence": [{"source": LOW[0]}]}}  # fmt: skip
    node = {"@id": goods_id, "@type": "Product", "name": "green arabica"}
    about = {"@id": ALBEMARLE, "name": "Albemarle", "dkg:goods": [node]}
    supply, product = score(
        validator, {"candidateId": "c", "asset": claim(LOW, [ALBEMARLE, GANFENG], about=about)},
        {"candidateId": "g", "kind": "entity", "asset": goods},
    )  # fmt: skip
    assert supply["accepted"] and product["accepted"]


def test_malformed_candidates_are_scored_as_not_publishable(
    validator: ValidationActivities,
) -> None:
    [row] = score(validator, {"name": "no context"})
    assert row["accepted"] is False
    assert any(r.startswith("not publishable JSON-LD") for r in row["reasoning"])


class NodeWithoutStake:
    """A DKG that, like a node without a chain RPC, cannot say what is staked."""

    def __init__(self, store: EmbeddedDkg) -> None:
        self._store = store

    def __getattr__(self, name: str) -> object:
        return getattr(self._store, name)

    def get_metadata(self, ual: str) -> object:
        meta = self._store.get_metadata(ual)
        return meta.model_copy(update={"stakeAmount": None}) if meta is not None else None


def test_unknown_stake_is_scored_without_the_stake_term(store: EmbeddedDkg) -> None:
    blind = ValidationActivities(NodeWithoutStake(store), Auditor(None))
    rows = blind.score(
        ScoreArgs(candidates=[{"candidateId": "c", "asset": claim(LOW, [ALBEMARLE, GANFENG])}]),
        TODAY,
    )
    (row,) = [r for r in rows if "candidateId" in r]
    signals = row["trustSignals"]
    assert signals["stakeKnown"] is False and signals["linkedToHighStakeAssets"] is False
    assert signals["notes"] == ["stake of linked assets unknown: scored without the stake term"]
    assert row["accepted"] is True, "three outlets carry the claim without any stake"


async def test_the_report_survives_a_response_capped_for_many_candidates(
    validator: ValidationActivities,
) -> None:
    many = [
        {"candidateId": f"c{i}", "asset": claim(LOW, [ALBEMARLE], identifier=f"urn:t:{i}",
                                                name=f"Albemarle supplies buyer {i}")}
        for i in range(60)
    ]  # fmt: skip
    response = await validator.score_candidates(ScoreArgs(candidates=many))
    assert response.metadata.truncated, "60 scored candidates are over the tool's cap"
    (report,) = [r["report"] for r in response.results if "report" in r]
    assert report.startswith("Validated 60 candidates")
