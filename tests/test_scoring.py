"""The trust formula of activities/scoring.py, checked against numbers worked out by hand."""

from __future__ import annotations

import pytest

from activities.scoring import (
    Assessment,
    Contradiction,
    LinkedAssetInfo,
    ScoringInput,
    completeness,
    contradiction_penalty,
    duplicate_penalty,
    publisher_reputation,
    score_candidate,
    source_reliability,
    stake_bonus,
    synthesize_report,
    threshold_from_rules,
)

COMPLETE = {"@type": "Organization", "name": "Ganfeng Lithium", "identifier": "CN-002460"}
GOV = "https://www.usgs.gov/centers/national-minerals-information-center/lithium"
NEWS = "https://www.reuters.com/markets/commodities/lithium-2025"
PUBLISHER = "0xAbC0000000000000000000000000000000000001"


def link(n: int, stake: float, publisher: str | None = None, updates: int = 0) -> LinkedAssetInfo:
    return LinkedAssetInfo(
        ual=f"did:dkg:otp:20430/0xcdb/{n}",
        stakeAmount=stake,
        publisher=publisher,
        updateCount=updates,
    )


def contradiction(stake: float, ual: str = "did:dkg:otp:20430/0xcdb/99") -> Contradiction:
    return Contradiction(
        property="foundingDate",
        candidateValue="1992",
        existingValue="2000",
        existingUal=ual,
        existingStake=stake,
    )


def good_candidate(**extra: object) -> ScoringInput:
    # complete (0.35) + one .gov source (0.25*0.8 = 0.20) + one 75,000 TRAC link (+0.20)
    # by a known publisher that updated it (reputation 0.8 + 0.2 = 1.0 -> +0.10) = 0.85
    return ScoringInput(
        candidate=COMPLETE,
        sources=[GOV],
        linked=[link(1, 75_000, PUBLISHER, 2)],
        knownPublishers=[PUBLISHER.lower()],
        **extra,
    )


def test_complete_candidate_with_one_source_and_two_high_stake_links() -> None:
    inp = ScoringInput(
        candidate=COMPLETE,
        sources=[NEWS],
        linked=[link(1, 60_000, PUBLISHER), link(2, 90_000, "0xunknown")],
        knownPublishers=[PUBLISHER],
    )
    # completeness 3/3          0.35 * 1.0            = 0.35
    # one news source (0.6)     0.25 * 0.6            = 0.15
    # two links > 50,000 TRAC   2 * 0.2               = 0.40
    # publisher: 1 of 2 known, none updated: (0.8*1 + 0.2*0) / 2 = 0.4 -> 0.1 * 0.4 = 0.04
    # total                                            = 0.94
    a = score_candidate(inp)
    assert a.trustSignals.confidence == 0.94
    assert a.trustSignals.linkedToHighStakeAssets is True
    assert a.trustSignals.averageLinkedStake == 75_000.0  # (60,000 + 90,000) / 2
    assert a.accepted is True
    assert "linked to 2 high-stake assets (>50,000 TRAC): +0.40" in a.reasoning
    assert a.components["stakeBonus"] == 0.4
    assert a.components["publisherReputation"] == 0.4


def test_good_candidate_scores_085() -> None:
    a = score_candidate(good_candidate())
    assert a.trustSignals.confidence == 0.85
    assert a.accepted
    assert a.reasoning[-1] == "confidence 0.850 >= threshold 0.70: accepted"


def test_stake_bonus_per_asset_and_cap() -> None:
    assert stake_bonus([]) == (0.0, False, 0.0)
    assert stake_bonus([link(1, 50_000)]) == (0.0, False, 50_000.0)  # strictly above 50K
    assert stake_bonus([link(1, 50_001)]) == (0.2, True, 50_001.0)
    assert stake_bonus([link(1, 60_000), link(2, 70_000)]) == (0.4, True, 65_000.0)
    # three high-stake links still give +0.4; the average covers every linked asset
    bonus, high, avg = stake_bonus(
        [link(1, 60_000), link(2, 70_000), link(3, 80_000), link(4, 10_000)]
    )
    assert (bonus, high, avg) == (0.4, True, 55_000.0)  # 220,000 / 4
    # the same UAL listed twice counts once
    assert stake_bonus([link(1, 60_000), link(1, 60_000)]) == (0.2, True, 60_000.0)


def test_stake_cap_shows_in_reasoning() -> None:
    a = score_candidate(
        ScoringInput(
            candidate=COMPLETE,
            sources=[],
            linked=[link(1, 60_000), link(2, 70_000), link(3, 80_000)],
        )
    )
    # 0.35 + 0 sources + 0.4 (capped) + 0 reputation = 0.75
    assert a.trustSignals.confidence == 0.75
    assert "linked to 3 high-stake assets (>50,000 TRAC): +0.40 (capped)" in a.reasoning


