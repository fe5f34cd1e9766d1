"""Properties that must hold for any input, checked with generated hostile inputs:
tag normalisation, JSON-LD validation and the read-only SPARQL guard."""

from __future__ import annotations

import json
import string
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from pyoxigraph import NamedNode, Quad, Store

from contracts.run import (
    GLOBAL_THREAD,
    TAG_PATTERN,
    InvalidTagError,
    normalize_tag,
    normalize_tags,
    thread_id_for,
)
from mining.jsonld import MAX_DEPTH, canonical_json, content_hash, jsonld_problem, validate_asset
from storage.dkg.sparql_guard import MAX_QUERY_CHARS, MAX_QUERY_DEPTH, SparqlRefused
from storage.dkg.sparql_sandbox import run_in_process

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TAG_CHARS = string.ascii_letters + string.digits + "_#- \t\n" + "İıKſ\u212a\u0130ß€\x00"

# -- tags ---------------------------------------------------------------------------------


@FAST
@given(st.text(alphabet=TAG_CHARS, max_size=80))
@example("abc\n")
@example("\u212a")  # the Kelvin sign lowercases to an ASCII 'k'
@example("#a__b")
def test_a_tag_is_refused_or_normalised_to_the_rule_and_stays_put(raw: str) -> None:
    try:
        tag = normalize_tag(raw)
    except InvalidTagError as exc:
        assert repr(raw) in str(exc), "the error names the tag it refused"
        return
    assert TAG_PATTERN.fullmatch(tag)
    assert normalize_tag(tag) == tag, "normalising twice changes nothing"


tags = st.lists(st.from_regex(r"[a-z0-9_]{1,6}", fullmatch=True), max_size=5)


def accepted(raw: list[str]) -> set[str] | None:
    """The tag set a thread stands for (no tags: the global thread), or None if refused."""
    try:
        return set(normalize_tags(raw)) or {GLOBAL_THREAD}
    except InvalidTagError:
        return None


@FAST
@given(tags, tags)
@example(["a__b"], ["a", "b"])
@example(["a_", "b"], ["a", "_b"])
def test_two_tag_sets_share_a_thread_only_if_they_are_the_same_set(
    a: list[str], b: list[str]
) -> None:
    first, second = accepted(a), accepted(b)
    assume(first is not None and second is not None)
    assert (thread_id_for(a) == thread_id_for(b)) == (first == second)


def test_a_tag_holding_the_thread_separator_is_refused() -> None:
    for raw in ("supply__chain", "_supply", "chain_"):
        with pytest.raises(InvalidTagError, match="joins tags"):
            normalize_tag(raw)
    assert thread_id_for(["#Supply_Chain", "general_risk"]) == "general_risk__supply_chain"


# -- JSON-LD ------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["@context", "@type", "@id", "@graph", "name", "x", "@value"])
            | st.text(max_size=5),
            inner,
            max_size=4,
        )
    ),
    max_leaves=30,
)


def nested(depth: int, leaf: Any) -> Any:
    value = leaf
    for level in range(depth):
        value = {"schema:knows": value} if level % 2 else [value]
    return value


@FAST
@given(json_values)
def test_any_json_gets_a_verdict_never_an_exception(value: Any) -> None:
    problem = jsonld_problem(value)
    assert problem is None or (isinstance(problem, str) and problem)
    if not isinstance(value, dict):
        assert problem is not None


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=MAX_DEPTH + 1, max_value=20_000))
def test_nesting_past_the_limit_is_refused_by_name_at_any_depth(depth: int) -> None:
    asset = {"@context": "https://schema.org/", "@type": "Thing", "x": nested(depth, "leaf")}
    problem = jsonld_problem(asset)
    assert problem is not None and f"at most {MAX_DEPTH} allowed" in problem


names = st.text(alphabet=string.ascii_letters + " -é", min_size=1, max_size=20)


