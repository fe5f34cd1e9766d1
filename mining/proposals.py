"""Statements -> the rows of candidate Knowledge Assets a run proposes (mining/facts.py
groups and ranks the facts, mining/claims.py writes their JSON-LD).

The DKG is any object with the reads below (the embedded store, the remote node, a test
double), and relevance of a bare text is a callable, so this stays free of I/O of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from contracts.tools import ProposeArgs
from mining.bridges import after_near, bridging
from mining.claims import claim_asset, contradiction_records, entity_asset, fact_id
from mining.entities import EntityRef, EntityResolver
from mining.evidence import DkgCorroborator
from mining.facts import (
    CORROBORATED_PER_CANDIDATE,
    Fact,
    asked_ends_first,
    by_relevance,
    companions,
    group_facts,
    near_best,
    rank,
    select,
    whereabouts,
)
from mining.nlp import gazetteer_digest
from mining.place_readings import without_place_misreads
from mining.relevance import RELEVANCE_FLOOR

RelevanceOf = Callable[[str, str], float]


class ProposalDkg(Protocol):
    """What proposing reads of the DKG (`concerning` and `places_of` are optional)."""

    def gazetteer(self) -> Any: ...

    def find_duplicates(self, asset: dict[str, Any]) -> list[Any]: ...


def propose(
    args: ProposeArgs, dkg: ProposalDkg, relevance_of: RelevanceOf, discovered_at: str
) -> list[dict[str, Any]]:
    """One row a candidate: the top facts as claims, then the new entities they use."""
    gazetteer = dkg.gazetteer()
    digest = gazetteer_digest(gazetteer)  # digested once for the resolver and corroborator
    resolver = EntityResolver(
        gazetteer,
        args.links,
        getattr(dkg, "concerning", None),
        getattr(dkg, "places_of", None),
        digest,
    )
    for st in args.statements:
        # A statement a model wrote itself (same contract, no score yet) is scored here;
        # one without its source sentence has no evidence and stays at 0.
        if not st.relevance and st.sentence.strip():
            st.relevance = relevance_of(args.query, st.sentence)
    usable = [
        s for s in args.statements
        if s.relevance >= RELEVANCE_FLOOR and not s.hedged and s.predicate
    ]  # fmt: skip
    # A new name other relevant facts read as a place is no customer or parent
    # (`mining/place_readings.py`).
    grouped = without_place_misreads(group_facts(usable, resolver))
    near = near_best(grouped, args.maxCandidates)
    # Typed facts beyond the margin that tie together what the near facts name
    # (`mining/bridges.py`): they compete for typed room only after those.
    bridges = bridging(near, grouped, args.query)
    near = by_relevance(near + bridges)
    near = asked_ends_first(near, args.query)
    near = near[: CORROBORATED_PER_CANDIDATE * args.maxCandidates]
    corroborator = DkgCorroborator(dkg, gazetteer, relevance_of, digest)
    for fact in near:
        found = corroborator.corroborate(
            fact.predicate,
            (fact.subject.ual, fact.subject.name),
            (fact.object.ual, fact.object.name),
            args.query,
        )
        fact.known_in = found.known_in
        for item in found.evidence:
            if not any(e.source == item.source for e in fact.evidence):
                fact.evidence.append(item)
    chosen = select(after_near(rank(near, args.query), bridges), args.maxCandidates)
    chosen += companions(chosen, grouped, args.maxCandidates)
    rows: list[dict[str, Any]] = []
    records = contradiction_records(chosen, discovered_at)
    entities: dict[str, EntityRef] = {}
    for fact in chosen:
        asset, triplets = claim_asset(fact, args.domainTags, args.query, discovered_at)
        rows.append(
            {
                "candidateId": fact_id(fact),
                "kind": "claim",
                "asset": asset,
                "triplets": triplets,
                "knownInDkg": fact.known_in,
                "contradictions": records.get(fact_id(fact), []),
            }
        )
        for end in (fact.subject, fact.object, *fact.goods):
            if end.new_id:
                entities.setdefault(end.new_id, end)
    # Where each new entity is, and where that place is in turn ("a plant in Kundl,
    # Austria": the works are in Kundl, Kundl is in Austria), each place once.
    located: dict[str, list[Fact]] = {}
    pending = list(entities.items())
    while pending:
        key, end = pending.pop(0)
        located[key] = whereabouts(end, grouped)
        for fact in located[key]:
            if fact.object.new_id and fact.object.new_id not in entities:
                entities[fact.object.new_id] = fact.object
                pending.append((fact.object.new_id, fact.object))
    for key, end in entities.items():
        mentions = [
            f for f in chosen
            if end.new_id in (f.subject.new_id, f.object.new_id, *(g.new_id for g in f.goods))
        ]  # fmt: skip
        places = located.get(key, [])
        # A place proposed only as where a new entity is: its evidence is that fact.
        where = [f for fs in located.values() for f in fs if f.object.new_id == end.new_id]
        asset = entity_asset(end, mentions, args.domainTags, discovered_at, places, where)
        duplicates = dkg.find_duplicates(asset)
        rows.append(
            {
                "candidateId": "cand-" + asset["identifier"].rsplit("-", 1)[-1],
                "kind": "entity",
                "asset": asset,
                "triplets": [],
                "knownInDkg": [d.ual for d in duplicates],
                "contradictions": [],
            }
        )
    return rows
