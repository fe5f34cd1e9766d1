"""RemoteDkg through the real `dkg` SDK against a local stand-in that replays ot-node answers.

The stand-in (tests/support/otnode.py) is a stdlib HTTP server on 127.0.0.1 that answers
with the recorded ot-node v8 responses in tests/fixtures/otnode and records every request,
so the tests check both what RemoteDkg makes of the node's answers and what the SDK
actually sends: SPARQL, asset reads, metadata and lookups, publishing and the factory.
Stake reads from the chain are in test_dkg_remote_stake.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pyoxigraph import Store

from storage.dkg.embedded import EmbeddedDkg
from storage.dkg.factory import open_dkg
from storage.dkg.interface import DkgError, DkgQueryError, DkgValidationError
from storage.dkg.remote import RemoteAssetMetadata, RemoteDkg
from tests.support.otnode import UAL, FakeNode, free_port

# The SDK's rdflib 6 uses pyparsing names that pyparsing 3.3 deprecates: not ours to fix.
# web3 (loaded with the SDK's blockchain side) imports websockets.legacy: same story.
pytestmark = [
    pytest.mark.filterwarnings("ignore::pyparsing.PyparsingDeprecationWarning"),
    pytest.mark.filterwarnings("ignore:websockets.legacy is deprecated:DeprecationWarning"),
]

OPERATION_ID = "5f0b3a1e-8c2d-4e6f-9a7b-1c3d5e7f9a0b"


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
