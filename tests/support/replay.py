"""A local HTTP server that answers like a recorded remote API (OpenAI, Tavily, ot-node)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

# (method, path, JSON body or None, request headers) -> (status, payload). A str payload
# goes out as text, as ot-node sends its error strings; anything else as JSON.
Answer = Callable[[str, str, Any, dict[str, str]], tuple[int, Any]]


def _handler(answer: Answer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def _reply(self, method: str) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            body = json.loads(raw) if raw else None
            status, payload = answer(method, self.path, body, dict(self.headers))
            if isinstance(payload, str):
                data, kind = payload.encode(), "text/html; charset=utf-8"
            else:
                data, kind = json.dumps(payload).encode(), "application/json"
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
            self._reply("GET")

        def do_POST(self) -> None:  # noqa: N802
            self._reply("POST")

        def log_message(self, *args: Any) -> None:
            pass  # keep pytest output clean

    return Handler


@contextmanager
def replay_server(answer: Answer) -> Iterator[str]:
    """Serve `answer` on 127.0.0.1 at a free port; yields the base URL, stops at exit."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(answer))
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