def test_no_links_means_no_stake_and_no_reputation() -> None:
    a = score_candidate(ScoringInput(candidate=COMPLETE, sources=[GOV]))
    # 0.35 + 0.20 = 0.55 < 0.7
    assert a.trustSignals.confidence == 0.55
    assert a.trustSignals.linkedToHighStakeAssets is False
    assert a.trustSignals.averageLinkedStake == 0.0
    assert not a.accepted
    assert "no linked DKG assets: +0.00" in a.reasoning


def test_confidence_equal_to_threshold_is_accepted() -> None:
    # 0.35 + 0.25*0.6 + 0.2 = 0.70 (the float sum is rounded to 3 decimals before comparing)
    a = score_candidate(ScoringInput(candidate=COMPLETE, sources=[NEWS], linked=[link(1, 51_000)]))
    assert a.trustSignals.confidence == 0.7
    assert a.accepted


def test_completeness() -> None:
    req = ["@type", "name", "identifier"]
    assert completeness(COMPLETE, req) == 1.0
    assert completeness({"@type": "Organization", "name": "X", "identifier": "  "}, req) == 2 / 3
    nested = {"@type": "Organization", "properties": {"name": "X", "identifier": "Y"}}
    assert completeness(nested, req) == 1.0
    assert completeness({"name": None, "identifier": []}, req) == 0.0
    assert completeness({}, []) == 1.0


def test_missing_field_lowers_confidence_and_is_named() -> None:
    cand = {"@type": "Organization", "name": "Ganfeng Lithium"}
    a = score_candidate(good_candidate().model_copy(update={"candidate": cand}))
    # 0.85 - 0.35/3 = 0.7333... -> 0.733
    assert a.trustSignals.confidence == 0.733
    assert a.reasoning[0] == "completeness 2/3 required fields (missing identifier): +0.23"


def test_source_reliability_tiers_and_diminishing_returns() -> None:
    assert source_reliability([]) == 0.0
    assert source_reliability([GOV]) == 0.8
    assert source_reliability(["did:dkg:otp:20430/0xcdb/7"]) == 0.8
    assert source_reliability(["https://www.gov.uk/x", "https://www.who.int/y"]) == 0.96
    assert source_reliability([NEWS]) == 0.6
    assert source_reliability(["https://someblog.example.com/post"]) == 0.3
    # same outlet twice is one source
    assert source_reliability([NEWS, "https://reuters.com/other"]) == 0.6
    # 1 - (1-0.8)(1-0.6) = 0.92; a third, weak source adds less: 1 - 0.08*0.7 = 0.944
    assert source_reliability([GOV, NEWS]) == 0.92
    assert source_reliability([GOV, NEWS, "blog.example.org"]) == 0.944


def test_publisher_reputation() -> None:
    assert publisher_reputation([], [PUBLISHER]) == 0.0
    assert publisher_reputation([link(1, 1, PUBLISHER, 3)], [PUBLISHER.upper()]) == 1.0
    # 2 assets: 1 known (0.8), 1 updated (0.2) -> (0.8 + 0.2) / 2
    assert publisher_reputation([link(1, 1, PUBLISHER), link(2, 1, None, 1)], [PUBLISHER]) == 0.5


def test_contradiction_penalty_values_and_cap() -> None:
    assert contradiction_penalty([]) == 0.0
    assert contradiction_penalty([contradiction(80_000)]) == 0.3
    assert contradiction_penalty([contradiction(10_000)]) == 0.1
    three_high = [contradiction(80_000, f"did:dkg:x/{i}") for i in range(3)]
    assert contradiction_penalty(three_high) == 0.6  # 0.9 capped
    # the same property against the same asset is one contradiction
    assert contradiction_penalty([contradiction(80_000), contradiction(80_000)]) == 0.3


def test_high_stake_contradiction_flips_accept_to_reject() -> None:
    before = score_candidate(good_candidate())
    after = score_candidate(good_candidate(contradictions=[contradiction(80_000)]))
    assert before.accepted and before.trustSignals.confidence == 0.85
    # 0.85 - 0.30 = 0.55 < 0.70
    assert after.trustSignals.confidence == 0.55
    assert not after.accepted
    assert (
        "contradicts did:dkg:otp:20430/0xcdb/99 on foundingDate (1992 vs 2000): -0.30"
        in after.reasoning
    )
    assert after.components["contradictions"] == 1.0
    # a low-stake contradiction costs only 0.1: 0.75, still accepted
    low = score_candidate(good_candidate(contradictions=[contradiction(10_000)]))
    assert low.trustSignals.confidence == 0.75 and low.accepted


