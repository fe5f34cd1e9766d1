"""RemoteDkg through the real `dkg` SDK against a local stand-in that replays ot-node answers.

The stand-in is a stdlib HTTP server on 127.0.0.1 that answers with the recorded ot-node v8
responses in tests/fixtures/otnode and records every request, so the tests check both what
RemoteDkg makes of the node's answers and what the SDK actually sends. Stake reads go to a
second stand-in, a JSON-RPC endpoint replaying tests/fixtures/chain, and are checked the
same way (what web3 sends for getTokenAmount, what RemoteDkg makes of the answer).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from pyoxigraph import Store

from storage.dkg.embedded import EmbeddedDkg
from storage.dkg.factory import open_dkg
from storage.dkg.interface import DkgError, DkgQueryError, DkgValidationError
from storage.dkg.remote import RemoteAssetMetadata, RemoteDkg
from tests.support import paths
from tests.support.replay import replay_server

# The SDK's rdflib 6 uses pyparsing names that pyparsing 3.3 deprecates: not ours to fix.
# web3 (loaded with the SDK's blockchain side) imports websockets.legacy: same story.
pytestmark = [
    pytest.mark.filterwarnings("ignore::pyparsing.PyparsingDeprecationWarning"),
    pytest.mark.filterwarnings("ignore:websockets.legacy is deprecated:DeprecationWarning"),
]

FIXTURES = paths.FIXTURES / "otnode"
CHAIN_FIXTURES = paths.FIXTURES / "chain"
UAL = "did:dkg:otp:20430/0xcdb28e93ed340ec10a71bba00a31dbfcf1bd5d37/396116/1"
CONTRACT = "0xcdb28e93ed340ec10a71bba00a31dbfcf1bd5d37"
OPERATION_ID = "5f0b3a1e-8c2d-4e6f-9a7b-1c3d5e7f9a0b"
# keccak256("getTokenAmount(uint256)")[:4]; cross-checked against keccak in a test below.
GET_TOKEN_AMOUNT = "0xc2507ac1"
# The uint96 in tests/fixtures/chain/eth_call_get_token_amount.json: 1843.50... TRAC in wei.
LOCKED_WEI = 1843502117334650871296


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


# -- node info and SPARQL -------------------------------------------------------------------


def test_node_info_is_parsed(node: FakeNode, remote: RemoteDkg) -> None:
    node.serve("info")
    info = remote.node_info()
    assert info.version == "8.1.3"
    assert info.blockchains == ["otp:20430"]
    assert info.tripleStores == ["ot-blazegraph"]
    assert [(r.method, r.path) for r in node.requests] == [("GET", "/v1/info")]


def test_select_comes_back_as_rows_with_the_row_cap(node: FakeNode, remote: RemoteDkg) -> None:
    node.serve("direct_query_select")
    sparql = "SELECT ?s ?name ?founded WHERE { GRAPH ?g { ?s schema:name ?name } }"
    result = remote.query(sparql, row_limit=3)

    assert result.kind == "select"
    assert result.variables == ["s", "name", "founded"]
    assert result.truncated is True
    assert result.rows == [
        {"s": "urn:kminer:org:albemarle", "name": "Albemarle Corporation", "founded": 1887},
        {"s": "urn:kminer:org:sqm", "name": "Sociedad Química y Minera de Chile", "founded": 1968},
        {"s": "urn:kminer:org:ganfeng", "name": "Ganfeng Lithium Co., Ltd.", "founded": 2000},
    ]
    # What the SDK's graph.query sent: the node's direct-query body, type from rdflib.
    (body,) = node.bodies("/v1/direct-query")
    assert set(body) == {"query", "type", "repository", "paranetUAL"}
    assert body["type"] == "SELECT"
    assert body["repository"] == "dkg"
    assert body["paranetUAL"] is None
    # The embedded store's prefixes travel with the query, so schema: means the same there.
    assert "PREFIX schema: <http://schema.org/>" in body["query"]
    assert body["query"].endswith(sparql)


def test_select_under_the_cap_decodes_unbound_and_quoted_values(
    node: FakeNode, remote: RemoteDkg
) -> None:
    node.serve("direct_query_select")
    result = remote.query("SELECT ?s ?name ?founded WHERE { ?s schema:name ?name }")
    assert result.truncated is False
    assert len(result.rows) == 5
    assert result.rows[3] == {
        "s": "urn:kminer:org:tianqi",
        "name": 'Tianqi "Lithium" Corporation',
        "founded": None,
    }
    assert result.rows[4]["s"] == "_:b0"


def test_construct_comes_back_as_triples(node: FakeNode, remote: RemoteDkg) -> None:
    node.serve("direct_query_construct")
    result = remote.query("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }", row_limit=2)
    assert result.kind == "construct"
    assert result.truncated is True
    assert result.rows[0] == {
        "subject": "urn:kminer:org:albemarle",
        "predicate": "http://schema.org/name",
        "object": "Albemarle Corporation",
    }
    assert node.bodies("/v1/direct-query")[0]["type"] == "CONSTRUCT"


@pytest.mark.parametrize(
    "update",
    [
        "INSERT DATA { GRAPH <urn:g> { <urn:a> <urn:b> <urn:c> } }",
        "PREFIX schema: <http://schema.org/> DELETE WHERE { ?s schema:name ?n }",
        "DROP ALL",
        "LOAD <http://example.org/data.ttl>",
    ],
)
def test_updates_are_refused_before_any_request(
    node: FakeNode, remote: RemoteDkg, update: str
) -> None:
    with pytest.raises(DkgQueryError, match="refused: only read queries"):
        remote.query(update)
    assert node.requests == []


def test_other_refusals_are_local_and_clear(node: FakeNode, remote: RemoteDkg) -> None:
    with pytest.raises(DkgQueryError, match="SERVICE"):
        remote.query("SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }")
    with pytest.raises(DkgQueryError, match="SELECT and CONSTRUCT only"):
        remote.query("ASK { ?s ?p ?o }")
    with pytest.raises(DkgQueryError, match="syntax error"):
        remote.query("SELECT ?s WHERE { ?s ?p }")
    # An update keyword inside a string or IRI is data, not an update.
    node.serve("direct_query_select")
    remote.query('SELECT ?s WHERE { ?s schema:name "DELETE ALL" }')
    assert len(node.requests) == 1


def test_http_500_becomes_a_dkg_error_with_the_nodes_message(
    node: FakeNode, remote: RemoteDkg
) -> None:
    node.serve("direct_query_error_500")
    with pytest.raises(DkgError) as caught:
        remote.query("SELECT ?s WHERE { ?s ?p ?o }")
    message = str(caught.value)
    assert "SPARQL query" in message
    assert "HTTP 500" in message
    assert "Repository with name" in message


def test_unreachable_node_becomes_a_dkg_error() -> None:
    dead = RemoteDkg(f"http://127.0.0.1:{free_port()}", request_timeout_s=2.0)
    with pytest.raises(DkgError, match="cannot reach"):
        dead.node_info()


# -- asset get (operation + polling) --------------------------------------------------------


def test_get_asset_polls_the_operation_and_returns_json_ld(
    node: FakeNode, remote: RemoteDkg
) -> None:
    node.serve("get_operation_start", "get_operation_pending", "get_operation_completed")
    asset = remote.get_asset(UAL)

    assert asset is not None
    assert asset["@context"] == {"@vocab": "http://schema.org/"}
    assert asset["@id"] == "urn:kminer:org:albemarle"
    assert asset["@type"] == "Corporation"
    assert asset["name"] == "Albemarle Corporation"
    assert asset["identifier"] == "LEI:5493000MKCB0QYHEEX43"
    # The nested address (an SDK-minted uuid: node) is folded back into its parent.
    assert asset["address"] == {
        "@type": "PostalAddress",
        "addressCountry": "US",
        "addressLocality": "Charlotte",
    }
    (start,) = node.bodies("/v1/get")
    assert start == {
        "id": UAL,
        "contentType": "all",
        "includeMetadata": False,
        "hashFunctionId": 1,
        "paranetUAL": None,
        "subjectUAL": False,
    }
    polls = [r for r in node.requests if r.path == f"/v1/get/{OPERATION_ID}"]
    assert [r.method for r in polls] == ["GET", "GET"]  # pending, then completed


def test_failed_get_operation_becomes_a_dkg_error(node: FakeNode, remote: RemoteDkg) -> None:
    node.serve("get_operation_start", "get_operation_failed")
    with pytest.raises(DkgError) as caught:
        remote.get_asset(UAL)
    message = str(caught.value)
    assert message.startswith(f"get {UAL}: the DKG node reports the operation FAILED")
    assert "GetNetworkError" in message
    assert "Unable to find assertion" in message


def test_operation_that_never_finishes_becomes_a_dkg_error(
    node: FakeNode, remote: RemoteDkg
) -> None:
    node.serve("get_operation_start", "get_operation_pending")
    with pytest.raises(DkgError, match="not done after 3 polls"):
        remote.get_asset(UAL)


def test_bad_ual_is_refused_without_a_request(node: FakeNode, remote: RemoteDkg) -> None:
    with pytest.raises(DkgValidationError):
        remote.get_asset("urn:kminer:org:albemarle")
    with pytest.raises(DkgValidationError):
        remote.get_metadata("did:dkg:otp:20430/0xabc/1> } DROP ALL {")
    assert node.requests == []


# -- metadata, related, duplicates, gazetteer -----------------------------------------------


def test_metadata_is_best_effort_and_says_stake_is_unknown(
    node: FakeNode, remote: RemoteDkg
) -> None:
    node.serve("direct_query_metadata")
    meta = remote.get_metadata(UAL)
    assert isinstance(meta, RemoteAssetMetadata)
    assert meta.tokenId == 1
    assert meta.publisher == "0x0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b"
    assert meta.publishTime == "2025-03-04T09:12:44.000Z"
    assert meta.label == "Albemarle Corporation"
    # No RPC: the stake is unknown, which is not the same as no stake.
    assert meta.stakeAmount is None
    assert any("stake" in note and "DKG_BLOCKCHAIN_RPC" in note for note in meta.notes)
    assert any("updateCount" in note for note in meta.notes)
    (body,) = node.bodies("/v1/direct-query")
    assert "<metadata:graph>" in body["query"]
    assert Store().query(body["query"]) is not None  # the query we built parses


def test_find_related_ranks_label_matches(node: FakeNode, remote: RemoteDkg) -> None:
    node.serve("direct_query_labels")
    hits = remote.find_related("Albemarle", limit=3)
    assert [h.ual for h in hits][0] == UAL
    assert hits[0].label == "Albemarle Corporation"
    assert hits[0].type == "Corporation"
    assert all(h.stakeAmount is None for h in hits)  # no RPC: unknown, not zero
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    (body,) = node.bodies("/v1/direct-query")
    assert 'CONTAINS(LCASE(STR(?v)), "albemarle")' in body["query"]
    assert body["type"] == "SELECT"


def test_find_duplicates_by_identifier_and_by_type_and_name(
    node: FakeNode, remote: RemoteDkg
) -> None:
    node.serve("direct_query_labels")
    by_name = remote.find_duplicates({"@type": "Organization", "name": "ALBEMARLE Corp."})
    assert [(m.ual, m.reason) for m in by_name] == [(UAL, "same type and name")]
    by_id = remote.find_duplicates(
        {"@type": "Dataset", "name": "x", "identifier": "lei:5493000mkcb0qyheex43"}
    )
    assert [(m.ual, m.reason) for m in by_id] == [(UAL, "same identifier")]
    assert remote.find_duplicates({"@type": "Thing"}) == []
    assert len(node.requests) == 2  # nothing to look for means no request


def test_gazetteer_is_one_bounded_query_built_lazily(node: FakeNode, remote: RemoteDkg) -> None:
    node.serve("direct_query_labels")
    names = remote.gazetteer()
    kings = UAL.replace("396116", "402310")
    assert ("Kings Mountain lithium mine (Albemarle)", kings, "Place") in names
    assert ("Kings Mountain", kings, "Place") in names
    assert ("Albemarle Corporation", UAL, "Corporation") in names
    assert remote.gazetteer() == names
    (body,) = node.bodies("/v1/direct-query")  # the second call came from the cache
    assert body["query"].rstrip().endswith("LIMIT 5000")


# -- stake from the chain (KnowledgeCollectionStorage.getTokenAmount) ------------------------


def test_selector_is_get_token_amount_uint256() -> None:
    from eth_utils import keccak

    assert "0x" + keccak(text="getTokenAmount(uint256)")[:4].hex() == GET_TOKEN_AMOUNT


def test_metadata_reads_the_collections_locked_trac_with_one_eth_call(
    node: FakeNode, rpc: FakeRpc
) -> None:
    node.serve("direct_query_metadata")
    rpc.serve("eth_chainId", "net_version", "eth_call_get_token_amount")
    dkg = with_rpc(node, rpc)
    meta = dkg.get_metadata(UAL)

    assert meta is not None
    assert meta.stakeAmount == pytest.approx(LOCKED_WEI / 1e18, rel=1e-15)
    assert meta.stakeAmount == LOCKED_WEI / 10**18
    assert any("knowledge collection 396116" in note for note in meta.notes)
    assert not any("DKG_BLOCKCHAIN_RPC" in note for note in meta.notes)
    assert any("updateCount" in note for note in meta.notes)  # still unknown
    # What web3 sent: a read-only eth_call to the UAL's contract for collection 396116.
    (call,) = rpc.eth_calls()
    assert call["jsonrpc"] == "2.0"
    tx, block = call["params"]
    assert block == "latest"
    assert tx["to"].lower() == CONTRACT
    assert tx["to"] in (CONTRACT, "0xCdb28e93eD340ec10A71bba00a31DBFCf1BD5d37")  # checksummed
    assert tx["data"] == GET_TOKEN_AMOUNT + format(396116, "064x")
    assert "from" not in tx and "value" not in tx  # no wallet, nothing sent
    assert set(rpc.methods()) <= {"eth_chainId", "net_version", "eth_call"}

    # Cached per collection: another KA of the same collection asks the chain nothing.
    node.serve("direct_query_metadata")
    again = dkg.get_metadata(UAL.removesuffix("/1") + "/2")
    assert again is not None and again.stakeAmount == meta.stakeAmount
    assert len(rpc.eth_calls()) == 1


def test_rpc_from_the_environment_is_used(
    node: FakeNode, rpc: FakeRpc, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DKG_BLOCKCHAIN_RPC", rpc.url)
    node.serve("direct_query_metadata")
    rpc.serve("eth_chainId", "eth_call_get_token_amount")
    meta = RemoteDkg(node.url).get_metadata(UAL)
    assert meta is not None and meta.stakeAmount == LOCKED_WEI / 10**18


def test_find_related_reads_each_collections_stake_once(node: FakeNode, rpc: FakeRpc) -> None:
    node.serve("direct_query_labels")
    rpc.serve("eth_chainId", "eth_call_get_token_amount")
    hits = with_rpc(node, rpc).find_related("Albemarle", limit=5)

    assert hits[0].ual == UAL
    assert hits and all(h.stakeAmount == LOCKED_WEI / 10**18 for h in hits)
    asked = [c["params"][0]["data"] for c in rpc.eth_calls()]
    collections = {h.ual.split("/")[2] for h in hits}
    assert sorted(asked) == sorted(GET_TOKEN_AMOUNT + format(int(c), "064x") for c in collections)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


@pytest.mark.parametrize(
    ("answers", "says"),
    [
        (["http_500"], "the blockchain RPC answered HTTP 500"),
        (
            ["eth_chainId", "eth_call_rate_limited"],
            "returned an error: daily request count exceeded, request rate limited",
        ),
        (
            ["eth_chainId", "eth_call_no_contract", "eth_getCode_empty"],
            "no KnowledgeCollectionStorage contract",
        ),
        (["eth_chainId_base"], "the blockchain RPC serves chain id 8453, the UAL is on otp:20430"),
    ],
)
def test_failed_stake_read_leaves_none_and_a_note(
    node: FakeNode, rpc: FakeRpc, answers: list[str], says: str
) -> None:
    node.serve("direct_query_metadata")
    rpc.serve(*answers)
    meta = with_rpc(node, rpc).get_metadata(UAL)

    assert meta is not None
    assert meta.stakeAmount is None
    assert meta.publisher == "0x0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b"  # the rest is there
    (note,) = [n for n in meta.notes if n.startswith("stakeAmount unknown")]
    assert says in note
    assert "\n" not in note
    assert rpc.url not in note  # RPC URLs often carry API keys
    if "chain id" in says:
        assert rpc.eth_calls() == []  # the wrong chain is not even asked


def test_unreachable_or_slow_rpc_costs_one_timeout_then_backs_off(
    node: FakeNode, rpc: FakeRpc
) -> None:
    rpc.serve("eth_chainId", "eth_call_get_token_amount")
    rpc.delay_s = 1.0
    dkg = with_rpc(node, rpc, rpc_timeout_s=0.2)
    node.serve("direct_query_metadata")
    started = time.monotonic()
    meta = dkg.get_metadata(UAL)
    assert meta is not None and meta.stakeAmount is None
    assert any("no answer from the blockchain RPC within 0.2s" in n for n in meta.notes)
    assert rpc.methods() == ["eth_chainId"]  # web3 does not retry it either

    # The RPC is not asked again for a while, for any collection; find_related stays quick.
    node.routes.clear()
    node.serve("direct_query_labels")
    hits = dkg.find_related("Albemarle", limit=5)
    assert hits and all(h.stakeAmount is None for h in hits)
    assert time.monotonic() - started < 0.9  # never waited for the 1s answers
    assert rpc.methods() == ["eth_chainId"]
    time.sleep(max(0.0, started + 1.1 - time.monotonic()))  # let the stand-in finish its answer

    dead = RemoteDkg(node.url, rpc_url=f"http://127.0.0.1:{free_port()}", rpc_timeout_s=1.0)
    node.routes.clear()
    node.serve("direct_query_metadata")
    meta = dead.get_metadata(UAL)
    assert meta is not None and meta.stakeAmount is None
    assert any("cannot reach the blockchain RPC" in n for n in meta.notes)


def test_ual_without_a_collection_has_unknown_stake_without_an_rpc_call(
    node: FakeNode, rpc: FakeRpc
) -> None:
    node.serve("direct_query_metadata")
    rpc.serve("eth_chainId", "eth_call_get_token_amount")
    meta = with_rpc(node, rpc).get_metadata("did:dkg:otp:20430/not-a-contract/7")
    assert meta is not None and meta.stakeAmount is None
    assert any("names no KnowledgeCollectionStorage address" in n for n in meta.notes)
    assert rpc.calls == []


# -- publish --------------------------------------------------------------------------------


def test_publish_without_a_key_refuses_clearly(node: FakeNode, remote: RemoteDkg) -> None:
    asset = {"@context": "https://schema.org/", "@type": "Organization", "name": "Acme"}
    with pytest.raises(DkgError) as caught:
        remote.publish(asset, publisher="0xabc", stake_amount=0.0, domain="demo")
    assert str(caught.value) == (
        "publishing to a remote DKG needs DKG_PRIVATE_KEY and blockchain settings"
    )
    assert node.requests == []


def test_publish_with_a_key_but_no_chain_fails_as_a_dkg_error(
    node: FakeNode, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # the SDK runs load_dotenv(); keep it away from real .env files
    monkeypatch.delenv("PRIVATE_KEY", raising=False)
    dkg = RemoteDkg(
        node.url,
        private_key="0x" + "11" * 32,
        rpc_url=f"http://127.0.0.1:{free_port()}",
        request_timeout_s=5.0,
    )
    asset = {"@context": "https://schema.org/", "@type": "Organization", "name": "Acme"}
    node.routes[("POST", "/v1/direct-query")] = [{"status": 200, "body": {"data": []}}]
    with pytest.raises(DkgError, match="cannot connect to blockchain otp:20430 via http"):
        dkg.publish(asset)
    # Only the content-hash lookup (not yet on the node) reached it before the chain failed.
    assert [r.path for r in node.requests] == ["/v1/direct-query"]


# -- factory --------------------------------------------------------------------------------


def test_open_dkg_picks_embedded_without_a_url(tmp_path: Path) -> None:
    seed = tmp_path / "seed"
    seed.mkdir()
    item = {
        "asset": {"@context": "https://schema.org/", "@type": "Organization", "name": "Acme"},
        "metadata": {"stakeAmount": 10, "publisher": "0x" + "1" * 40},
    }
    (seed / "one.json").write_text(json.dumps([item]), encoding="utf-8")
    dkg = open_dkg(None, tmp_path / "data", seed)
    try:
        assert isinstance(dkg, EmbeddedDkg)
        assert dkg.count_assets() == 1
        assert (tmp_path / "data" / "dkg").is_dir()
    finally:
        dkg.close()


def test_open_dkg_picks_remote_with_a_url(node: FakeNode, tmp_path: Path) -> None:
    dkg = open_dkg(node.url + "/", tmp_path / "data", tmp_path / "seed")
    assert isinstance(dkg, RemoteDkg)
    assert dkg.node_url == node.url
    assert not (tmp_path / "data").exists()  # nothing embedded was opened or seeded
