"""The `score_candidates` tool: candidates validated against the DKG.

A thin adapter over `mining/assessment.py` (evidence, duplicates, contradictions, stake,
confidence): it takes the run's threshold (given, or from the validation rules), asks the
DKG which publishers it knows, dates the scores by the activity's first scheduling and
audits the call.
"""

from __future__ import annotations

import asyncio
from datetime import date
from typing import Any

from temporalio import activity

from activities.common import Auditor, run_tool
from contracts.activity_names import SCORE_CANDIDATES
from contracts.tools import ScoreArgs, ToolResponse
from mining.assessment import assess_candidates
from mining.scoring import threshold_from_rules

KNOWN_PUBLISHER_MIN_ASSETS = 3

KNOWN_PUBLISHERS_QUERY = """
SELECT ?publisher (COUNT(?ual) AS ?assets) WHERE {
  GRAPH <did:dkg:metadata> { ?ual dkg:publisher ?publisher }
} GROUP BY ?publisher HAVING (COUNT(?ual) >= %d)
"""


class ValidationActivities:
    def __init__(self, dkg: Any, auditor: Auditor) -> None:
        self._dkg = dkg
        self._audit = auditor

    def _known_publishers(self) -> list[str]:
        result = self._dkg.query(KNOWN_PUBLISHERS_QUERY % KNOWN_PUBLISHER_MIN_ASSETS)
        return [str(row["publisher"]) for row in result.rows]

    def score(self, args: ScoreArgs, as_of: str) -> list[dict[str, Any]]:
        threshold = args.threshold
        if threshold is None:
            threshold = threshold_from_rules(args.validationRules)
        publishers = self._known_publishers()
        return assess_candidates(args.candidates, self._dkg, threshold, publishers, as_of)

    @activity.defn(name=SCORE_CANDIDATES)
    async def score_candidates(self, args: ScoreArgs) -> ToolResponse:
        scheduled = activity.info().scheduled_time if activity.in_activity() else None
        as_of = (scheduled.date() if scheduled else date.today()).isoformat()

        def body() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
            return self.score(args, as_of), []

        return await asyncio.to_thread(
            run_tool, self._audit, SCORE_CANDIDATES, {"n": len(args.candidates)}, body
        )
