"""The confidence formula of mining/scoring.py, against numbers worked out by hand."""

from __future__ import annotations

import pytest

from mining.relevance import RELEVANCE_FLOOR
from mining.scoring import (
    completeness,
    contradiction_penalty,
    corroboration,
    effective_threshold,
    independent_sources,
    missing_fields,
    publisher_reputation,
    stake_term,
    threshold_from_rules,
)
from tests.mining.scoring_inputs import (
    CLAIM,
    LOW_A,
    LOW_B,
    LOW_C,
    PUB,
    TODAY,
    contradiction,
    link,
    scored,
    src,
)


def test_one_low_source_is_never_accepted_whatever_the_stake() -> None:
    # 0.30*0.3 + 0.20*1 + 0.15*0 + 0.15*1 + 0.10*1 (two links > 50k) + 0.10*1 = 0.640
    a = scored(evidence=[src(LOW_A)], linked=[link(1, 500_000), link(2, 500_000)])
    assert a.trustSignals.confidence == 0.64
    assert not a.accepted
    # Relevant and asserted, only short of evidence: a reviewer sees it as a proposal.
    assert "proposed for review: a single low-reliability source is never enough" in a.reasoning
    assert a.trustSignals.proposed and a.trustSignals.support == "one source"
    # Even with a threshold the formula would clear, the gate holds.
    assert not scored(
        evidence=[src(LOW_A)], linked=[link(1, 500_000), link(2, 500_000)], threshold=0.5
    ).accepted


def test_the_same_fact_from_more_sources_outranks_it_from_one() -> None:
    links = [link(1, 500_000), link(2, 500_000)]
    one = scored(evidence=[src(LOW_A)], linked=links)
    two = scored(evidence=[src(LOW_A), src(LOW_B)], linked=links)
    three = scored(evidence=[src(LOW_A), src(LOW_B), src(LOW_C)], linked=links)
    # 1-(0.7^2)=0.51: 0.153+0.2+0.075+0.15+0.1+0.1 = 0.778
    assert two.trustSignals.confidence == 0.778 and two.accepted
    # 1-(0.7^3)=0.657: 0.1971+0.2+0.15+0.15+0.1+0.1 = 0.897
    assert three.trustSignals.confidence == 0.897
    assert one.trustSignals.confidence < two.trustSignals.confidence < three.trustSignals.confidence
    assert (one.trustSignals.independentSources, two.trustSignals.corroborated) == (1, True)


def test_two_passages_of_one_outlet_are_one_source() -> None:
    a = scored(evidence=[src(LOW_A + "#1"), src("https://africa-resources.example.org/b")])
    assert a.trustSignals.independentSources == 1
    assert not a.trustSignals.corroborated


def test_a_well_staked_dkg_asset_can_carry_a_claim_alone_a_weak_one_cannot() -> None:
    ual = "did:dkg:otp:20430/0xcdb/7"
    staked = scored(evidence=[src(ual, stake=200_000)], linked=[link(1, 200_000)])
    weak = scored(evidence=[src(ual, stake=1_000)], linked=[link(1, 200_000)])
    # 0.8 reliability: 0.24+0.2+0+0.15+0.05 (one high link = 0.5)+0.1 = 0.74
    assert staked.trustSignals.confidence == 0.74 and staked.accepted
    assert "proposed for review: a single low-reliability source is never enough" in (
        weak.reasoning
    )
    assert staked.trustSignals.support == weak.trustSignals.support == "stated by a DKG asset"


def test_relevance_weighs_and_gates() -> None:
    links = [link(1, 500_000), link(2, 500_000)]
    on = scored(evidence=[src(LOW_A), src(LOW_B)], linked=links, relevance=0.9)
    off = scored(evidence=[src(LOW_A), src(LOW_B)], linked=links, relevance=0.3)
    assert round(on.trustSignals.confidence - off.trustSignals.confidence, 3) == 0.12
    assert on.accepted and not off.accepted
    assert any("relevance floor" in r for r in off.reasoning)
    # Without an explicit relevance, the best evidence score is the claim's relevance.
    assert scored(evidence=[src(LOW_A, 0.2), src(LOW_B, 0.7)]).trustSignals.relevance == 0.7


