"""JSON-LD for candidate Knowledge Assets, and the contradiction records between facts.

A claim is a `schema:Claim` whose `about` node is the subject and carries the typed
relation (`mining/predicates.py`) to the object node, so publishing it puts the triple
`<subject> dkg:restrictsExportsOf <object>` in the DKG, next to the claim's wording, its
evidence (seed 002 `EvidenceItem`s) and provenance. Subject and object are linked by UAL
when they are DKG assets, by the new entity's `urn:kminer:entity:` id when they are
proposed alongside, and are plain named nodes when they are concepts ("raw lithium ore").
"""

from __future__ import annotations

import hashlib
from typing import Any

from contracts.tools import EvidenceItem
from mining.entities import EntityRef
from mining.facts import Fact, evidence_item
from mining.predicates import DKG_NS, sentence_for, spec_for

CONTEXT = {"@vocab": "https://schema.org/", "dkg": DKG_NS}
# Relations only one value of which can hold for a subject: two different objects conflict.
FUNCTIONAL = frozenset({"subsidiaryOf", "locatedIn"})
# ... or for an object: one acquirer per acquired company.
INVERSE_FUNCTIONAL = frozenset({"acquired"})


MAX_EVIDENCE = 8
# What a supply claim's subject supplies, or what a contract is for: products, linked
# nodes like the claim's two ends.
GOODS_PROPERTY = "dkg:goods"
MAX_SNIPPET = 320


def _evidence_dump(item: EvidenceItem) -> dict[str, Any]:
    body = item.model_dump(exclude_none=True)
    if len(body.get("snippet", "")) > MAX_SNIPPET:
        body["snippet"] = body["snippet"][: MAX_SNIPPET - 1] + "…"
    return body


def fact_id(fact: Fact) -> str:
    digest = hashlib.sha256("|".join(fact.key).lower().encode()).hexdigest()
    return f"cand-{digest[:10]}"


def _node(end: EntityRef) -> dict[str, Any]:
    node: dict[str, Any] = {"@type": end.type, "name": end.name}
    if end.aliases:  # what the sources call the entity, where it differs from its name
        node["alternateName"] = sorted(set(end.aliases))
    ref = end.ual or end.new_id
    if ref:
        node["@id"] = ref
    return node


