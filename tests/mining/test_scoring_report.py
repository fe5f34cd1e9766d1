"""What an assessment says of itself (mining/scoring.py, mining/report.py): the reasoning
in words, the components it records, its JSON, and the validation report over several."""

from __future__ import annotations

from mining.relevance import RELEVANCE_FLOOR
from mining.report import synthesize_report
from mining.scoring import Assessment
from tests.mining.scoring_inputs import LOW_A, LOW_B, LOW_C, contradiction, link, scored, src


def test_synthesized_report_counts() -> None:
    ev = [src(LOW_A), src(LOW_B), src(LOW_C)]
    good = scored(evidence=ev, linked=[link(1, 100_000)])
    bad = scored(evidence=[src(LOW_A)], duplicates=["did:x/1"])
    report = synthesize_report([("cand-a", good), ("cand-b", bad)])
    first = report.splitlines()[0]
    assert first.startswith("Validated 2 candidates: 1 accepted, 1 rejected.")
    assert "1 corroborated by more than one independent source" in first
    assert "1 candidate linked to high-stake DKG assets" in first
    assert "average linked stake 100,000 TRAC" in first
    assert "1 duplicate rejected" in first
    assert report.splitlines()[1].startswith("- cand-a: accepted")
    assert synthesize_report([]).startswith("Validated 0 candidates")


def test_assessment_round_trips_as_json() -> None:
    a = scored(evidence=[src(LOW_A), src(LOW_B)])
    assert Assessment.model_validate_json(a.model_dump_json()) == a


def test_the_reasoning_explains_every_term_in_words() -> None:
    a = scored(
        evidence=[src(LOW_A), src("https://www.usgs.gov/x"), src("did:dkg:a/b/9", stake=80_000)],
        linked=[link(1, 60_000), link(2, 10_000)],
        flaggedRecords=2,
    )
    assert a.reasoning == [
        "completeness 3/3 required fields",
        "3 independent sources (1 high, 1 low, 1 dkg): evidence 0.96",
        f"relevance to the question 1.00 (floor {RELEVANCE_FLOOR:g})",
        "linked to 2 assets, average stake 35,000 TRAC, some above 50,000: stake term 0.50",
        "publisher reputation 1.00",
        "2 flagged contradictions with other sources or candidates: -0.30",
        # 0.3*0.9636 + 0.2 + 0.15 + 0.15 + 0.1*0.5 + 0.1*1 = 0.939, minus 0.30
        "rejected: confidence 0.639 < threshold 0.70",
        "rejected: contradicted by another source or candidate: a reviewer resolves it",
    ]
    lone = scored(evidence=[src(LOW_A, 0.3)], linked=[link(1, 1_000)], duplicates=["u1", "u2"])
    assert lone.reasoning[1] == "1 independent source (1 low): evidence 0.30"
    assert lone.reasoning[3] == (
        "linked to 1 asset, average stake 1,000 TRAC, none above 50,000: stake term 0.00"
    )
    assert lone.reasoning[-4:] == [
        "rejected: confidence 0.400 < threshold 0.70",  # 0.09 + 0.06 + 0.15 + 0.1
        "rejected: below the relevance floor: off-topic for the question",
        "rejected: a single low-reliability source is never enough",
        "rejected: duplicates existing asset u1, u2",
    ]
    one_flag = scored(evidence=[src(LOW_A)], flaggedRecords=1)
    assert "1 flagged contradiction with other sources or candidates: -0.15" in one_flag.reasoning
    nothing = scored(evidence=[])
    assert nothing.reasoning[1] == "0 independent sources (none): evidence 0.00"
    assert nothing.trustSignals.relevance == 0.0  # no evidence, no relevance


def test_components_record_each_term() -> None:
    a = scored(evidence=[src(LOW_A), src(LOW_B)], linked=[link(1, 60_000)], relevance=0.555)
    assert a.components == {
        "completeness": 1.0,
        "evidence": 0.51,
        "relevance": 0.555,
        "corroboration": 0.5,
        "stake": 0.5,
        "publisherReputation": 1.0,
        "contradictionPenalty": 0.0,
        "duplicate": 0.0,
        "linkedAssets": 1.0,
        "independentSources": 2.0,
    }
    assert a.trustSignals.relevance == 0.555
    assert scored(evidence=[src(LOW_A)]).components["publisherReputation"] == -1.0
    assert scored(evidence=[src(LOW_A)], linked=[link(1, 60_000)]).components["stake"] == 0.5


def test_report_averages_and_verdicts() -> None:
    ev = [src(LOW_A), src(LOW_B), src(LOW_C)]
    a = scored(evidence=ev, linked=[link(1, 100_000)])
    b = scored(evidence=ev, linked=[link(2, 20_000)], contradictions=[contradiction(1e6)])
    c = scored(evidence=ev)  # no stake known: left out of the stake average
    report = synthesize_report([("a", a), ("b", b), ("c", c)])
    first = report.splitlines()[0]
    conf = (a.trustSignals.confidence + b.trustSignals.confidence + c.trustSignals.confidence) / 3
    assert f"Average confidence {conf:.2f}." in first
    assert "average linked stake 60,000 TRAC" in first
    assert "1 candidate with contradictions;" in first
    assert "0 duplicates rejected" in first
    lines = report.splitlines()
    assert lines[2].startswith(f"- b: rejected (confidence {b.trustSignals.confidence:.2f}): ")
    assert "; ".join(b.reasoning) in lines[2]
    lonely = synthesize_report([("c", c)])
    assert "average linked stake 0 TRAC" in lonely and "0 candidates with contradictions" in lonely


def test_relevance_is_reported_to_three_places_and_kept_to_four() -> None:
    a = scored(evidence=[src(LOW_A), src(LOW_B)], relevance=0.55556)
    assert a.trustSignals.relevance == 0.556
    assert a.components["relevance"] == 0.5556
