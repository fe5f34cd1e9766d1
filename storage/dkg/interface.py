"""What both DKG backends speak: their errors, the shapes of their answers, SPARQL prefixes.

The embedded store (`storage.dkg.embedded`) and the remote node client
(`storage.dkg.remote`) raise these errors and answer with these models, so the
activities and the API handle either without knowing which one is configured.
"""

from __future__ import annotations

from typing import Literal as Kind

from pydantic import BaseModel

from mining.jsonld import SCHEMA, XSD
from storage.dkg.jsonld_rdf import Value
from storage.dkg.label_index import Match

DKG_NS = "https://ontology.origintrail.io/dkg/1.0#"
# Declared for every query, so `schema:`, `dkg:`, `rdfs:` ... need no PREFIX line.
PREFIXES = {
    "schema": SCHEMA,
    "dkg": DKG_NS,
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "xsd": XSD,
}


class DkgError(Exception):
    """Base class of the DKG's errors."""


class DkgQueryError(DkgError):
    pass


class DkgValidationError(DkgError):
    pass


class DkgNotFound(DkgError):
    pass


class SparqlResult(BaseModel):
    kind: Kind["select", "ask", "construct", "describe"]
    variables: list[str] = []
    rows: list[dict[str, Value]] = []
    boolean: bool | None = None
    truncated: bool = False


# What a SPARQL answer shows a person (CLI, API): the rows and how complete they are.
SPARQL_ANSWER = {"rows", "boolean", "truncated"}


class AssetMetadata(BaseModel):
    ual: str
    tokenId: int
    stakeAmount: float
    publisher: str
    publishTime: str
    updateCount: int
    domain: str | None = None
    label: str | None = None


class PublishResult(BaseModel):
    ual: str
    created: bool


class RelatedAsset(BaseModel):
    ual: str
    label: str
    type: str
    score: float
    stakeAmount: float

    @classmethod
    def from_match(cls, match: Match, stake: float | None = None) -> RelatedAsset:
        """`stake` overrides the index's when the caller knows better (or knows nothing)."""
        entry = match.entry
        return cls(
            ual=entry.ual,
            label=entry.label,
            type=entry.type,
            score=round(match.score, 4),
            stakeAmount=entry.stake if stake is None else stake,
        )


class DuplicateMatch(BaseModel):
    ual: str
    reason: str
