"""Web search through the real tavily-python client against a replayed Tavily API."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest

from activities.search import SearchUnavailable, TavilySearch

RECORDED = json.loads((Path(__file__).parent / "fixtures/tavily/search.json").read_text())


class Replay(BaseHTTPRequestHandler):
    requests: list[dict[str, Any]] = []
    status = 200

    def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        Replay.requests.append(
            {"path": self.path, "auth": self.headers.get("Authorization"), "body": body}
        )
        payload = RECORDED if Replay.status == 200 else {"detail": {"error": "Unauthorized"}}
        data = json.dumps(payload).encode()
        self.send_response(Replay.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def tavily_url() -> Iterator[str]:
    server = HTTPServer(("127.0.0.1", 0), Replay)
    Replay.requests, Replay.status = [], 200
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_search_sends_the_documented_request_and_keeps_the_documented_fields(
    tavily_url: str,
) -> None:
    hits = TavilySearch("tvly-test-key", tavily_url).search("lithium export controls", 3)
    [request] = Replay.requests
    assert request["path"] == "/search" and request["auth"] == "Bearer tvly-test-key"
    assert request["body"]["query"] == "lithium export controls"
    assert request["body"]["max_results"] == 3
    assert [h["url"] for h in hits] == [r["url"] for r in RECORDED["results"]]
    assert hits[0]["score"] == 0.8921 and hits[0]["published"] == "2025-02-11"
    assert hits[1]["published"] is None
    assert "Salar de Atacama" in hits[1]["content"]


def test_a_refused_key_is_a_search_error_not_a_crash(tavily_url: str) -> None:
    Replay.status = 401
    with pytest.raises(SearchUnavailable, match="Tavily"):
        TavilySearch("tvly-bad", tavily_url).search("lithium", 3)
