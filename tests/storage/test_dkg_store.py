"""The embedded DKG on a real pyoxigraph store: the seed it ships with and SPARQL over it
(named graphs, metadata, refused updates, caps and timeouts, typed values). Publishing is
in test_dkg_store_publish.py, lookups in test_dkg_store_lookups.py."""

from __future__ import annotations

import pytest

from storage.dkg.embedded import SEED_DIR, EmbeddedDkg
from storage.dkg.embedded_records import UAL_PREFIX
from storage.dkg.interface import DkgQueryError
from tests.support.embedded_dkg import seed_items, triple_count, ual_of

# -- seed -----------------------------------------------------------------------------------


def test_seed_size_domains_and_stakes() -> None:
    items = seed_items()
    assert len(items) >= 200
    domains = {item["metadata"]["domain"] for item in items}
    assert {"supply_chain", "general_risk", "climate", "procurement", "clinical_trials"} <= domains
    stakes = [item["metadata"]["stakeAmount"] for item in items]
    assert min(stakes) == 1_000 and max(stakes) == 500_000
    assert sum(s > 50_000 for s in stakes) >= 10 and sum(s < 5_000 for s in stakes) >= 10
    assert len({item["metadata"]["publisher"] for item in items}) >= 4
    for item in items:
        doc = item["asset"]
        assert doc["@context"] == "https://schema.org/"
        for key in ("@type", "@id", "name", "identifier", "description"):
            assert doc.get(key), (key, doc.get("@id"))


def test_seed_covers_lithium_supply_chain(seeded: EmbeddedDkg) -> None:
    labels = {label for label, _, _ in seeded.gazetteer()}
    for name in (
        "Albemarle", "SQM", "Ganfeng Lithium", "Tianqi Lithium", "Pilbara Minerals",
        "Arcadium Lithium", "Livent", "Mineral Resources", "Lithium carbonate",
        "Lithium hydroxide", "Spodumene concentrate", "Chile", "Argentina", "Australia",
        "China", "Bolivia", "DR Congo", "Salar de Atacama", "Greenbushes mine",
    ):  # fmt: skip
        assert name in labels, name
    events = seeded.query(
        "SELECT DISTINCT ?kind WHERE { ?e a schema:Event ; schema:keywords ?kind }"
    )
    kinds = {row["kind"] for row in events.rows}
    assert {"export controls", "nationalisation", "royalty change", "sanctions", "strike"} <= kinds


def test_ensure_seeded_is_idempotent(seeded: EmbeddedDkg) -> None:
    count = seeded.count_assets()
    assert count == len(seed_items())
    assert seeded.ensure_seeded(SEED_DIR) == 0
    assert seeded.load_seed_dir(SEED_DIR) == 0
    assert seeded.count_assets() == count


# -- SPARQL ---------------------------------------------------------------------------------


def test_every_asset_is_a_named_graph_named_by_its_ual(seeded: EmbeddedDkg) -> None:
    result = seeded.query("SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }", row_limit=5000)
    graphs = {row["g"] for row in result.rows}
    ual = ual_of(seeded, "Ganfeng Lithium Co., Ltd.")
    assert ual.startswith(UAL_PREFIX) and ual in graphs
    assert "did:dkg:metadata" in graphs
    assert len(graphs) == seeded.count_assets() + 1
    name = "'Ganfeng Lithium Co., Ltd.'"
    inside = seeded.query(f"ASK {{ GRAPH <{ual}> {{ ?s schema:name {name} }} }}")
    assert inside.boolean is True


def test_high_stake_metadata_query_matches_seed(seeded: EmbeddedDkg) -> None:
    result = seeded.query(
        "SELECT ?ual ?stake ?label WHERE { GRAPH <did:dkg:metadata> {"
        " ?ual dkg:stakeAmount ?stake ; rdfs:label ?label FILTER(?stake > 50000) } }",
        row_limit=1000,
    )
    got = sorted((row["label"], row["stake"]) for row in result.rows)
    expected = sorted(
        (item["asset"]["name"], float(item["metadata"]["stakeAmount"]))
        for item in seed_items()
        if item["metadata"]["stakeAmount"] > 50_000
    )
    assert got == expected and not result.truncated
    meta = seeded.get_metadata(result.rows[0]["ual"])  # type: ignore[arg-type]
    assert meta is not None and meta.stakeAmount > 50_000


def test_metadata_fields(seeded: EmbeddedDkg) -> None:
    ual = ual_of(seeded, "Albemarle Corporation")
    meta = seeded.get_metadata(ual)
    assert meta is not None
    assert meta.tokenId == int(ual.rsplit("/", 1)[1])
    assert meta.stakeAmount == 500_000 and meta.domain == "supply_chain"
    assert meta.publisher.startswith("0x") and len(meta.publisher) == 42
    assert meta.publishTime.endswith("Z") and meta.label == "Albemarle Corporation"
    assert seeded.get_metadata(UAL_PREFIX + "999999") is None
    assert seeded.get_metadata("not a ual") is None
    assert seeded.get_asset("not a ual") is None