def claim_asset(
    fact: Fact, tags: list[str], query: str, discovered_at: str
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(JSON-LD claim, knowledge and provenance triplets) for one fact."""
    cid = fact_id(fact)
    ident = f"urn:kminer:claim:{cid.removeprefix('cand-')}"
    spec = spec_for(fact.predicate)
    about = _node(fact.subject)
    about[spec.property] = _node(fact.object)
    if fact.goods:
        about[GOODS_PROPERTY] = [_node(g) for g in fact.goods]
    best = max(fact.evidence, key=lambda e: (e.score, e.kind == "text"), default=None)
    sources = list(dict.fromkeys(e.source for e in fact.evidence))
    linked = [r for r in (fact.subject.ual, fact.object.ual, *(g.ual for g in fact.goods)) if r]
    asset: dict[str, Any] = {
        "@context": CONTEXT,
        "@type": "Claim",
        "@id": ident,
        "identifier": ident,
        "name": sentence_for(fact.predicate, fact.subject.name, fact.object.name),
        "text": best.snippet if best and best.snippet else "",
        "about": about,
        "additionalProperty": {
            "@type": "PropertyValue",
            "name": "predicate",
            "value": fact.predicate,
            "propertyID": spec.property,
        },
        "linkedAssets": linked,
        "provenance": {
            "sources": sources,
            "discoveredAt": discovered_at,
            "question": query,
            "relevance": round(fact.relevance, 3),
            "evidence": [_evidence_dump(e) for e in fact.evidence[:MAX_EVIDENCE]],
        },
        "domainTags": tags,
    }
    triplets = [
        {
            "subject": fact.subject.name,
            "predicate": fact.predicate,
            "object": fact.object.name,
            "source": sources[0] if sources else None,
            "kind": "knowledge",
        }
    ]
    triplets += [
        {"subject": cid, "predicate": "derivedFrom", "object": src, "source": src,
         "kind": "provenance"}
        for src in sources
    ]  # fmt: skip
    return asset, triplets


def entity_asset(
    end: EntityRef,
    facts: list[Fact],
    tags: list[str],
    discovered_at: str,
    located: list[Fact] | None = None,
    cited: list[Fact] | None = None,
) -> dict[str, Any]:
    """A new entity named by sources but missing from the DKG, linked from its claims.

    `located`: facts saying where it is; their places become its `location` and their
    evidence joins its own. `cited`: other facts whose evidence names it (a place that is
    only where another new entity is)."""
    located = located or []
    evidence = [
        _evidence_dump(e)
        for f in [*facts, *located, *(cited or [])] for e in f.evidence if e.kind == "text"
    ][:MAX_EVIDENCE]  # fmt: skip
    sources = list(dict.fromkeys(e["source"] for e in evidence))
    first = evidence[0]["snippet"] if evidence else ""
    linked = related_uals([*facts, *located, *(cited or [])])
    asset: dict[str, Any] = {
        "@context": CONTEXT,
        "@type": end.type,
        "@id": end.new_id,
        "identifier": end.new_id,
        "name": end.name,
        "description": f'Named in {len(sources)} source(s): "{first[:200]}"',
        "subjectOf": [
            {"@id": f"urn:kminer:claim:{fact_id(f).removeprefix('cand-')}"} for f in facts
        ],
        # Always an array (seed 001, requirement 11), empty when no DKG asset is at hand.
        "linkedAssets": linked,
        "provenance": {"sources": sources, "discoveredAt": discovered_at, "evidence": evidence},
        "domainTags": tags,
    }
    if end.aliases:
        asset["alternateName"] = sorted(set(end.aliases))
    places = list({_ref(f.object)["id"]: f.object for f in located}.values())
    if places:
        asset["location"] = [
            {"@id": _ref(p)["id"], "@type": p.type, "name": p.name} for p in places
        ]
    return asset


def related_uals(facts: list[Fact]) -> list[str]:
    """The UALs of the DKG assets these facts name (their ends and goods), once each, in order:
    a new entity's `linkedAssets` are the DKG assets its claims and whereabouts tie it to."""
    ends = (end for f in facts for end in (f.subject, f.object, *f.goods))
    return list(dict.fromkeys(end.ual for end in ends if end.ual))


def _ref(end: EntityRef) -> dict[str, str]:
    return {"id": end.ual or end.new_id or end.name, "name": end.name}


def _evidence_refs(items: list[Any]) -> list[dict[str, Any]]:
    return [{"source": e.source, "id": e.id, "snippet": e.snippet, "score": e.score} for e in items]


def contradiction_records(facts: list[Fact], created_at: str) -> dict[str, list[dict[str, Any]]]:
    """candidateId -> ContradictionRecord dicts (status flagged) for the chosen facts."""
    out: dict[str, list[dict[str, Any]]] = {}

    def record(fact: Fact, against: list[dict[str, Any]]) -> None:
        cid = fact_id(fact)
        out.setdefault(cid, []).append(
            {
                "id": f"contra-{cid.removeprefix('cand-')}-{len(out[cid]) + 1}",
                "subject": _ref(fact.subject),
                "predicate": fact.predicate,
                "object": _ref(fact.object),
                "evidence": _evidence_refs(fact.evidence),
                "confidence": 0.0,
                "contradiction_with": against,
                "status": "flagged",
                "created_at": created_at,
            }
        )

    for fact in facts:
        if fact.against:
            record(
                fact,
                [
                    {
                        "kg_fact_id": f"{st.source}#not:{fact.predicate}",
                        "evidence": _evidence_refs([evidence_item(st)]),
                        "confidence": 0.0,
                    }
                    for st in fact.against
                ],
            )
    for a in facts:
        for b in facts:
            if a is b or a.predicate != b.predicate:
                continue
            clash = (
                a.predicate in FUNCTIONAL
                and a.subject.key == b.subject.key
                and a.object.key != b.object.key
            ) or (
                a.predicate in INVERSE_FUNCTIONAL
                and a.object.key == b.object.key
                and a.subject.key != b.subject.key
            )
            if clash:
                record(
                    a,
                    [
                        {
                            "kg_fact_id": fact_id(b),
                            "evidence": _evidence_refs(b.evidence),
                            "confidence": 0.0,
                        }
                    ],
                )
    return out