def test_unknown_stake_is_left_out_not_counted_as_zero() -> None:
    ev = [src(LOW_A), src(LOW_B), src(LOW_C)]
    unknown = scored(evidence=ev, linked=[link(1, None), link(2, None)])
    zero = scored(evidence=ev, linked=[link(1, 0.0), link(2, 0.0)])
    # unknown: (0.1971+0.2+0.15+0.15+0.1*1.0) / 0.9 = 0.886; zero stake: 0.797
    assert unknown.trustSignals.confidence == 0.886
    assert zero.trustSignals.confidence == 0.797
    assert unknown.trustSignals.stakeKnown is False and zero.trustSignals.stakeKnown is True
    assert unknown.trustSignals.notes == [
        "stake of linked assets unknown: scored without the stake term"
    ]
    assert unknown.components["stake"] == -1.0


def test_no_links_leaves_out_stake_and_publisher() -> None:
    a = scored(evidence=[src(LOW_A), src(LOW_B), src(LOW_C)])
    # (0.1971 + 0.2 + 0.15 + 0.15) / 0.8 = 0.871
    assert a.trustSignals.confidence == 0.871
    assert a.trustSignals.notes == ["no linked DKG assets: scored without the stake term"]
    assert (a.trustSignals.averageLinkedStake, a.trustSignals.linkedToHighStakeAssets) == (
        0.0,
        False,
    )


def test_gates_each_say_why() -> None:
    ev = [src(LOW_A), src(LOW_B), src(LOW_C)]
    assert (
        "rejected: generic relation relatedTo: needs a reviewer"
        in scored(evidence=ev, predicate="relatedTo").reasoning
    )
    assert (
        "rejected: hedged in its source (possible, not stated)"
        in scored(evidence=ev, hedged=True).reasoning
    )
    dup = scored(evidence=ev, duplicates=["did:dkg:x/1", "  "])
    assert "rejected: duplicates existing asset did:dkg:x/1" in dup.reasoning
    assert dup.components["duplicate"] == 1.0 and not dup.accepted
    flagged = scored(evidence=ev, flaggedRecords=1)
    assert not flagged.accepted and flagged.trustSignals.confidence == 0.721  # 0.871 - 0.15
    good = scored(evidence=ev)
    assert good.accepted and good.reasoning[-1] == "confidence 0.871 >= threshold 0.70: accepted"


def test_confidence_equal_to_threshold_is_accepted() -> None:
    a = scored(evidence=[src(LOW_A), src(LOW_B), src(LOW_C)], threshold=0.871)
    assert a.accepted
    assert not scored(evidence=[src(LOW_A), src(LOW_B), src(LOW_C)], threshold=0.872).accepted


def test_threshold_never_goes_below_the_minimum() -> None:
    assert effective_threshold(0.1) == 0.5 and effective_threshold(0.8) == 0.8
    weak = scored(evidence=[src(LOW_A, 0.5), src(LOW_B, 0.5)], threshold=0.0)
    assert weak.trustSignals.confidence < 0.5 or weak.accepted


def test_recency_lowers_old_evidence() -> None:
    fresh = scored(evidence=[src(LOW_A), src(LOW_B)])
    old = scored(evidence=[src(LOW_A, published="2014-01-01"), src(LOW_B, published="2014-01-01")])
    assert old.trustSignals.confidence < fresh.trustSignals.confidence
    assert old.components["evidence"] == round(1 - (1 - 0.15) ** 2, 4)


def test_independent_sources_keep_the_best_weight_per_source() -> None:
    best = independent_sources(
        [src(LOW_A, published="2010-01-01"), src(LOW_A + "/2"), src("  ")], TODAY
    )
    assert best == {"africa-resources.example.org": ("low", 0.3)}


def test_corroboration_steps() -> None:
    assert [corroboration(n) for n in (0, 1, 2, 3, 4)] == [0.0, 0.0, 0.5, 1.0, 1.0]


