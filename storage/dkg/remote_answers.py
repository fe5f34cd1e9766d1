"""Talking SPARQL with an ot-node: the text of our own queries, and decoding the answers.

The node answers a SELECT with comunica's simple JSON (literals as '"lex"^^datatype' /
'"lex"@lang', IRIs bare) or with SPARQL 1.1 JSON results, a CONSTRUCT with N-Quads, and
an asset with a flat JSON-LD graph; these functions turn each into the rows and nested
objects the embedded store answers with. IRIs and strings put into our own queries are
checked and escaped here first.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from pyoxigraph import Literal, NamedNode, RdfFormat, parse

from mining.jsonld import SCHEMA
from storage.dkg.interface import DkgError, DkgValidationError
from storage.dkg.jsonld_rdf import Value, term_value
from storage.dkg.label_index import IndexEntry, entry_from_asset
from storage.dkg.sparql_guard import TRIPLE_COLUMNS


def sparql_iri(value: str, what: str) -> str:
    """`<value>` for a SPARQL text, after pyoxigraph has checked it really is an IRI."""
    if not isinstance(value, str) or not value.startswith("did:dkg:"):
        raise DkgValidationError(f"{what} must look like did:dkg:<chain>/<contract>/<id>")
    try:
        return str(NamedNode(value))
    except ValueError as exc:
        raise DkgValidationError(f"{what} is not a valid IRI: {value!r}") from exc


def sparql_string(text: str) -> str:
    # JSON escapes (\" \\ \n \uXXXX) are all valid SPARQL string escapes.
    return json.dumps(text, ensure_ascii=False)


def select_bindings(data: Any) -> list[dict[str, Any]]:
    """Rows of a SELECT answer: ot-node's plain list, or a SPARQL 1.1 JSON results object."""
    if isinstance(data, dict):
        data = data.get("results", {}).get("bindings", [])
    if not isinstance(data, list):
        raise DkgError(f"SPARQL query: unexpected answer from the node: {str(data)[:200]}")
    return [b for b in data if isinstance(b, dict)]


def decode_binding(binding: dict[str, Any], variables: list[str]) -> dict[str, Value]:
    names = variables or list(binding)
    return {name: decode_term(binding.get(name)) for name in names}


def decode_term(raw: Any) -> Value:
    """One bound value: comunica's '"lex"^^dt' / '"lex"@lang' / IRI strings, or JSON terms."""
    if raw is None:
        return None
    if isinstance(raw, dict):  # SPARQL 1.1 JSON: {"type", "value", "datatype", "xml:lang"}
        if raw.get("type") in ("literal", "typed-literal") and raw.get("datatype"):
            return term_value(Literal(str(raw["value"]), datatype=NamedNode(raw["datatype"])))
        return raw.get("value")
    text = str(raw)
    if not text.startswith('"'):
        return text
    # rdf-string does not escape the lexical form, so its end is the last quote.
    end = text.rfind('"')
    lexical, suffix = text[1:end], text[end + 1 :]
    if suffix.startswith("^^"):
        try:
            return term_value(Literal(lexical, datatype=NamedNode(suffix[2:])))
        except ValueError:
            return lexical
    return lexical


def construct_rows(data: Any, cap: int) -> list[dict[str, Value]]:
    if not isinstance(data, str):
        raise DkgError(f"SPARQL query: expected N-Quads from the node, got {str(data)[:200]}")
    rows: list[dict[str, Value]] = []
    try:
        for quad in parse(data.encode(), format=RdfFormat.N_QUADS):
            if len(rows) >= cap:
                break
            terms = (quad.subject, quad.predicate, quad.object)
            rows.append(dict(zip(TRIPLE_COLUMNS, map(term_value, terms), strict=True)))
    except SyntaxError as exc:
        raise DkgError(f"SPARQL query: the node's N-Quads do not parse: {exc}") from exc
    return rows


def label_entries(rows: list[dict[str, Value]]) -> Iterator[IndexEntry]:
    """Index entries from label rows: one pseudo-asset per UAL (its KA named graph)."""
    assets: dict[str, dict[str, Any]] = {}
    for row in rows:
        graph, subject = str(row.get("g") or ""), str(row.get("s") or "")
        ual = graph.removesuffix("/public").removesuffix("/private")
        doc = assets.setdefault(ual, {"subject": subject, "@type": []})
        # A KA graph can hold nested nodes too (addresses...); keep to its first subject.
        if doc["subject"] != subject or row.get("v") is None:
            continue
        prop = str(row.get("p")).removeprefix(SCHEMA)
        doc.setdefault(prop, [])
        if row["v"] not in doc[prop]:
            doc[prop].append(str(row["v"]))
        kind = row.get("type")
        if kind and kind not in doc["@type"]:
            doc["@type"].append(str(kind))
    for ual, doc in assets.items():
        yield entry_from_asset(ual, doc, 0.0)


def as_tree(doc: dict[str, Any]) -> dict[str, Any]:
    """Nest nodes referenced once (blank and SDK-minted uuid: nodes) into their parent.

    The node stores flat triples, so JSON-LD from them is a flat @graph; the miner's
    tools read assets as one nested object, the way they were published.
    """
    context = doc.get("@context")
    nodes = doc.get("@graph")
    if not isinstance(nodes, list):
        return doc
    by_id = {n.get("@id"): n for n in nodes if isinstance(n, dict)}
    refs: dict[str, int] = {}

    def count(value: Any) -> None:
        if isinstance(value, dict):
            if set(value) == {"@id"}:
                refs[value["@id"]] = refs.get(value["@id"], 0) + 1
            for item in value.values():
                count(item)
        elif isinstance(value, list):
            for item in value:
                count(item)

    count(nodes)
    inlinable = {
        key
        for key, n in refs.items()
        if n == 1 and key in by_id and str(key).startswith(("_:", "uuid:"))
    }

    def inline(value: Any, seen: frozenset[str]) -> Any:
        if isinstance(value, list):
            return [inline(v, seen) for v in value]
        if not isinstance(value, dict):
            return value
        key = value.get("@id")
        if set(value) == {"@id"} and key in inlinable and key not in seen:
            inner = {k: v for k, v in by_id[key].items() if k != "@id"}
            return inline(inner, seen | {key})
        return {k: inline(v, seen) for k, v in value.items()}

    roots = [inline(n, frozenset()) for k, n in by_id.items() if k not in inlinable]
    if len(roots) == 1:
        return {"@context": context, **roots[0]}
    return {"@context": context, "@graph": roots}
