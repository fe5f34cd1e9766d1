"""Web search: Tavily with a key, the local corpus index (passages) offline."""

from __future__ import annotations

import asyncio
import re
from typing import Any, Protocol

from temporalio import activity

from activities.common import Auditor, run_tool
from contracts.activity_names import WEB_SEARCH
from contracts.tools import SearchArgs, ToolResponse
from mining.memo import BoundedMemo
from mining.parsing import after_heading


class SearchBackend(Protocol):
    name: str

    def search(self, query: str, max_results: int) -> list[dict[str, Any]]: ...


# Hybrid ranking: BM25 finds candidates by their words, the embedding orders them by
# meaning. A word every passage shares ("lithium" in a lithium corpus) has an IDF near zero,
# so BM25 alone orders those passages arbitrarily; ranks, not raw scores, are blended.
CANDIDATE_POOL = 5
W_LEXICAL_RANK = 0.4
W_SEMANTIC = 0.6
# Passages one document may place in a search's answer, and in the pool it is drawn from.
PER_DOCUMENT = 2
POOL_PER_DOCUMENT = 4
# The documents of the best few hits are read on to their end (`CorpusSearch._read_on`),
# at most this many more passages each.
WHOLE_DOCUMENTS = 3
WHOLE_DOCUMENT_PASSAGES = 12


def _per_document(hits: list[Any], limit: int) -> list[Any]:
    """The first `limit` hits, at most `PER_DOCUMENT` from any one document."""
    kept: list[Any] = []
    seen: dict[int, int] = {}
    for hit in hits:
        if seen.get(hit.documentId, 0) < PER_DOCUMENT:
            seen[hit.documentId] = seen.get(hit.documentId, 0) + 1
            kept.append(hit)
    return kept[:limit]


# A run of two to five capitalised words, joined by spaces (line breaks of wrapped text
# included), '&', 'of' or 'de': a full name. A leading article is not part of it.
_PROPER_RUN = re.compile(r"\b[A-Z][\w'’&-]*(?:\s+(?:&\s+|of\s+|de\s+)?[A-Z][\w'’&-]*){1,4}")
_ARTICLE = re.compile(r"^(?:The|A|An)\s+")
_AND_BEFORE = re.compile(r"[A-Z][\w'’-]*\s+and\s+$")
MAX_DOCUMENT_NAMES = 24
DOCUMENTS_KEPT = 256
# How much text before a passage travels with it (`SourceDocument.context`): a paragraph
# or two, enough for the noun an opening "The outbreak has hit X" points back to.
CONTEXT_CHARS = 600
_SENTENCE_START = re.compile(r"[.!?][\"'\u201d\u2019)\]]*\s+(?=[\"'\u201c\u2018(\[]?[A-Z0-9])")


def context_before(body: str, start: int | None, limit: int = CONTEXT_CHARS) -> str:
    """Whole sentences of `body` ending where a passage starts at `start`, at most `limit`
    characters; headings left out."""
    if not start or start <= 0:
        return ""
    window = body[max(0, start - limit) : start]
    if start > limit:
        cut = _SENTENCE_START.search(window)
        window = window[cut.end() :] if cut else ""
    lines = [line for line in window.splitlines() if not line.lstrip().startswith("#")]
    return "\n".join(lines).strip()


def document_names(text: str) -> list[str]:
    """The multi-word proper names of a document, in order of first use, so a passage
    that says only "Huarun" can be read as the "Changzhou Huarun Biochemical" the
    document introduced in another passage."""
    # A heading is written in title case: its words are not names.
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    found: dict[str, None] = {}
    for match in _PROPER_RUN.finditer(body):
        if _AND_BEFORE.search(body, 0, match.start()):
            continue  # "Drug Administration" of "Food and Drug Administration": a tail
        # "1. Neon" heading the line "Veltrix Semiconductor sources ...": not one name.
        start = after_heading(body, match.start(), match.end())
        name = " ".join(_ARTICLE.sub("", body[start : match.end()]).split())
        if len(name.split()) > 1:
            found.setdefault(name, None)
    return list(found)[:MAX_DOCUMENT_NAMES]


class CorpusSearch:
    """Passages of the local corpus (shipped demo plus added documents), no key, no network."""

    name = "local-corpus"

    def __init__(self, index: Any, embedder: Any = None) -> None:
        self._index = index
        self._embedder = embedder
        # Bodies of the documents hits came from, for their names and the text before a
        # passage; bounded, since a long-running worker meets ever more documents.
        self._documents: BoundedMemo[str, tuple[str, list[str]]] = BoundedMemo(DOCUMENTS_KEPT)

    def _document(self, document_id: int, passage_id: str) -> tuple[str, list[str]]:
        """(body, names) of a hit's document. A passage id starts with its document's
        content hash: a re-indexed, changed document gets a new key, never a stale body."""
        key = passage_id.split(":", 1)[0]

        def read() -> tuple[str, list[str]]:
            body = self._index.document_text(document_id) or ""
            return body, document_names(body)

        return self._documents.get(key, read)

    def _ranked(self, query: str, max_results: int) -> list[Any]:
        # The pool admits more passages of one document than the answer keeps, so the
        # document's best passages by meaning, not by words alone, are the ones kept.
        pool = self._index.search(
            query, max_results=max_results * CANDIDATE_POOL, per_document=POOL_PER_DOCUMENT
        )
        if self._embedder is None or len(pool) <= 1:
            return self._read_on(_per_document(pool, max_results))
        vectors = self._embedder.embed([query, *(f"{h.title}. {h.content}" for h in pool)])
        cosines = (vectors[1:] @ vectors[0]).tolist()
        n = len(pool)
        blended = [
            (W_LEXICAL_RANK * (1 - rank / n) + W_SEMANTIC * cos, rank)
            for rank, cos in enumerate(cosines)
        ]
        order = sorted(blended, key=lambda br: (-br[0], br[1]))
        return self._read_on(_per_document([pool[rank] for _, rank in order], max_results))

    def _read_on(self, hits: list[Any]) -> list[Any]:
        """The hits, then the other passages of the documents the best hits come from.

        A reader who finds the answer's article reads all of it: the facts a question asks
        for are spread over an article's paragraphs, and the per-document cap that keeps
        one document from filling the answer would otherwise leave most of them unread.
        """
        reading = getattr(self._index, "document_passages", None)
        if reading is None:
            return hits
        taken = {h.passageId for h in hits}
        top = list(dict.fromkeys(h.documentId for h in hits[:WHOLE_DOCUMENTS]))
        more: list[Any] = []
        for document_id in top:
            best = next(h.score for h in hits if h.documentId == document_id)
            rest = [p for p in reading(document_id) if p.passageId not in taken]
            more += [p.model_copy(update={"score": best}) for p in rest[:WHOLE_DOCUMENT_PASSAGES]]
        return hits + more

    def search(self, query: str, max_results: int) -> list[dict[str, Any]]:
        hits = self._ranked(query, max_results)
        documents = [self._document(hit.documentId, hit.passageId) for hit in hits]
        return [
            {
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
                "names": names,
                "context": context_before(body, hit.start),
            }
            for hit, (body, names) in zip(hits, documents, strict=True)
        ]


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

        return await asyncio.to_thread(
            run_tool, self._audit, WEB_SEARCH, args.model_dump(), body, (OSError, ValueError)
        )