def test_duplicate_is_rejected_outright() -> None:
    assert duplicate_penalty([]) == 0.0
    assert duplicate_penalty(["did:dkg:otp:20430/0xcdb/5"]) == 1.0
    a = score_candidate(good_candidate(duplicates=["did:dkg:otp:20430/0xcdb/5"]))
    assert a.trustSignals.confidence == 0.85  # the evidence is unchanged ...
    assert not a.accepted  # ... but a second copy is never published
    assert "duplicates existing asset did:dkg:otp:20430/0xcdb/5: rejected" in a.reasoning


def test_threshold_override_changes_verdict() -> None:
    assert not score_candidate(good_candidate(threshold=0.9)).accepted
    with pytest.raises(ValueError):
        ScoringInput(candidate=COMPLETE, threshold=1.5)


def test_clamped_to_zero_and_one() -> None:
    high = score_candidate(
        ScoringInput(
            candidate=COMPLETE,
            sources=[GOV, NEWS],
            linked=[link(1, 90_000, PUBLISHER, 1), link(2, 90_000, PUBLISHER, 1)],
            knownPublishers=[PUBLISHER],
        )
    )
    assert high.trustSignals.confidence == 1.0  # 0.35 + 0.23 + 0.4 + 0.1 = 1.08
    low = score_candidate(
        ScoringInput(
            candidate={},
            contradictions=[contradiction(80_000, f"did:dkg:x/{i}") for i in range(2)],
        )
    )
    assert low.trustSignals.confidence == 0.0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", 0.7),
        ("# Validation Rules\n- accept_threshold: 0.75\n", 0.75),
        ("## Edge Cases\n- Case 2: Reject if confidence < 0.65\n", 0.65),
        ("- accept_threshold: 0.75\n- Reject if confidence < 0.8\n", 0.8),  # last one wins
        ("- accept_threshold: 0.8\n- accept_threshold: 1.5\n", 0.8),  # out of range ignored
        ("- accept_threshold: high\n- accept_threshold: -0.2\n", 0.7),
        ("- accept_threshold: 0.7.5\n- accept threshold = 70%\n", 0.7),
        ("- Accept if confidence >= 0.6\n", 0.6),
        ("- minimum confidence: 0.72\n", 0.72),
        ("stake threshold 50000 TRAC; Reject if confidence <= .9", 0.9),
    ],
)
def test_threshold_from_rules(text: str, expected: float) -> None:
    assert threshold_from_rules(text) == expected


def test_threshold_from_rules_default_is_kept() -> None:
    assert threshold_from_rules("nothing here", default=0.55) == 0.55


def test_synthesized_report_numbers() -> None:
    good = score_candidate(good_candidate())  # 0.85, accepted, 1 link of 75,000
    bad = score_candidate(
        ScoringInput(
            candidate=COMPLETE,
            sources=[GOV],
            linked=[link(5, 20_000)],
            contradictions=[contradiction(80_000)],
        )
    )  # 0.35 + 0.20 + 0 + 0 - 0.30 = 0.25, rejected, 1 link of 20,000
    dup = score_candidate(ScoringInput(candidate=COMPLETE, duplicates=["did:dkg:x/1"]))  # 0.35
    report = synthesize_report([("ka-1", good), ("ka-2", bad), ("ka-3", dup)])
    lines = report.splitlines()
    # average confidence (0.85 + 0.25 + 0.35) / 3 = 0.4833; stake over candidates with links:
    # (75,000 + 20,000) / 2 = 47,500
    assert lines[0] == (
        "Validated 3 candidates: 1 accepted, 2 rejected. Average confidence 0.48. "
        "1 candidate linked to high-stake DKG assets (>50,000 TRAC); "
        "average linked stake 47,500 TRAC. 1 contradiction flagged; 1 duplicate rejected."
    )
    assert lines[1].startswith("- ka-1: accepted (confidence 0.85): completeness 3/3")
    assert lines[2].startswith("- ka-2: rejected (confidence 0.25)")
    assert len(lines) == 4
    assert synthesize_report([("ka-1", good), ("ka-2", bad), ("ka-3", dup)]) == report
    assert synthesize_report([]) == "Validated 0 candidates: nothing to report."


def test_assessment_round_trips_as_json() -> None:
    a = score_candidate(good_candidate())
    assert Assessment.model_validate_json(a.model_dump_json()) == a
