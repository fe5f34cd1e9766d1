"""How the embedded store records a Knowledge Asset: its UAL, its graph and its metadata.

Publishing an asset writes the asset's own triples into the named graph called by its
UAL, and its trust metadata (token id, stake, publisher, publish time, update count,
content hash, the JSON-LD exactly as published, label) into the graph
<did:dkg:metadata>. This module validates an asset for publishing (`draft_asset`) and
turns the draft into those quads (`AssetDraft.records`); `EmbeddedDkg` reads them back
with the same terms.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pyoxigraph import Literal, NamedNode, Quad

from mining.jsonld import JsonLdError, canonical_json, content_hash, validate_asset
from storage.dkg.interface import DKG_NS, DkgValidationError
from storage.dkg.jsonld_rdf import (
    RDF_TYPE,
    decimal_lexical,
    jsonld_to_quads,
    subject_iri,
    typed_literal,
)
from storage.dkg.label_index import IndexEntry, entry_from_asset

CHAIN = "otp:2043"
CONTRACT = "0x5cac41237127f94c2d21dae0b14bfefa99880630"
UAL_PREFIX = f"did:dkg:{CHAIN}/{CONTRACT}/"
RDFS_LABEL = NamedNode("http://www.w3.org/2000/01/rdf-schema#label")
METADATA_GRAPH = NamedNode("did:dkg:metadata")


def dkg_term(local: str) -> NamedNode:
    """A term of the DKG ontology (`dkg:tokenId`, `dkg:stakeAmount` ...)."""
    return NamedNode(DKG_NS + local)


JSONLD = dkg_term("jsonld")  # the metadata predicate holding an asset's JSON-LD text


def split_seed_item(item: Any) -> tuple[Any, dict[str, Any]]:
    """The asset of a seed item and the `publish` keyword arguments of its metadata."""
    asset = item.get("asset", item) if isinstance(item, dict) else item
    meta = item.get("metadata", {}) if isinstance(item, dict) and "asset" in item else {}
    return asset, {
        "publisher": str(meta.get("publisher") or "0x" + "0" * 40),
        "stake_amount": float(meta.get("stakeAmount", 0.0)),
        "domain": meta.get("domain"),
        "publish_time": meta.get("publishTime"),
        "update_count": int(meta.get("updateCount", 0)),
    }


@dataclass(frozen=True)
class AssetDraft:
    """A validated asset and its publish metadata, not yet given a token."""

    asset: dict[str, Any]
    digest: str
    publisher: str
    stake_amount: float
    domain: str | None
    when: str
    update_count: int

    def records(self, token: int) -> tuple[str, list[Quad], IndexEntry]:
        """The UAL for `token`, every quad to store (asset graph + metadata), its index entry."""
        ual = f"{UAL_PREFIX}{token}"
        try:
            subject = NamedNode(subject_iri(self.asset, ual))
            quads = jsonld_to_quads(self.asset, subject, NamedNode(ual))
        except (JsonLdError, ValueError) as exc:
            raise DkgValidationError(f"asset cannot be converted to RDF: {exc}") from exc
        entry = entry_from_asset(ual, self.asset, self.stake_amount)
        meta: list[tuple[str, NamedNode | Literal]] = [
            ("tokenId", typed_literal(str(token), "integer")),
            ("stakeAmount", typed_literal(decimal_lexical(self.stake_amount), "decimal")),
            ("publisher", Literal(self.publisher)),
            ("publishTime", typed_literal(self.when, "dateTime")),
            ("updateCount", typed_literal(str(int(self.update_count)), "integer")),
            ("contentHash", Literal(self.digest)),
            ("jsonld", Literal(canonical_json(self.asset))),
            ("subject", subject),
        ]
        if self.domain:
            meta.append(("domain", Literal(self.domain)))
        node = NamedNode(ual)
        quads += [Quad(node, dkg_term(k), v, METADATA_GRAPH) for k, v in meta]
        quads.append(Quad(node, RDF_TYPE, dkg_term("KnowledgeAsset"), METADATA_GRAPH))
        if entry.names:
            quads.append(Quad(node, RDFS_LABEL, Literal(entry.label), METADATA_GRAPH))
        return ual, quads, entry


def draft_asset(
    asset: Any,
    *,
    publisher: str,
    stake_amount: float,
    domain: str | None,
    publish_time: str | None,
    update_count: int,
) -> AssetDraft:
    """Validate an asset for publishing (same checks and order as always) and hash it."""
    _validate(asset, publisher, stake_amount)
    when = iso_time(publish_time)
    return AssetDraft(
        asset=asset,
        digest=content_hash(asset),
        publisher=publisher,
        stake_amount=stake_amount,
        domain=domain,
        when=when,
        update_count=update_count,
    )


def iso_time(value: str | None) -> str:
    """`value` as an ISO 8601 UTC date-time ('...Z'); now when None."""
    if value is None:
        return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError as exc:
        raise DkgValidationError(f"publish_time is not an ISO 8601 date-time: {value!r}") from exc
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.isoformat().replace("+00:00", "Z")


def _validate(asset: object, publisher: str, stake: float) -> None:
    try:
        validate_asset(asset)
    except JsonLdError as exc:
        raise DkgValidationError(str(exc)) from exc
    if not isinstance(publisher, str) or not publisher.strip():
        raise DkgValidationError("publisher must be a non-empty address string")
    if not math.isfinite(stake) or stake < 0:
        raise DkgValidationError("stake_amount must be a finite number >= 0")
