"""JSON-LD (schema.org flavoured) to RDF quads, without fetching any remote context.

Only the subset Knowledge Assets use is supported: a schema.org vocabulary given
as a context string or an `@vocab`, optional prefix mappings, nested nodes with
or without `@id`, lists, value objects and plain JSON scalars. Fetching contexts
over the network would make publishing slow and non-deterministic, so any other
context is refused instead of guessed.

Why this is hand-written rather than pyoxigraph's own JSON-LD parser
(`pyoxigraph.parse(..., format=RdfFormat.JSON_LD)`, tried with pyoxigraph 0.5.13):
the library refuses remote contexts as wanted ("No LoadDocumentCallback has been set
to load remote contexts"), which also refuses every asset written with
`"@context": "https://schema.org/"` (all the seed data), so the context has to be
rewritten inline (`@vocab` plus the prefixes of `mining.jsonld.Context`) and the
subject given as `@id` first. With that, the 289 seed assets give the same triples,
but `tests/storage/test_dkg_store_publish.py::test_invalid_assets_are_refused[doc7-IRI]` fails: for
`"url": {"@id": "not an iri"}` the library drops the triple silently (JSON-LD
expansion ignores an invalid `@id`), so the asset would be published with data
missing instead of refused with DkgValidationError. It would also write doubles in
canonical form (`0.87` becomes `"8.7E-1"^^xsd:double`), changing the triples of the
miner's own claims (their relevance and evidence scores), and turn `@list` into
rdf:first/rdf:rest chains where this converter writes one triple per item.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pyoxigraph import BlankNode, Literal, NamedNode, Quad

from mining.jsonld import XSD, Context, JsonLdError

Value = str | int | float | bool | None

RDF_TYPE = NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
_INT_TYPES = {XSD + t for t in ("integer", "int", "long", "short", "nonNegativeInteger")}
_FLOAT_TYPES = {XSD + t for t in ("decimal", "double", "float")}


def _named(iri: str) -> NamedNode:
    try:
        return NamedNode(iri)
    except ValueError as exc:
        raise JsonLdError(f"not a valid IRI: {iri!r}") from exc


def _literal(value: str | int | float | bool) -> Literal:
    # bool is tested first because it is a subclass of int.
    if isinstance(value, bool):
        return Literal("true" if value else "false", datatype=NamedNode(XSD + "boolean"))
    if isinstance(value, int):
        return Literal(str(value), datatype=NamedNode(XSD + "integer"))
    if isinstance(value, float):
        return Literal(repr(value), datatype=NamedNode(XSD + "double"))
    return Literal(value)


class _Converter:
    def __init__(self, ctx: Context, graph: NamedNode) -> None:
        self.ctx = ctx
        self.graph = graph

    def node(self, obj: dict[str, Any], subject: NamedNode | BlankNode) -> Iterator[Quad]:
        for key, value in obj.items():
            if key in ("@context", "@id"):
                continue
            if key == "@type":
                for type_name in value if isinstance(value, list) else [value]:
                    if not isinstance(type_name, str):
                        raise JsonLdError("@type values must be strings")
                    type_iri = _named(self.ctx.expand_term(type_name))
                    yield Quad(subject, RDF_TYPE, type_iri, self.graph)
                continue
            if key.startswith("@"):
                continue  # other keywords (@language, @index...) carry no triple here
            predicate = _named(self.ctx.expand_term(key))
            yield from self.values(subject, predicate, value)

    def values(
        self, subject: NamedNode | BlankNode, predicate: NamedNode, value: Any
    ) -> Iterator[Quad]:
        if value is None:
            return
        if isinstance(value, list):
            for item in value:
                yield from self.values(subject, predicate, item)
            return
        if isinstance(value, dict):
            if "@list" in value or "@set" in value:
                yield from self.values(subject, predicate, value.get("@list", value.get("@set")))
                return
            if "@value" in value:
                yield Quad(subject, predicate, self._value_object(value), self.graph)
                return
            child: NamedNode | BlankNode
            if isinstance(value.get("@id"), str):
                child = _named(self.ctx.expand_id(value["@id"]))
            else:
                # A fresh random id: equal labels in two assets must not merge nodes.
                child = BlankNode()
            yield Quad(subject, predicate, child, self.graph)
            yield from self.node(value, child)
            return
        if isinstance(value, str | int | float | bool):
            yield Quad(subject, predicate, _literal(value), self.graph)
            return
        raise JsonLdError(f"unsupported JSON value for {predicate.value}: {value!r}")

    def _value_object(self, value: dict[str, Any]) -> Literal:
        raw = value["@value"]
        if "@type" in value:
            datatype = _named(self.ctx.expand_term(str(value["@type"])))
            lexical = str(raw).lower() if isinstance(raw, bool) else str(raw)
            return Literal(lexical, datatype=datatype)
        if "@language" in value:
            return Literal(str(raw), language=str(value["@language"]))
        return _literal(raw)


def jsonld_to_quads(doc: dict[str, Any], subject: NamedNode, graph: NamedNode) -> list[Quad]:
    """Triples of one JSON-LD node object, all placed in `graph`."""
    ctx = Context(doc.get("@context"))
    return list(_Converter(ctx, graph).node(doc, subject))


def subject_iri(doc: dict[str, Any], fallback: str) -> str:
    """The asset's subject: its `@id` (prefixes expanded) or else the fallback (UAL)."""
    raw = doc.get("@id")
    if not isinstance(raw, str) or not raw:
        return fallback
    return Context(doc.get("@context")).expand_id(raw)


def typed_literal(lexical: str, xsd_type: str) -> Literal:
    return Literal(lexical, datatype=NamedNode(XSD + xsd_type))


def decimal_lexical(value: float) -> str:
    # xsd:decimal has no exponent form, so never let Python print 1e-05.
    text = f"{value:.6f}".rstrip("0")
    return text + "0" if text.endswith(".") else text


def term_value(term: object) -> Value:
    """An RDF term as a plain Python value: typed literals become numbers/bools."""
    if term is None:
        return None
    if isinstance(term, Literal):
        datatype = term.datatype.value
        try:
            if datatype in _INT_TYPES:
                return int(term.value)
            if datatype in _FLOAT_TYPES:
                return float(term.value)
        except ValueError:
            return term.value
        if datatype == XSD + "boolean":
            return term.value in ("true", "1")
        return term.value
    if isinstance(term, BlankNode):
        return f"_:{term.value}"
    if isinstance(term, NamedNode):
        return term.value
    return str(term)
