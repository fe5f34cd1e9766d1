"""The propose_knowledge_assets activity: a thin adapter over mining/proposals.py.

It scores a bare text's relevance with the worker's embedder
(`mining/relevance_scoring.py` `text_relevance`), takes the first scheduling
time as the proposals' date (stable across retries, so a retried activity proposes
byte-identical assets) and audits the call.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any

from temporalio import activity

from activities.common import Auditor, run_tool
from contracts.activity_names import PROPOSE_KNOWLEDGE_ASSETS
from contracts.tools import MAX_PROPOSAL_CHARS, ProposeArgs, ToolResponse
from mining.proposals import propose
from mining.relevance import Embedder
from mining.relevance_scoring import text_relevance


class EnrichmentActivities:
    def __init__(self, dkg: Any, embedder: Embedder, auditor: Auditor) -> None:
        self._dkg = dkg
        self._embedder = embedder
        self._audit = auditor

    def propose(self, args: ProposeArgs, discovered_at: str) -> list[dict[str, Any]]:
        relevance_of = partial(text_relevance, embedder=self._embedder)
        return propose(args, self._dkg, relevance_of, discovered_at)

    @activity.defn(name=PROPOSE_KNOWLEDGE_ASSETS)
    async def propose_knowledge_assets(self, args: ProposeArgs) -> ToolResponse:
        discovered_at = activity.info().scheduled_time.replace(microsecond=0).isoformat()

        def body() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
            return self.propose(args, discovered_at), []

        return await asyncio.to_thread(
            run_tool,
            self._audit,
            PROPOSE_KNOWLEDGE_ASSETS,
            {"n": len(args.statements)},
            body,
            (),
            MAX_PROPOSAL_CHARS,
        )
