"""Web search through the real tavily-python client against a replayed Tavily API."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from activities.search import SearchUnavailable, TavilySearch
from tests.support.replay import replay_server
from tests.support.tavily import RECORDED


class RecordedTavily:
    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.status = 200

    def answer(self, method: str, path: str, body: Any, headers: dict[str, str]) -> Any:
        self.requests.append({"path": path, "auth": headers.get("Authorization"), "body": body})
        if self.status != 200:
            return self.status, {"detail": {"error": "Unauthorized"}}
        return 200, RECORDED


@pytest.fixture
def tavily() -> Iterator[tuple[RecordedTavily, str]]:
    recorded = RecordedTavily()
    with replay_server(recorded.answer) as url:
        yield recorded, url


def test_search_sends_the_documented_request_and_keeps_the_documented_fields(
    tavily: tuple[RecordedTavily, str],
) -> None:
    recorded, url = tavily
    hits = TavilySearch("tvly-test-key", url).search("lithium export controls", 3)
    [request] = recorded.requests
    assert request["path"] == "/search" and request["auth"] == "Bearer tvly-test-key"
    assert request["body"]["query"] == "lithium export controls"
    assert request["body"]["max_results"] == 3
    assert [h["url"] for h in hits] == [r["url"] for r in RECORDED["results"]]
    assert hits[0]["score"] == 0.8921 and hits[0]["published"] == "2025-02-11"
    assert hits[1]["published"] is None
    assert "Salar de Atacama" in hits[1]["content"]


def test_a_refused_key_is_a_search_error_not_a_crash(tavily: tuple[RecordedTavily, str]) -> None:
    recorded, url = tavily
    recorded.status = 401
    with pytest.raises(SearchUnavailable, match="Tavily"):
        TavilySearch("tvly-bad", url).search("lithium", 3)