def test_stake_term() -> None:
    assert stake_term([]) == (None, False, 0.0)
    assert stake_term([link(1, None)]) == (None, False, 0.0)
    assert stake_term([link(1, 50_000)]) == (0.0, False, 50_000.0)
    assert stake_term([link(1, 50_001)]) == (0.5, True, 50_001.0)
    assert stake_term([link(1, 60_000), link(2, 60_000), link(3, 60_000)])[0] == 1.0
    # The same asset linked twice counts once; unknown stakes do not enter the average.
    assert stake_term([link(1, 100_000), link(1, 100_000), link(2, None)]) == (0.5, True, 100_000.0)
    assert stake_term([link(1, 0.0), link(2, 100.0)]) == (0.0, False, 50.0)
    assert stake_term([link(1, 0.0), link(2, 0.0), link(3, 100.0)])[2] == 33.33


def test_publisher_reputation() -> None:
    assert publisher_reputation([], [PUB]) is None
    assert publisher_reputation([link(1, 1.0, PUB, 0)], [PUB.lower()]) == 0.8
    assert publisher_reputation([link(1, 1.0, "0xother", 3)], [PUB]) == 0.2
    assert publisher_reputation([link(1, 1.0, None, 0), link(2, 1.0, PUB, 1)], [PUB]) == 0.5
    assert publisher_reputation([link(1, 1.0, PUB, 0)], ["  "]) == 0.0
    assert (
        publisher_reputation(
            [link(1, 1.0, PUB, 0), link(2, 1.0, None, 0), link(3, 1.0, None, 0)], [PUB]
        )
        == 0.2667
    )


def test_completeness_and_missing_fields() -> None:
    assert completeness(CLAIM, ["@type", "name", "identifier"]) == 1.0
    partial = {"@type": "Claim", "name": " ", "properties": {"identifier": "x"}}
    assert missing_fields(partial, ["@type", "name", "identifier"]) == ["name"]
    assert completeness(partial, ["@type", "name", "identifier"]) == pytest.approx(2 / 3)
    assert completeness({}, []) == 1.0
    assert missing_fields({"a": [], "b": {}, "c": 0, "d": None}, ["a", "b", "c", "d"]) == [
        "a", "b", "d"
    ]  # fmt: skip
    a = scored(candidate={"@type": "Claim"}, evidence=[src(LOW_A), src(LOW_B), src(LOW_C)])
    assert a.reasoning[0] == "completeness 1/3 required fields (missing name, identifier)"


def test_contradiction_penalty_values_and_cap() -> None:
    assert contradiction_penalty([contradiction(50_001)]) == 0.3
    assert contradiction_penalty([contradiction(50_000)]) == 0.1
    assert contradiction_penalty([contradiction(None)]) == 0.2
    assert contradiction_penalty([], records=2) == 0.3
    assert contradiction_penalty([contradiction(1e6, f"did:x/{i}") for i in range(3)]) == 0.6
    # The same property against the same asset counts once.
    assert contradiction_penalty([contradiction(1e6), contradiction(1e6)]) == 0.3


def test_a_high_stake_contradiction_flips_accept_to_reject() -> None:
    ev = [src(LOW_A), src(LOW_B), src(LOW_C)]
    a = scored(evidence=ev, contradictions=[contradiction(100_000)])
    assert a.trustSignals.confidence == 0.571 and not a.accepted
    assert any(
        r.startswith("contradicts did:dkg:otp:20430/0xcdb/99 on foundingDate") for r in a.reasoning
    )


def test_confidence_is_clamped() -> None:
    a = scored(
        candidate={}, evidence=[], contradictions=[contradiction(1e6, f"u{i}") for i in range(3)]
    )
    assert a.trustSignals.confidence == 0.0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("- accept_threshold: 0.75", 0.75),
        ("confidence threshold = 0.8", 0.8),
        ("min_confidence: 0.65", 0.65),
        ("Reject if confidence < 0.6", 0.6),
        ("Accept if confidence >= 0.9", 0.9),
        ("accept_threshold: 0.2", 0.5),  # never below the minimum
        ("accept_threshold: 1.5", 0.7),
        ("accept_threshold: 75%", 0.7),
        ("accept_threshold: 0.75\naccept_threshold: 0.85", 0.85),
        ("nothing here", 0.7),
    ],
)
def test_threshold_from_rules(text: str, expected: float) -> None:
    assert threshold_from_rules(text) == expected


