"""The `plan_research` activity: a thin adapter over `mining/research_plan.py`.

It reads the DKG's labels and the assets related to the question, and the library
decomposes the question into sub-questions.
"""

from __future__ import annotations

import asyncio
from typing import Any

from temporalio import activity

from contracts.activity_names import PLAN_RESEARCH
from contracts.research import PlanArgs, PlanResult
from mining.nlp import resolver_for
from mining.research_plan import decompose


class ResearchPlanActivities:
    def __init__(self, dkg: Any) -> None:
        self._dkg = dkg

    def plan(self, args: PlanArgs) -> PlanResult:
        gazetteer = self._dkg.gazetteer()
        related = self._dkg.find_related(args.query, limit=8)
        return decompose(args, gazetteer, related, resolver_for(gazetteer))

    @activity.defn(name=PLAN_RESEARCH)
    async def plan_research(self, args: PlanArgs) -> PlanResult:
        return await asyncio.to_thread(self.plan, args)
