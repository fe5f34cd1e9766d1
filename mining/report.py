"""The synthesized report of a validation (seed 001 r15): counts, confidence, stake.

Pure: built from the assessments of `mining/scoring.py` only.
"""

from __future__ import annotations

from mining.scoring import Assessment, plural


def synthesize_report(assessments: list[tuple[str, Assessment]]) -> str:
    """The seed's synthesizedReport: counts, average confidence and stake, then one line each."""
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
    summary = (
        f"Validated {plural(total, 'candidate')}: {accepted} accepted, "
        f"{total - accepted} rejected. "
        f"Average confidence {avg_conf:.2f}. {corroborated} corroborated by more than one "
        f"independent source. {plural(high, 'candidate')} linked to high-stake DKG assets "
        f"(>50,000 TRAC); average linked stake {avg_stake:,.0f} TRAC. "
        f"{plural(contradictions, 'candidate')} with contradictions; "
        f"{plural(duplicates, 'duplicate')} rejected."
    )
    lines = [summary]
    for cid, a in assessments:
        verdict = "accepted" if a.accepted else "rejected"
        lines.append(
            f"- {cid}: {verdict} (confidence {a.trustSignals.confidence:.2f}): "
            + "; ".join(a.reasoning)
        )
    return "\n".join(lines)
