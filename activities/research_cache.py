"""Research cache activities: find an earlier task a paraphrase can reuse, store a new one.

A hit needs the same thread, a completed task younger than `maxAgeDays` and cosine
similarity of the questions' embeddings (the worker's embedder, unit vectors) of at least
`similarityThreshold`. The evidence (statements with their passage provenance) lives in
the `Blob` table; the row keeps only its reference. Only the tasks of runs acting for the
same principal are considered, unless the operator shares the cache
(KM_RESEARCH_CACHE_SHARED, docs/operations.md).
"""

from __future__ import annotations

import asyncio
import json
import time
from datetime import datetime, timedelta

import numpy as np
from sqlalchemy.engine import Engine
from temporalio import activity

from activities.common import store_blob
from activities.run_context import current_principal
from contracts.activity_names import RESEARCH_CACHE_LOOKUP, RESEARCH_CACHE_STORE
from contracts.research import (
    CacheHit,
    CacheLookupArgs,
    CacheLookupResult,
    CacheStoreArgs,
    ResearchQuestion,
)
from contracts.tools import Statement, ToolMetadata
from mining.relevance import Embedder
from storage.sql.research_cache import ResearchCache, aware
from storage.sql.tables import ResearchRun


class ResearchCacheActivities:
    def __init__(self, engine: Engine, embedder: Embedder, shared: bool = False) -> None:
        self._engine = engine
        self._cache = ResearchCache(engine)
        self._embedder = embedder
        self._shared = shared  # every principal's tasks reusable (an operator's choice)

    def lookup(self, args: CacheLookupArgs) -> CacheLookupResult:
        now = aware(datetime.fromisoformat(args.now))
        rows = self._cache.recent(
            args.threadId,
            now - timedelta(days=args.maxAgeDays),
            self._embedder.name,
            principal=current_principal(),
            shared=self._shared,
        )
        if not rows:
            return CacheLookupResult()
        query = self._embedder.embed([args.query])[0]
        best: tuple[float, ResearchRun] | None = None
        for row in rows:
            vector = np.asarray(json.loads(row.embedding), dtype=np.float32)
            if vector.shape != query.shape:
                continue
            cosine = float(vector @ query)
            if best is None or cosine > best[0]:
                best = (cosine, row)
        if best is None or best[0] < args.similarityThreshold:
            return CacheLookupResult(considered=len(rows))
        cosine, row = best
        body = self._cache.evidence(row.evidence_ref)
        if body is None:
            return CacheLookupResult(considered=len(rows))  # evidence gone: gather again
        evidence = json.loads(body)
        return CacheLookupResult(
            considered=len(rows),
            hit=CacheHit(
                taskId=row.task_id,
                query=row.query,
                similarity=round(cosine, 4),
                createdAt=aware(row.created_at).isoformat(),
                plan=row.plan,
                questions=[ResearchQuestion.model_validate(q) for q in evidence["questions"]],
                statements=[Statement.model_validate(s) for s in evidence["statements"]],
                sources=list(evidence.get("sources", [])),
                synthesis=str(evidence.get("synthesis", "")),
            ),
        )

    def store(self, args: CacheStoreArgs) -> bool:
        vector = self._embedder.embed([args.query])[0]
        evidence = {
            "questions": [q.model_dump(mode="json") for q in args.questions],
            "statements": [
                s.model_dump(mode="json", exclude_defaults=True) for s in args.statements
            ],
            "sources": args.sources,
            "synthesis": args.synthesis,
        }
        ref = store_blob(self._engine, json.dumps(evidence, sort_keys=True))
        completed = aware(datetime.fromisoformat(args.completedAt))
        return self._cache.store(
            ResearchRun(
                task_id=args.taskId,
                thread_id=args.threadId,
                principal=current_principal(),
                query=args.query,
                embedder=self._embedder.name,
                embedding=json.dumps([round(float(x), 6) for x in vector]),
                plan=args.plan,
                evidence_ref=ref,
                statement_count=len(args.statements),
                created_at=completed,
                completed_at=completed,
            )
        )

    def timed_lookup(self, args: CacheLookupArgs) -> CacheLookupResult:
        started = time.perf_counter()
        found = self.lookup(args)
        found.metadata = ToolMetadata(
            elapsed_ms=int((time.perf_counter() - started) * 1000),
            cache_hit=found.hit is not None,
            source_id=found.hit.taskId if found.hit else None,
            count=len(found.hit.statements) if found.hit else 0,
        )
        return found

    @activity.defn(name=RESEARCH_CACHE_LOOKUP)
    async def research_cache_lookup(self, args: CacheLookupArgs) -> CacheLookupResult:
        return await asyncio.to_thread(self.timed_lookup, args)

    @activity.defn(name=RESEARCH_CACHE_STORE)
    async def research_cache_store(self, args: CacheStoreArgs) -> bool:
        return await asyncio.to_thread(self.store, args)
