"""JSON-LD rules every room shares: what a publishable asset is, and its content hash.

Pure Python (no RDF library), so the workflow can validate a reviewer's edit
with exactly the rules the DKG store applies when it publishes.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

SCHEMA = "http://schema.org/"
XSD = "http://www.w3.org/2001/XMLSchema#"

_SCHEMA_ALIASES = {
    "https://schema.org/",
    "http://schema.org/",
    "https://schema.org",
    "http://schema.org",
}
# Absolute IRIs are kept as they are; anything else is a term of the vocabulary.
_IRI_SCHEMES = ("http://", "https://", "urn:", "did:", "mailto:", "tag:")


# Deeper documents are refused before anything walks them recursively (the RDF
# converter, Temporal's payload converter): real Knowledge Assets nest a handful deep.
MAX_DEPTH = 32


def nesting_depth(value: object) -> int:
    """How deep dicts and lists nest in a JSON value, found without recursion."""
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            deepest = max(deepest, depth)
            stack.extend((v, depth + 1) for v in node.values())
        elif isinstance(node, list):
            deepest = max(deepest, depth)
            stack.extend((v, depth + 1) for v in node)
    return deepest


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


def validate_asset(asset: object) -> None:
    """The minimum a Knowledge Asset needs: an object, a usable @context, a @type."""
    if not isinstance(asset, dict):
        raise JsonLdError("asset must be a JSON-LD object (a dict)")
    depth = nesting_depth(asset)
    if depth > MAX_DEPTH:
        raise JsonLdError(f"asset nests {depth} levels deep: at most {MAX_DEPTH} allowed")
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


def jsonld_problem(asset: Any) -> str | None:
    """Why an asset is not publishable JSON-LD (the DKG store's own rules), or None."""
    try:
        validate_asset(asset)
    except JsonLdError as exc:
        return str(exc)
    return None