def test_relevance_at_the_floor_passes_and_above_one_counts_as_one() -> None:
    ev = [src(LOW_A), src(LOW_B), src(LOW_C)]
    at_floor = scored(evidence=ev, relevance=RELEVANCE_FLOOR)
    assert not any("relevance floor" in r for r in at_floor.reasoning if r.startswith("rejected"))
    assert (
        scored(evidence=ev, relevance=1.7).trustSignals.confidence
        == scored(evidence=ev, relevance=1.0).trustSignals.confidence
    )


def test_a_dkg_source_exactly_at_the_single_source_bar_is_enough() -> None:
    # 0.5 + 0.3 * (100,000 / 3) / 100,000 = 0.6: the bar itself.
    ual = "did:dkg:otp:20430/0xcdb/7"
    a = scored(evidence=[src(ual, stake=100_000 / 3)])
    assert not any("single low-reliability" in r for r in a.reasoning)


def test_source_keys_take_declared_tiers_and_skip_blank_sources() -> None:
    found = independent_sources(
        [src("  "), src("file:///memo.md", tier="high"), src(LOW_A, tier="medium")], TODAY
    )
    assert found == {
        "file:///memo.md": ("high", 0.8),
        "africa-resources.example.org": ("medium", 0.6),
    }


def test_one_element_lists_count_as_filled() -> None:
    assert missing_fields({"name": ["x"], "identifier": {"a": 1}}, ["name", "identifier"]) == []


def test_thresholds_at_the_edges_of_the_unit_range() -> None:
    assert threshold_from_rules("accept_threshold: 1.0") == 1.0
    assert threshold_from_rules("accept_threshold: 0") == 0.5
    assert threshold_from_rules("") == 0.7


def test_missing_fields_cost_confidence() -> None:
    ev = [src(LOW_A), src(LOW_B), src(LOW_C)]
    full, partial = scored(evidence=ev), scored(candidate={"@type": "Claim"}, evidence=ev)
    # completeness 1/3 instead of 1: 0.15 * (2/3) / 0.8 less
    assert round(full.trustSignals.confidence - partial.trustSignals.confidence, 3) == 0.125
    assert partial.components["completeness"] == 0.3333


def test_a_single_fresh_high_tier_source_passes_the_single_source_gate() -> None:
    a = scored(evidence=[src("https://www.usgs.gov/lithium")], linked=[link(1, 100_000)])
    assert a.reasoning[1] == "1 independent source (1 high): evidence 0.80"
    assert not any("single low-reliability" in r for r in a.reasoning)
    medium = scored(evidence=[src("https://www.reuters.com/x"), src(LOW_A)])
    assert medium.reasoning[1] == "2 independent sources (1 medium, 1 low): evidence 0.72"


def test_a_claim_short_only_of_evidence_is_proposed_any_other_gate_rejects_it() -> None:
    two = scored(evidence=[src(LOW_A), src(LOW_B)], linked=[])
    assert two.trustSignals.support == "2 independent sources"
    assert two.accepted and not two.trustSignals.proposed
    low = scored(evidence=[src(LOW_A), src(LOW_B)], linked=[link(1, 1_000)], relevance=0.45)
    assert not low.accepted and low.trustSignals.proposed
    hedged = scored(evidence=[src(LOW_A)], hedged=True)
    assert not hedged.trustSignals.proposed
    assert "rejected: a single low-reliability source is never enough" in hedged.reasoning
    entity = scored(evidence=[src(LOW_A)], predicate=None)
    assert not entity.trustSignals.proposed  # only claims are proposed on their own
    generic = scored(evidence=[src(LOW_A)], predicate="relatedTo")
    assert not generic.trustSignals.proposed
