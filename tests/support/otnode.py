"""A stand-in ot-node and a stand-in chain JSON-RPC endpoint for RemoteDkg, with the
fixtures the remote DKG tests use (registered by tests/conftest.py).

The node is a stdlib HTTP server on 127.0.0.1 that answers with the recorded ot-node v8
responses in tests/fixtures/otnode and records every request; the chain endpoint replays
tests/fixtures/chain. `node` and `rpc` serve them for one test, `remote` is a RemoteDkg on
the node with no chain configured, `with_rpc` one that reads stakes from the endpoint.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from storage.dkg.remote import RemoteDkg
from tests.support import paths
from tests.support.replay import replay_server

FIXTURES = paths.FIXTURES / "otnode"
CHAIN_FIXTURES = paths.FIXTURES / "chain"
# The UAL the recorded answers are about.
UAL = "did:dkg:otp:20430/0xcdb28e93ed340ec10a71bba00a31dbfcf1bd5d37/396116/1"


def fixture(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))


def chain_fixture(name: str) -> dict[str, Any]:
    return json.loads((CHAIN_FIXTURES / f"{name}.json").read_text(encoding="utf-8"))


@dataclass
class Seen:
    method: str
    path: str
    query: dict[str, list[str]]
    body: Any


@dataclass
class FakeNode:
    """Replays fixtures per (method, path); the last answer for a route repeats."""

    url: str = ""
    routes: dict[tuple[str, str], list[dict[str, Any]]] = field(default_factory=dict)
    requests: list[Seen] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def serve(self, *names: str) -> None:
        for name in names:
            answer = fixture(name)
            self.routes.setdefault((answer["method"], answer["path"]), []).append(answer)

    def answer(self, method: str, raw_path: str, body: Any) -> tuple[int, Any]:
        parts = urlsplit(raw_path)
        with self.lock:
            self.requests.append(Seen(method, parts.path, parse_qs(parts.query), body))
            queue = self.routes.get((method, parts.path))
            if not queue:
                return 404, {"code": 404, "message": f"no route {method} {parts.path}"}
            reply = queue.pop(0) if len(queue) > 1 else queue[0]
        return reply["status"], reply["body"]

    def bodies(self, path: str) -> list[Any]:
        return [r.body for r in self.requests if r.path == path]


@dataclass
class FakeRpc:
    """Replays JSON-RPC answers per method ("*" for any); the last one for a method repeats.

    Recorded bodies get the request's id, as a real endpoint would answer.
    """

    url: str = ""
    routes: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    calls: list[dict[str, Any]] = field(default_factory=list)
    delay_s: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def serve(self, *names: str) -> None:
        for name in names:
            answer = chain_fixture(name)
            self.routes.setdefault(answer["rpc"], []).append(answer)

    def answer(self, method: str, body: Any) -> tuple[int, Any]:
        with self.lock:
            self.calls.append(body)
        if self.delay_s:
            time.sleep(self.delay_s)
        with self.lock:
            if method != "POST" or not isinstance(body, dict):
                return 400, {"jsonrpc": "2.0", "id": None, "error": {"code": -32600}}
            queue = self.routes.get(body.get("method")) or self.routes.get("*")
            if not queue:
                message = f"the method {body.get('method')} does not exist/is not available"
                error = {"code": -32601, "message": message}
                return 200, {"jsonrpc": "2.0", "id": body.get("id"), "error": error}
            reply = queue.pop(0) if len(queue) > 1 else queue[0]
        payload = reply["body"]
        if isinstance(payload, dict):
            payload = {**payload, "id": body.get("id")}
        return reply["status"], payload

    def methods(self) -> list[str]:
        return [c["method"] for c in self.calls]

    def eth_calls(self) -> list[dict[str, Any]]:
        return [c for c in self.calls if c["method"] == "eth_call"]


@pytest.fixture
def rpc() -> Iterator[FakeRpc]:
    fake = FakeRpc()
    with replay_server(lambda method, _path, body, _headers: fake.answer(method, body)) as url:
        fake.url = url
        yield fake


def with_rpc(node: FakeNode, rpc: FakeRpc, **kwargs: Any) -> RemoteDkg:
    kwargs.setdefault("rpc_timeout_s", 2.0)
    return RemoteDkg(node.url, rpc_url=rpc.url, poll_interval_s=0.01, max_polls=3, **kwargs)


@pytest.fixture
def node() -> Iterator[FakeNode]:
    fake = FakeNode()
    with replay_server(lambda method, path, body, _headers: fake.answer(method, path, body)) as url:
        fake.url = url
        yield fake


@pytest.fixture
def remote(node: FakeNode, monkeypatch: pytest.MonkeyPatch) -> RemoteDkg:
    for key in ("DKG_PRIVATE_KEY", "DKG_BLOCKCHAIN", "DKG_BLOCKCHAIN_RPC", "DKG_NODE_AUTH_TOKEN"):
        monkeypatch.delenv(key, raising=False)
    return RemoteDkg(node.url, poll_interval_s=0.01, max_polls=3, request_timeout_s=5.0)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
