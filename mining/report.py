"""The synthesized report of a validation (seed 001 r15): counts, confidence, stake.

Pure: built from the assessments of `mining/scoring.py`, or from their score rows.
"""

from __future__ import annotations

from typing import Any

from mining.scoring import Assessment, plural


def synthesize_report(assessments: list[tuple[str, Assessment]]) -> str:
    """The seed's synthesizedReport: counts, average confidence and stake, then one line each."""
    rows = [
        {"candidateId": cid, "accepted": a.accepted, "reasoning": a.reasoning,
         "trustSignals": {"confidence": a.trustSignals.confidence}}
        for cid, a in assessments
    ]  # fmt: skip
    return "\n".join([report_summary(assessments), *report_lines(rows)])


def report_summary(assessments: list[tuple[str, Assessment]]) -> str:
    """The report's first paragraph: counts, average confidence and stake."""
    if not assessments:
        return "Validated 0 candidates: nothing relevant to the question was found."
    total = len(assessments)
    accepted = sum(1 for _, a in assessments if a.accepted)
    avg_conf = sum(a.trustSignals.confidence for _, a in assessments) / total
    high = sum(1 for _, a in assessments if a.trustSignals.linkedToHighStakeAssets)
    staked = [a for _, a in assessments if a.trustSignals.stakeKnown]
    avg_stake = (
        sum(a.trustSignals.averageLinkedStake for a in staked) / len(staked) if staked else 0.0
    )
    corroborated = sum(1 for _, a in assessments if a.trustSignals.corroborated)
    contradictions = sum(1 for _, a in assessments if a.components.get("contradictionPenalty"))
    duplicates = sum(1 for _, a in assessments if a.components.get("duplicate"))
    return (
        f"Validated {plural(total, 'candidate')}: {accepted} accepted, "
        f"{total - accepted} rejected. "
        f"Average confidence {avg_conf:.2f}. {corroborated} corroborated by more than one "
        f"independent source. {plural(high, 'candidate')} linked to high-stake DKG assets "
        f"(>50,000 TRAC); average linked stake {avg_stake:,.0f} TRAC. "
        f"{plural(contradictions, 'candidate')} with contradictions; "
        f"{plural(duplicates, 'duplicate')} rejected."
    )


def report_lines(rows: list[dict[str, Any]]) -> list[str]:
    """One line per scored candidate (a `score_candidates` row, or a candidate as the
    workflow holds it): its verdict, confidence and reasons."""
    lines = []
    for row in rows:
        verdict = "accepted" if row.get("accepted") else "rejected"
        confidence = float((row.get("trustSignals") or {}).get("confidence") or 0.0)
        reasons = "; ".join(str(r) for r in row.get("reasoning") or [])
        cid = row.get("candidateId")
        lines.append(f"- {cid}: {verdict} (confidence {confidence:.2f}): {reasons}")
    return lines
