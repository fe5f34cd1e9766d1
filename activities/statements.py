"""The `extract_statements` tool: statements from texts, scored for relevance to the question.

A thin adapter: reading and scoring are `mining/relevance_scoring.py` (over
`mining/extraction.py` and `mining/relevance.py`), given the DKG's labels and places and
the worker's embedder (`activities/embeddings.py`). Statements below the relevance floor
are left out of the answer (counted in `metadata.filtered`), so off-topic text never
reaches enrichment; the rest come back most relevant first.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from temporalio import activity

from activities.common import Auditor, cap_results, stops_when_cancelled
from contracts.activity_names import EXTRACT_STATEMENTS
from contracts.tools import (
    ExtractArgs,
    ProvenanceItem,
    Statement,
    ToolMetadata,
    ToolResponse,
)
from mining.relevance import RELEVANCE_FLOOR, Embedder
from mining.relevance_scoring import relevant_statements


class StatementActivities:
    def __init__(self, dkg: Any, embedder: Embedder, auditor: Auditor) -> None:
        self._dkg = dkg
        self._embedder = embedder
        self._audit = auditor

    def extract(self, args: ExtractArgs) -> tuple[list[Statement], int, float | None, list[str]]:
        """(relevant statements best first, how many fell below the floor, best relevance,
        the texts skipped over their reading budget as source#passage)."""
        places_of = getattr(self._dkg, "places_of", None)
        return relevant_statements(
            args.documents, args.query, self._dkg.gazetteer(), self._embedder, places_of
        )

    @activity.defn(name=EXTRACT_STATEMENTS)
    async def extract_statements(self, args: ExtractArgs) -> ToolResponse:
        started = time.perf_counter()
        async with stops_when_cancelled():
            kept, filtered, best, skipped = await asyncio.to_thread(self.extract, args)
        for text in skipped:
            activity.logger.warning("not read, over its reading budget: %s", text)
        rows = [s.model_dump(exclude_defaults=True) for s in kept]
        capped, truncated = cap_results(rows)
        blob = self._audit.overflow(rows) if truncated else None
        elapsed = int((time.perf_counter() - started) * 1000)
        self._audit.record(
            EXTRACT_STATEMENTS, {"n": len(args.documents)}, len(rows), elapsed, True
        )
        return ToolResponse(
            success=True,
            results=capped,
            provenance=[
                ProvenanceItem(
                    source=s.source,
                    source_id=s.passageId,
                    evidence_snippet=s.sentence[:200],
                    evidence_score=s.relevance,
                )
                for s in kept[:50]
            ],
            metadata=ToolMetadata(
                elapsed_ms=elapsed,
                count=len(rows),
                truncated=truncated,
                blobRef=blob,
                filtered=filtered,
                relevanceFloor=RELEVANCE_FLOOR if args.query.strip() else None,
                bestRelevance=best,
                skipped=skipped,
            ),
        )
