"""What the DKG itself says about a fact: corroboration from staked assets.

DKG assets count as sources (weighted by their stake in `mining/scoring.py`). For a
fact A -relation-> B this module looks at the assets that mention both ends (A's own,
B's own, and any asset whose graph refers to both, such as a supply deal or an event):

- **structure**: a schema.org property linking A and B that means the same relation
  (`STRUCTURAL` below: `parentOrganization` is `subsidiaryOf`, a SellAction's `seller` and
  `buyer` are `supplies` ...). The DKG then already *states* the fact: the candidate is
  flagged `knownInDkg` and validation treats it as a duplicate (publishing it again would
  only cost TRAC), while the answer can still cite the existing asset;
- **text**: the asset's description, read by the same extractor as any passage, states
  the fact in prose: the asset is an independent source of evidence for the claim.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from contracts.tools import EvidenceItem, SourceDocument, Statement
from mining.names import normalise_name, tokens, type_family
from mining.nlp import gazetteer_digest, resolver_for
from mining.predicates import canonical
from mining.statement_reads import StatementReader

# schema.org property from A to B -> (relation, A is the subject)
DIRECT: dict[str, tuple[str, bool]] = {
    "location": ("operatesIn", True),
    "areaServed": ("operatesIn", True),
    "containedInPlace": ("locatedIn", True),
    "containsPlace": ("locatedIn", False),
    "parentOrganization": ("subsidiaryOf", True),
    "subOrganization": ("subsidiaryOf", False),
    "owns": ("ownsStakeIn", True),
    "memberOf": ("memberOf", True),
    "member": ("memberOf", False),
    "sponsor": ("sponsors", False),
    "funder": ("sponsors", False),
    "manufacturer": ("produces", False),
    "studySubject": ("studies", True),
    "healthCondition": ("studies", True),
}
# (property from a third node to A, property from it to B) -> relation with A as subject
VIA: dict[tuple[str, str], str] = {
    ("agent", "buyer"): "supplies",
    ("seller", "buyer"): "supplies",
    ("seller", "customer"): "supplies",
    ("agent", "object"): "produces",
    ("seller", "object"): "produces",
    ("customer", "seller"): "awardsContractTo",
}
STRUCTURE_QUERY = """
SELECT ?g ?dir ?p ?q WHERE {
  { GRAPH ?g { <%(a)s> ?p <%(b)s> } BIND("ab" AS ?dir) }
  UNION { GRAPH ?g { <%(b)s> ?p <%(a)s> } BIND("ba" AS ?dir) }
  UNION { GRAPH ?g { ?m ?p <%(a)s> . ?m ?q <%(b)s> } BIND("via" AS ?dir) }
  FILTER(?g != <did:dkg:metadata>)
} LIMIT 40
"""
NEIGHBOURS_QUERY = """
SELECT DISTINCT ?g ?stake WHERE {
  GRAPH ?g { ?s ?p <%s> }
  FILTER(?g != <did:dkg:metadata>)
  OPTIONAL { GRAPH <did:dkg:metadata> { ?g dkg:stakeAmount ?stake } }
} ORDER BY DESC(?stake) LIMIT %d
"""
MAX_NEIGHBOURS = 8
MAX_SNIPPET = 300


def _local(iri: Any) -> str:
    text = str(iri or "")
    return text.rsplit("#", 1)[-1].rsplit("/", 1)[-1]


@dataclass
class Corroboration:
    evidence: list[EvidenceItem]
    known_in: list[str]  # UALs of assets whose structure states the fact


class DkgCorroborator:
    """Looks facts up in the DKG; caches asset reads for one proposal."""

    def __init__(
        self,
        dkg: Any,
        gazetteer: list[tuple[str, str, str]],
        relevance_of: Callable[[str, str], float],
        digest: str | None = None,
    ) -> None:
        self._dkg = dkg
        self._gazetteer = gazetteer
        # Descriptions are read through the process-wide memo: every run corroborates
        # against the same staked assets. `digest`: the gazetteer's, when the caller has it.
        digest = digest or gazetteer_digest(gazetteer)
        self._reader = StatementReader(gazetteer, resolver_for(gazetteer, digest), digest)
        self._relevance_of = relevance_of
        self._assets: dict[str, dict[str, Any] | None] = {}
        self._read: dict[str, list[Statement]] = {}
        self._near: dict[str, list[str]] = {}

    def _asset(self, ual: str) -> dict[str, Any] | None:
        if ual not in self._assets:
            try:
                self._assets[ual] = self._dkg.get_asset(ual)
            except Exception:  # noqa: BLE001  (a remote read failing only loses evidence)
                self._assets[ual] = None
        return self._assets[ual]

    def _iri(self, ual: str) -> str | None:
        asset = self._asset(ual)
        ident = asset.get("@id") if isinstance(asset, dict) else None
        return ident if isinstance(ident, str) and ":" in ident and ">" not in ident else None

    def _description(self, ual: str) -> tuple[str, str]:
        asset = self._asset(ual) or {}
        name = asset.get("name")
        text = asset.get("description")
        return (name if isinstance(name, str) else ""), (text if isinstance(text, str) else "")

    def _statements(self, ual: str) -> list[Statement]:
        if ual not in self._read:
            name, text = self._description(ual)
            self._read[ual] = (
                self._reader.read(
                    SourceDocument(text=text, source=ual, title=name, subject=name or None)
                )
                if text
                else []
            )
        return self._read[ual]

    def _graphs(self, a: str, b: str) -> list[tuple[str, str, str, str]]:
        a_iri, b_iri = self._iri(a), self._iri(b)
        if not a_iri or not b_iri:
            return []
        try:
            rows = self._dkg.query(STRUCTURE_QUERY % {"a": a_iri, "b": b_iri}, row_limit=40).rows
        except Exception:  # noqa: BLE001
            return []
        return [(str(r["g"]), str(r["dir"]), _local(r.get("p")), _local(r.get("q"))) for r in rows]

    def _neighbours(self, ual: str) -> list[str]:
        """Assets that refer to an entity (events about it, deals it is party to), best staked.
        Read once per proposal: one entity is an end of many of its facts."""
        if ual not in self._near:
            self._near[ual] = self._query_neighbours(ual)
        return self._near[ual]

    def _query_neighbours(self, ual: str) -> list[str]:
        iri = self._iri(ual)
        if not iri:
            return []
        try:
            rows = self._dkg.query(
                NEIGHBOURS_QUERY % (iri, MAX_NEIGHBOURS), row_limit=MAX_NEIGHBOURS
            )
        except Exception:  # noqa: BLE001
            return []
        return [str(r["g"]) for r in rows.rows if r.get("g")]

    def _structural(
        self, graph: str, how: str, p: str, q: str, a: str, b: str
    ) -> tuple[str, str, str] | None:
        if how in ("ab", "ba"):
            rule = DIRECT.get(p)
            if rule is None:
                return None
            first, second = (a, b) if how == "ab" else (b, a)
            predicate, first_is_subject = rule
            if predicate == "operatesIn":
                subject_type = (self._asset(first) or {}).get("@type", "")
                if type_family(str(subject_type)) != "organization":
                    predicate = "locatedIn"
            subj, obj = (first, second) if first_is_subject else (second, first)
            return predicate, subj, obj
        predicate = VIA.get((p, q))
        if predicate is not None:
            return predicate, a, b
        reverse = VIA.get((q, p))
        return (reverse, b, a) if reverse is not None else None

    def corroborate(
        self, predicate: str, subj: tuple[str | None, str], obj: tuple[str | None, str], query: str
    ) -> Corroboration:
        """Evidence the DKG holds for (subject, predicate, object); ends are (ual, name)."""
        want = canonical(predicate, _end_key(subj), _end_key(obj))
        evidence: list[EvidenceItem] = []
        known: list[str] = []
        graphs: list[str] = [u for u in (subj[0], obj[0]) if u]
        if subj[0] and obj[0]:
            for graph, how, p, q in self._graphs(subj[0], obj[0]):
                if graph not in graphs:
                    graphs.append(graph)
                fact = self._structural(graph, how, p, q, subj[0], obj[0])
                if fact and canonical(*fact) == want and graph not in known:
                    known.append(graph)
                    name, text = self._description(graph)
                    evidence.append(
                        EvidenceItem(
                            source=graph,
                            id=graph,
                            snippet=f"{name}: schema:{p}{'/' + q if q else ''}",
                            score=self._relevance_of(query, f"{name}. {text}"),
                            title=name,
                            kind="dkg-structure",
                        )
                    )
        for end in (subj[0], obj[0]):
            for graph in self._neighbours(end) if end else []:
                if graph not in graphs:
                    graphs.append(graph)
        for graph in graphs:
            for st in self._statements(graph):
                if st.negated or st.hedged:
                    continue
                found = canonical(
                    st.predicate,
                    _end_key((st.subjectUal, st.subject)),
                    _end_key((st.objectUal, st.object)),
                )
                if same_fact(found, want) and not any(e.source == graph for e in evidence):
                    name, _ = self._description(graph)
                    evidence.append(
                        EvidenceItem(
                            source=graph,
                            id=graph,
                            snippet=st.sentence[:MAX_SNIPPET],
                            score=self._relevance_of(query, st.sentence),
                            title=name,
                            kind="dkg-text",
                        )
                    )
        return Corroboration(evidence=evidence, known_in=known)


def _end_key(end: tuple[str | None, str]) -> str:
    ual, name = end
    return ual or normalise_name(name)


def same_end(a: str, b: str) -> bool:
    """Two claim ends are one: same asset or name, or two phrases for one concept.

    Phrases ("raw lithium ore", "unprocessed lithium ore") match when they share their
    head word (the last) and at least half of all their words.
    """
    if a == b:
        return True
    if a.startswith("did:dkg:") or b.startswith("did:dkg:"):
        return False
    wa, wb = a.split(), b.split()
    if not wa or not wb or wa[-1] != wb[-1]:
        return False
    sa, sb = tokens(a), tokens(b)
    return bool(sa | sb) and len(sa & sb) / len(sa | sb) >= 0.5


def same_fact(found: tuple[str, str, str], want: tuple[str, str, str]) -> bool:
    return found[0] == want[0] and same_end(found[1], want[1]) and same_end(found[2], want[2])