@FAST
@given(st.sampled_from(["Organization", "Place", "Product", "Event"]), names, st.randoms())
def test_a_valid_asset_is_accepted_and_its_hash_ignores_key_order(
    kind: str, name: str, rnd: Any
) -> None:
    asset = {"@context": "https://schema.org/", "@type": kind, "name": name, "url": "urn:x:1"}
    assert jsonld_problem(asset) is None
    validate_asset(asset)
    shuffled = dict(rnd.sample(list(asset.items()), len(asset)))
    assert content_hash(shuffled) == content_hash(asset)
    assert json.loads(canonical_json(asset)) == asset


# -- SPARQL -------------------------------------------------------------------------------

READS = [
    "SELECT * WHERE { ?s ?p ?o }",
    "ASK { ?s ?p ?o }",
    "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }",
    "DESCRIBE <urn:a>",
]
UPDATES = [
    "INSERT DATA { <urn:x> <urn:y> <urn:z> }",
    "DELETE WHERE { ?s ?p ?o }",
    "DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }",
    "DROP ALL",
    "CLEAR DEFAULT",
    "CLEAR ALL",
    "LOAD <http://example.org/x>",
    "CREATE GRAPH <urn:g>",
    "COPY DEFAULT TO <urn:g>",
    "ADD DEFAULT TO <urn:g>",
    "MOVE DEFAULT TO <urn:g>",
    "WITH <urn:g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }",
]
FRAGMENTS = READS + UPDATES + [
    "#", "# DELETE WHERE { ?s ?p ?o }\n", "\n", ";", "{", "}", "(", ")", "<", ">", "'", '"',
    '"""', "'''", "\\", "OPTIONAL {", "FILTER(", "UNION", "SERVICE <http://127.0.0.1:1/>",
    "PREFIX x: <urn:x#>", "BASE <urn:b>", "ＩＮＳＥＲＴ", "insert", "\u0000", "\u202e", " ",
]  # fmt: skip


@pytest.fixture(scope="module")
def store() -> Store:
    s = Store()
    for n in range(5):
        s.add(Quad(NamedNode(f"urn:s{n}"), NamedNode("urn:p"), NamedNode(f"urn:o{n}")))
    return s


def run_guarded(store: Store, sparql: str) -> Any:
    # Reads every row: an update could hide in a lazy result.
    return run_in_process(store, sparql, prefixes={}, row_limit=10_000)


@FAST
@given(st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=6), max_size=12).map(" ".join))
@example("SELECT * WHERE { ?s ?p ?o } # comment\nINSERT DATA { <urn:x> <urn:y> <urn:z> }")
@example("SELECT * WHERE { ?s ?p ?o } ; INSERT DATA { <urn:x> <urn:y> <urn:z> }")
@example('SELECT * WHERE { ?s ?p "# }" } INSERT DATA { <urn:x> <urn:y> <urn:z> }')
def test_no_query_changes_the_store_or_escapes_as_another_error(store: Store, sparql: str) -> None:
    before = len(store)
    try:
        run_guarded(store, sparql)
    except SparqlRefused:
        pass
    assert len(store) == before


@FAST
@given(st.sampled_from(UPDATES), st.text(max_size=30))
def test_an_update_is_refused_whatever_comment_precedes_it(
    store: Store, update: str, comment: str
) -> None:
    sparql = f"# {comment.replace(chr(10), ' ').replace(chr(13), ' ')}\n{update}"
    with pytest.raises(SparqlRefused, match="read"):
        run_guarded(store, sparql)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=MAX_QUERY_DEPTH + 1, max_value=200_000), st.sampled_from("{("))
def test_nesting_past_the_limit_is_refused_by_name(store: Store, depth: int, bracket: str) -> None:
    closing = "}" if bracket == "{" else ")"
    body = "OPTIONAL " if bracket == "{" else ""
    sparql = "SELECT * WHERE " + (body + bracket) * depth + " ?s ?p ?o " + closing * depth
    with pytest.raises(SparqlRefused, match="at most"):
        run_guarded(store, sparql)


def test_an_overlong_query_is_refused_by_name(store: Store) -> None:
    sparql = "SELECT * WHERE { ?s ?p ?o } #" + "x" * MAX_QUERY_CHARS
    with pytest.raises(SparqlRefused, match=f"at most {MAX_QUERY_CHARS:,}"):
        run_guarded(store, sparql)
