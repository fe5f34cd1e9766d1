"""Web search: Tavily with a key, the local corpus index (passages) offline.

The backends are the glue: `CorpusSearch` asks the corpus index (`storage/corpus/`) and
the embedder, and `mining/passage_selection.py` chooses and orders the passages.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from temporalio import activity

from activities.common import Auditor, run_tool, stops_when_cancelled
from contracts.activity_names import WEB_SEARCH
from contracts.tools import SearchArgs, ToolResponse
from mining.interruption import check as check_interrupted
from mining.memo import BoundedMemo
from mining.passage_selection import (
    CANDIDATE_POOL,
    CONTEXT_CHARS,
    POOL_PER_DOCUMENT,
    WHOLE_DOCUMENT_PASSAGES,
    by_words_and_meaning,
    names_part,
    part_names,
    per_document,
    read_on,
    whole_sentences,
)


class SearchBackend(Protocol):
    name: str

    def search(self, query: str, max_results: int) -> list[dict[str, Any]]: ...


# Documents (parts of a long one) whose names `CorpusSearch` keeps in memory.
DOCUMENTS_KEPT = 256


class CorpusSearch:
    """Passages of the local corpus (shipped demo plus added documents), no key, no network."""

    name = "local-corpus"

    def __init__(self, index: Any, embedder: Any = None) -> None:
        self._index = index
        self._embedder = embedder
        # Names of the documents hits came from; bounded, since a long-running worker meets
        # ever more documents. Only names are kept, never a body: the text before a passage
        # is read from the index for each hit (`_context`), so a large document costs no
        # memory after its search.
        self._names: BoundedMemo[tuple[str, int], list[str]] = BoundedMemo(DOCUMENTS_KEPT)

    def _names_of(self, hit: Any) -> list[str]:
        """The names of a hit's document (of its part, `names_part`, when it is long). A
        passage id starts with its document's content hash: a re-indexed, changed document
        gets a new key, never stale names."""
        first, end = names_part(hit.start)
        key = (hit.passageId.split(":", 1)[0], first)

        def read() -> list[str]:
            return part_names(
                self._index.document_slice(hit.documentId, first, end) or "", first == 0
            )

        return self._names.get(key, read)

    def _context(self, hit: Any) -> str:
        """The whole sentences just before a hit's passage (`whole_sentences`)."""
        if not hit.start or hit.start <= 0:
            return ""
        window = self._index.document_slice(hit.documentId, hit.start - CONTEXT_CHARS, hit.start)
        return whole_sentences(window or "", mid_text=hit.start > CONTEXT_CHARS)

    def _ranked(self, query: str, max_results: int) -> list[Any]:
        # The pool admits more passages of one document than the answer keeps, so the
        # document's best passages by meaning, not by words alone, are the ones kept.
        pool = self._index.search(
            query, max_results=max_results * CANDIDATE_POOL, per_document=POOL_PER_DOCUMENT
        )
        check_interrupted()  # between the index's ranking and the embedding of the pool
        if self._embedder is None or len(pool) <= 1:
            return self._read_on(per_document(pool, max_results))
        vectors = self._embedder.embed([query, *(f"{h.title}. {h.content}" for h in pool)])
        cosines = (vectors[1:] @ vectors[0]).tolist()
        return self._read_on(per_document(by_words_and_meaning(pool, cosines), max_results))

    def _read_on(self, hits: list[Any]) -> list[Any]:
        """The hits, then the rest of the best hits' documents (`read_on`), when the index
        can list a document's passages."""
        reading = getattr(self._index, "document_passages", None)
        if reading is None:
            return hits
        # The passages read on are the first of the document's that no hit holds: these
        # many are enough, and a long document's other thousands are never fetched.
        enough = WHOLE_DOCUMENT_PASSAGES + len(hits)
        return read_on(hits, lambda document_id: reading(document_id, limit=enough))

    def search(self, query: str, max_results: int) -> list[dict[str, Any]]:
        hits = self._ranked(query, max_results)
        return [self._found(hit) for hit in hits]

    def _found(self, hit: Any) -> dict[str, Any]:
        check_interrupted()  # each hit's names read a part of a long document
        return {
            "title": hit.title,
            "url": hit.url,
            "content": hit.content,
            "score": round(float(hit.score), 4),
            "published": hit.published,
            "passageId": hit.passageId,
            "start": hit.start,
            "end": hit.end,
            "documentId": hit.documentId,
            "tier": hit.tier,
            "names": self._names_of(hit),
            "context": self._context(hit),
        }


class SearchUnavailable(ValueError):
    """The search service said no (bad key, quota, timeout): a tool error, not a crash."""


class TavilySearch:
    """Tavily's REST API through tavily-python; only its documented fields are kept."""

    name = "tavily"

    def __init__(self, api_key: str, base_url: str | None = None, client: Any = None) -> None:
        if client is None:
            from tavily import TavilyClient

            client = TavilyClient(api_key=api_key, api_base_url=base_url)
        self._client = client

    def search(self, query: str, max_results: int) -> list[dict[str, Any]]:
        try:
            answer = self._client.search(query=query, max_results=max_results)
        except Exception as exc:  # noqa: BLE001  (tavily's errors share no base class)
            raise SearchUnavailable(f"Tavily: {type(exc).__name__}: {exc}") from exc
        return [
            {
                "title": item.get("title", ""),
                "url": item.get("url", ""),
                "content": item.get("content", ""),
                "score": float(item.get("score") or 0.0),
                "published": item.get("published_date"),
            }
            for item in answer.get("results", [])
        ]


class SearchActivities:
    def __init__(self, backend: SearchBackend, dkg: Any, auditor: Auditor) -> None:
        self._backend = backend
        self._dkg = dkg
        self._audit = auditor

    @activity.defn(name=WEB_SEARCH)
    async def web_search(self, args: SearchArgs) -> ToolResponse:
        def body() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
            hits = self._backend.search(args.query, args.maxResults)
            provenance = [
                {
                    "source": h["url"],
                    "evidence_snippet": h["content"][:200],
                    "evidence_score": h["score"],
                }
                for h in hits
            ]
            return hits, provenance

        async with stops_when_cancelled():
            return await asyncio.to_thread(
                run_tool, self._audit, WEB_SEARCH, args.model_dump(), body, (OSError, ValueError)
            )