@pytest.mark.parametrize(
    "update",
    [
        "INSERT DATA { <urn:x:a> <urn:x:b> <urn:x:c> }",
        "INSERT DATA { GRAPH <did:dkg:metadata> { <urn:x:a> dkg:stakeAmount 1 } }",
        "DELETE WHERE { ?s ?p ?o }",
        "DELETE DATA { <urn:x:a> <urn:x:b> <urn:x:c> }",
        "CLEAR ALL",
        "DROP ALL",
        "DROP GRAPH <did:dkg:metadata>",
        "LOAD <http://example.org/data.ttl>",
        "CREATE GRAPH <urn:x:g>",
        "PREFIX ex: <http://example.org/>\n# a comment\nINSERT { ?s ex:p 1 } WHERE { ?s ?p ?o }",
        "SELECT * WHERE { ?s ?p ?o } ; DELETE WHERE { ?s ?p ?o }",
    ],
)
def test_updates_are_refused_and_change_nothing(seeded: EmbeddedDkg, update: str) -> None:
    before = triple_count(seeded)
    with pytest.raises(DkgQueryError, match="only read queries"):
        seeded.query(update)
    assert triple_count(seeded) == before


def test_service_is_refused(seeded: EmbeddedDkg) -> None:
    with pytest.raises(DkgQueryError, match="SERVICE"):
        seeded.query("SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }")
    # The word inside a string is not the keyword.
    ok = seeded.query("SELECT * WHERE { ?s schema:name 'SERVICE' }")
    assert ok.rows == []


def test_syntax_error_carries_the_parser_message(seeded: EmbeddedDkg) -> None:
    with pytest.raises(DkgQueryError) as err:
        seeded.query("SELECT ?s WHERE { ?s ?p ")
    assert "syntax error" in str(err.value) and "error at 1:" in str(err.value)


def test_row_cap_sets_truncated(seeded: EmbeddedDkg) -> None:
    result = seeded.query("SELECT ?s ?p ?o WHERE { ?s ?p ?o }", row_limit=10)
    assert result.kind == "select" and result.variables == ["s", "p", "o"]
    assert len(result.rows) == 10 and result.truncated
    small = seeded.query("SELECT ?c WHERE { ?c a schema:Country } LIMIT 3", row_limit=10)
    assert len(small.rows) == 3 and not small.truncated


def test_timeout_is_reported(seeded: EmbeddedDkg) -> None:
    with pytest.raises(DkgQueryError, match="query exceeds the 0 s time limit"):
        seeded.query("SELECT * WHERE { ?s ?p ?o }", timeout_s=0)


def test_ask_construct_describe(seeded: EmbeddedDkg) -> None:
    yes = seeded.query("ASK { ?s schema:name 'Albemarle Corporation' }")
    no = seeded.query("ASK { ?s schema:name 'No Such Company' }")
    assert (yes.kind, yes.boolean, no.boolean) == ("ask", True, False)
    built = seeded.query(
        "CONSTRUCT { ?s schema:name ?n } WHERE { ?s a schema:Country ; schema:name ?n }"
    )
    assert built.kind == "construct" and built.variables == ["subject", "predicate", "object"]
    assert {"subject": "urn:kminer:country:cl", "predicate": "http://schema.org/name",
            "object": "Chile"} in built.rows  # fmt: skip
    described = seeded.query("DESCRIBE <urn:kminer:org:sqm>")
    assert described.kind == "describe" and described.rows


def test_typed_literals_become_python_values(seeded: EmbeddedDkg) -> None:
    result = seeded.query(
        "SELECT ?n ?e WHERE { <urn:kminer:org:albemarle> schema:name ?n ;"
        " schema:numberOfEmployees ?e } "
    )
    assert {(row["n"], row["e"]) for row in result.rows} == {("Albemarle Corporation", 9000)}


def test_relations_between_assets_are_iris(seeded: EmbeddedDkg) -> None:
    result = seeded.query(
        "SELECT ?mine WHERE { ?talison schema:name 'Talison Lithium Pty Ltd' ;"
        " schema:location ?mine . ?mine schema:containedInPlace ?country ."
        " ?country schema:name 'Australia' }"
    )
    assert [row["mine"] for row in result.rows] == ["urn:kminer:place:greenbushes"]


def test_seeded_conflicts_are_visible_by_sparql(seeded: EmbeddedDkg) -> None:
    result = seeded.query(
        "SELECT DISTINCT ?id ?a ?b WHERE { ?x schema:identifier ?id ; schema:foundingDate ?a ."
        " ?y schema:identifier ?id ; schema:foundingDate ?b FILTER(?a < ?b) }"
    )
    assert len(result.rows) >= 3
    countries = seeded.query(
        "SELECT DISTINCT ?c WHERE { ?x schema:identifier ?id ; schema:address/schema:addressCountry"
        " ?c . ?x schema:name ?n FILTER(CONTAINS(?n, 'Tianqi Lithium Corp')) }"
    )
    assert {row["c"] for row in countries.rows} == {"CN", "AU"}


# -- related / duplicates / gazetteer -------------------------------------------------------
