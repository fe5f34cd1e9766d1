"""JSON-LD (schema.org flavoured) to RDF quads, without fetching any remote context.

Only the subset Knowledge Assets use is supported: a schema.org vocabulary given
as a context string or an `@vocab`, optional prefix mappings, nested nodes with
or without `@id`, lists, value objects and plain JSON scalars. Fetching contexts
over the network would make publishing slow and non-deterministic, so any other
context is refused instead of guessed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Any

from pyoxigraph import BlankNode, Literal, NamedNode, Quad

Value = str | int | float | bool | None

SCHEMA = "http://schema.org/"
RDF_TYPE = NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
XSD = "http://www.w3.org/2001/XMLSchema#"
_INT_TYPES = {XSD + t for t in ("integer", "int", "long", "short", "nonNegativeInteger")}
_FLOAT_TYPES = {XSD + t for t in ("decimal", "double", "float")}

_SCHEMA_ALIASES = {
    "https://schema.org/",
    "http://schema.org/",
    "https://schema.org",
    "http://schema.org",
}
# Absolute IRIs are kept as they are; anything else is a term of the vocabulary.
_IRI_SCHEMES = ("http://", "https://", "urn:", "did:", "mailto:", "tag:")


class JsonLdError(ValueError):
    """The document is not JSON-LD this converter can turn into triples."""


def canonical_json(doc: Any) -> str:
    """Key-sorted compact JSON: equal content gives an equal string (and hash)."""
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def content_hash(doc: Any) -> str:
    return hashlib.sha256(canonical_json(doc).encode("utf-8")).hexdigest()


class Context:
    """The part of a JSON-LD context we honour: a vocabulary and prefixes."""

    def __init__(self, raw: Any) -> None:
        self.vocab: str | None = None
        self.prefixes: dict[str, str] = {"schema": SCHEMA, "xsd": XSD}
        self._absorb(raw)
        if self.vocab is None:
            raise JsonLdError(
                "@context must be the schema.org vocabulary ('https://schema.org/') "
                "or an object with an '@vocab'"
            )

    def _absorb(self, raw: Any) -> None:
        if isinstance(raw, str):
            if raw.strip() not in _SCHEMA_ALIASES:
                raise JsonLdError(f"unsupported @context {raw!r}: only schema.org is allowed")
            self.vocab = SCHEMA
        elif isinstance(raw, list):
            for item in raw:
                self._absorb(item)
        elif isinstance(raw, dict):
            for key, value in raw.items():
                if key == "@vocab" and isinstance(value, str):
                    # https://schema.org/ and http://schema.org/ name one vocabulary;
                    # storing one spelling keeps SPARQL with schema: working.
                    self.vocab = SCHEMA if value in _SCHEMA_ALIASES else value
                elif isinstance(value, str) and not key.startswith("@"):
                    self.prefixes[key] = SCHEMA if value in _SCHEMA_ALIASES else value
        else:
            raise JsonLdError("@context must be a string, an object or a list of those")

    def expand_term(self, term: str) -> str:
        """A property or type name to an absolute IRI."""
        if term.startswith(_IRI_SCHEMES):
            return term
        prefix, sep, local = term.partition(":")
        if sep and prefix in self.prefixes:
            return self.prefixes[prefix] + local
        return f"{self.vocab}{term}"

    def expand_id(self, value: str) -> str:
        prefix, sep, local = value.partition(":")
        if sep and prefix in self.prefixes and not local.startswith("//"):
            return self.prefixes[prefix] + local
        return value


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


def validate_asset(asset: object) -> None:
    """The minimum a Knowledge Asset needs: an object, a usable @context, a @type."""
    if not isinstance(asset, dict):
        raise JsonLdError("asset must be a JSON-LD object (a dict)")
    if "@context" not in asset:
        raise JsonLdError("asset has no @context; use '@context': 'https://schema.org/'")
    try:
        Context(asset["@context"])
    except JsonLdError as exc:
        raise JsonLdError(f"invalid @context: {exc}") from exc
    kinds = asset.get("@type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if not kinds or not all(isinstance(k, str) and k.strip() for k in kinds):
        raise JsonLdError("asset needs a non-empty @type (e.g. 'Organization')")


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
