"""Request limits checked before any parser sees a body: size (413) and JSON depth (400).

A body is read and replayed to the app; one larger than `max_bytes` is read to its end
without being kept (so the client gets the 413 rather than a reset connection). A body
the app will parse as JSON (`parsed_as_json`) is scanned once, linearly, for its bracket
depth:
Python's JSON decoder and pydantic recurse per level, and Temporal's payload converter
refuses deep values only after the request got that far, so a value nested thousands of
levels deep is stopped here with the limit named instead of a 500.
"""

from __future__ import annotations

import email.message
import json
from typing import Any

DEFAULT_MAX_BYTES = 1_048_576  # 1 MiB: a decision batch with edited assets fits many times
MAX_JSON_DEPTH = 64


def json_depth(raw: bytes) -> int:
    """Deepest nesting of objects and arrays in JSON text, strings skipped (linear)."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x7B, 0x5B):  # { [
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x7D, 0x5D):
            depth = max(0, depth - 1)
    return deepest


def parsed_as_json(content_type: bytes | None) -> bool:
    """Whether a body of this Content-Type may be parsed as JSON: `application/json` or
    `application/<anything>+json`, in any letter case and with any parameters
    (`Application/JSON; charset=utf-8`), as FastAPI reads it; and a body that names no
    type at all, which a lenient parser takes for JSON."""
    if not content_type:
        return True
    # Read as FastAPI reads it (fastapi/routing.py), so the two never disagree.
    header = email.message.Message()
    header["content-type"] = content_type.decode("latin-1")
    subtype = header.get_content_subtype()
    return header.get_content_maintype() == "application" and (
        subtype == "json" or subtype.endswith("+json")
    )


class RequestLimits:
    """ASGI middleware: refuse oversized or over-nested request bodies clearly."""

    def __init__(self, app: Any, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        body = bytearray()
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, receive, send)  # a disconnect: let the app see it
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            more = message.get("more_body", False)
            if size <= self.max_bytes:
                body += chunk
        if size > self.max_bytes:
            # Read to the end (and dropped) so the client gets the answer, not a reset.
            await self._refuse(send, 413, self._too_large(size))
            return
        if parsed_as_json(headers.get(b"content-type")):
            depth = json_depth(bytes(body))
            if depth > MAX_JSON_DEPTH:
                detail = f"request JSON nests {depth} levels deep: at most {MAX_JSON_DEPTH} allowed"
                await self._refuse(send, 400, detail)
                return
        replayed = False

        async def replay() -> dict[str, Any]:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": bytes(body), "more_body": False}

        await self.app(scope, replay, send)

    def _too_large(self, size: int) -> str:
        return f"request body of {size:,} bytes refused: at most {self.max_bytes:,} bytes allowed"

    @staticmethod
    async def _refuse(send: Any, status: int, detail: str) -> None:
        title = "Payload Too Large" if status == 413 else "Bad Request"
        body = {"type": "about:blank", "title": title, "status": status, "detail": detail}
        payload = json.dumps(body).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/problem+json"),
                    (b"content-length", str(len(payload)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": payload})
