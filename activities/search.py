"""Web search (Tavily, or the local corpus index offline) and statement extraction."""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from temporalio import activity

from activities.common import Auditor, run_tool
from activities.extraction import extract_statements
from workflows.tool_contracts import ExtractArgs, SearchArgs, ToolResponse


class SearchBackend(Protocol):
    name: str

    def search(self, query: str, max_results: int) -> list[dict[str, Any]]: ...


class CorpusSearch:
    """The shipped demo corpus behind a BM25 index: search with no key and no network."""

    name = "local-corpus"

    def __init__(self, index: Any) -> None:
        self._index = index

    def search(self, query: str, max_results: int) -> list[dict[str, Any]]:
        return [
            {
                "title": hit.title,
                "url": hit.url,
                "content": hit.content,
                "score": round(float(hit.score), 4),
                "published": hit.published,
            }
            for hit in self._index.search(query, max_results=max_results)
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

    @activity.defn(name="web_search")
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
            run_tool, self._audit, "web_search", args.model_dump(), body, (OSError, ValueError)
        )

    @activity.defn(name="extract_statements")
    async def extract_statements(self, args: ExtractArgs) -> ToolResponse:
        def body() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
            gazetteer = self._dkg.gazetteer()
            rows: list[dict[str, Any]] = []
            seen: set[tuple[str | None, str, str]] = set()
            for doc in args.documents:
                for st in extract_statements(doc.text, doc.source, gazetteer):
                    key = (st.subjectUal, st.predicate, st.objectUal or st.object)
                    if key not in seen:
                        seen.add(key)
                        rows.append(st.model_dump())
            provenance = [
                {"source": r["source"], "evidence_snippet": r["sentence"][:200]} for r in rows
            ]
            return rows, provenance

        return await asyncio.to_thread(
            run_tool, self._audit, "extract_statements", {"n": len(args.documents)}, body
        )
