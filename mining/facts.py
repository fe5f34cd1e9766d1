"""Statements -> candidate Knowledge Assets: one claim per fact, new entities beside them.

1. Only statements relevant to the question (relevance floor), asserted (not negated, not
   hedged) and typed by a known relation are proposed.
2. Both ends are resolved against the DKG (`mining/entities.py`): a link found by the
   resolver agent, the extractor's UAL, or a DKG label or alias; an unresolved proper name
   of an organisation, place, product or event becomes a new entity (short and long forms
   of one new name merged).
3. The same fact from several passages or sources is ONE candidate carrying every
   evidence item (seed 002 `EvidenceItem`); the DKG's own assets add evidence or show the
   fact is already stated there (`mining/evidence.py`).
4. A source that states the opposite (a negated statement of the same fact), or two
   candidates that cannot both hold (one subsidiary, two parents), give a
   `ContradictionRecord` (seed 002), flagged for the reviewer.
5. Facts within `RELEVANCE_MARGIN` of the question's most relevant fact are checked
   against the DKG, then ranked: typed relations, then facts the DKG does not already
   state, then facts about actors before where one place lies (unless the question asks
   where), then relevance, then independent sources. The top `maxCandidates` become
   `schema:Claim` assets (`mining/claims.py`), with what else their own sentences
   state about their subjects while room is left (`companions`); each new entity they
   use becomes a candidate asset of its own: their ends, the goods a supply or contract names
   (`dkg:goods`), and the places relevant facts put a new organisation or place in (its
   `location`, see `whereabouts`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from contracts.tools import EvidenceItem, Statement
from mining.entities import EntityRef, EntityResolver, merge_aliases, new_entity_id
from mining.predicates import PREDICATES, RELATED_TO, canonical, is_open, is_typed
from mining.relations import STATE_ACTIONS
from mining.relevance import content_words


@dataclass
class Fact:
    predicate: str
    subject: EntityRef
    object: EntityRef
    statements: list[Statement] = field(default_factory=list)
    evidence: list[EvidenceItem] = field(default_factory=list)
    known_in: list[str] = field(default_factory=list)
    against: list[Statement] = field(default_factory=list)
    goods: list[EntityRef] = field(default_factory=list)  # what is supplied or contracted

    @property
    def key(self) -> tuple[str, str, str]:
        return canonical(self.predicate, self.subject.key, self.object.key)

    @property
    def relevance(self) -> float:
        return max((e.score for e in self.evidence), default=0.0)

    @property
    def independent_sources(self) -> int:
        return len({e.source for e in self.evidence})


def _as_product(ref: EntityRef, predicate: str) -> EntityRef:
    """A thing named by a phrase where a relation expects goods ("banned exports of raw
    lithium ore") is a product; one the DKG lacks is proposed as a new Product."""
    spec = PREDICATES.get(predicate)
    if ref.ual or ref.new_id or ref.family != "concept" or spec is None:
        return ref
    if "product" not in spec.object_kinds:
        return ref
    return EntityRef(ref.name, "Product", new_id=new_entity_id(ref.name, "product"))


def evidence_item(st: Statement) -> EvidenceItem:
    """A statement's provenance as seed 002's EvidenceItem: the passage, or char offsets."""
    ref = st.passageId
    if ref is None and st.start is not None:
        ref = f"{st.source}#char={st.start},{st.end}"
    return EvidenceItem(
        source=st.source,
        id=ref,
        snippet=st.sentence,
        score=st.relevance,
        published=st.published,
        title=st.sourceTitle,
        tier=st.tier,
        kind="dkg-text" if st.source.startswith("did:dkg:") else "text",
    )


def group_facts(statements: list[Statement], resolver: EntityResolver) -> list[Fact]:
    """One Fact per (subject, relation, object), evidence deduplicated by source sentence."""
    refs: list[tuple[Statement, EntityRef, EntityRef]] = []
    for st in statements:
        subj = resolver.ref(st.subject, st.subjectType, st.subjectUal, st.objectUal)
        if st.predicate in STATE_ACTIONS:
            subj = resolver.state_of(subj) or subj
        obj = resolver.ref(st.object, st.objectType, st.objectUal, subj.ual)
        obj = _as_product(obj, st.predicate)
        refs.append((st, subj, obj))
    # One new entity written short here and long there is one entity.
    names = [(r.name, r.family) for _, s, o in refs for r in (s, o) if r.new_id]
    canonical_name = merge_aliases(names)
    for _, s, o in refs:
        for r in (s, o):
            if r.new_id and canonical_name.get(r.name, r.name) != r.name:
                r.aliases.append(r.name)
                r.name = canonical_name[r.name]
                r.new_id = new_entity_id(r.name, r.family)
    facts: dict[tuple[str, str, str], Fact] = {}
    for st, subj, obj in refs:
        if subj.key == obj.key:
            continue
        fact = Fact(st.predicate, subj, obj)
        fact = facts.setdefault(fact.key, fact)
        # What the source called a DKG asset known by another label ("HSE").
        for end, named, said in ((fact.subject, st.subject, st.subjectText),
                                 (fact.object, st.object, st.objectText)):  # fmt: skip
            for alias in (named, said):
                if alias and alias != end.name and alias not in end.aliases:
                    end.aliases.append(alias)
        if st.negated:
            fact.against.append(st)
            continue
        fact.statements.append(st)
        if st.goods:
            # A product the DKG lacks is proposed as a new Product, like any goods.
            goods = _as_product(resolver.ref(st.goods, st.goodsType, st.goodsUal), "produces")
            if all(g.key != goods.key for g in fact.goods):
                fact.goods.append(goods)
        for r, end in ((subj, fact.subject), (obj, fact.object)):
            for alias in r.aliases:
                if alias not in end.aliases and alias != end.name:
                    end.aliases.append(alias)
        item = evidence_item(st)
        if not any(e.source == item.source and e.snippet == item.snippet for e in fact.evidence):
            fact.evidence.append(item)
    return [f for f in facts.values() if f.statements]


# Facts more than this below the question's most relevant fact are left out: the floor says
# what is on topic at all, the margin what answers this question rather than a neighbour
# of it. Chosen by F1 on the demo set with bench/quality_funnel.py (0.15, 0.18, 0.2, 0.25:
# F1 0.590, 0.607, 0.604, 0.591 once event clauses were read), the held-out set agreeing.
RELEVANCE_MARGIN = 0.18
# How many facts within the margin are checked against the DKG, per candidate asked for.
CORROBORATED_PER_CANDIDATE = 3


def by_relevance(facts: list[Fact]) -> list[Fact]:
    """Most relevant first; ties in a fixed order (by key), so a run replays the same."""
    return sorted(facts, key=lambda f: (-f.relevance, "|".join(f.key)))


def near_best(facts: list[Fact], room: int = 0) -> list[Fact]:
    """The facts within `RELEVANCE_MARGIN` of the most relevant one of their kind (typed
    relations, relations in their source's own words), most relevant first; while fewer
    than `room` relations in their own words, the next most relevant of them too (all
    are above the floor).

    A relation named by a whole sentence's words matches a question closer than a typed
    relation's plain description does, so each kind is measured against its own best; and
    one outstanding fact must not crowd out the rest of what a question asks ("which
    factories were flooded, who insures them and when do they restart")."""
    kept: list[Fact] = []
    for typed in (True, False):
        ordered = by_relevance([f for f in facts if is_typed(f.predicate) == typed])
        best = ordered[0].relevance if ordered else 0.0
        near = [f for f in ordered if f.relevance >= best - RELEVANCE_MARGIN]
        # The margin was calibrated on typed facts (F1 on the labeled sets); relations
        # in their own words fill the room it leaves.
        # ... spread over subjects and sentences, as the claims are (`spread`): one entity
        # or one sentence read many ways does not fill the room alone.
        kept += near if typed or len(near) >= room else spread(ordered)[:room]
    return by_relevance(kept)


def asked_ends_first(facts: list[Fact], query: str) -> list[Fact]:
    """Where the question names the very things it asks about ("export controls on gallium
    and germanium"), a fact of the same subject and relation about something the question
    never mentions is not an answer: among facts sharing subject and relation, when one
    end is named whole in the question, those whose end of that kind shares no word
    with the question go.

    A question naming a category ("battery raw materials") names no end whole, and
    keeps every fact."""
    asked = content_words(query)

    def words(end: EntityRef) -> set[str]:
        return content_words(end.name)

    groups: dict[tuple[str, str], list[Fact]] = {}
    for f in facts:
        groups.setdefault((f.subject.key, f.predicate), []).append(f)
    dropped: set[int] = set()
    for group in groups.values():
        named = {f.object.family for f in group if words(f.object) and words(f.object) <= asked}
        # Only an end of the kind the question named goes ("which drugs do the obesity
        # trials test?" names a condition, not the drugs).
        dropped.update(
            id(f) for f in group if f.object.family in named and not words(f.object) & asked
        )
    return [f for f in facts if id(f) not in dropped]


# Where a new entity is (its own asset's `location`), from the relevant statements.
LOCATION_PREDICATES = frozenset({"locatedIn", "operatesIn"})
MAX_LOCATIONS = 3


def whereabouts(end: EntityRef, facts: list[Fact]) -> list[Fact]:
    """The relevant facts saying where a new organisation or place is ("Tirol Penicillin
    Works operates a plant in Kundl"): its asset names the places, so a reviewer sees
    where it is, and a new place becomes a candidate entity of its own. Best first."""
    if end.family not in ("organization", "place"):
        return []
    found = [
        f for f in facts
        if f.predicate in LOCATION_PREDICATES and f.subject.key == end.key
        and f.object.family == "place"
    ]  # fmt: skip
    return by_relevance(found)[:MAX_LOCATIONS]


def rank(facts: list[Fact], query: str = "") -> list[Fact]:
    """Typed relations first; new knowledge before facts the DKG already states (those are
    duplicates: cited in the answer, never published again, so they only take a slot a
    new fact could have); where one place lies after facts about who does what, unless
    the question asks where; what a speaker said of a party after what is stated; then
    relevance, then independent sources."""
    asks_where = bool(WHERE.search(query))

    def key(f: Fact) -> tuple[int, int, int, int, float, int, str]:
        background = not asks_where and is_geography(f)
        return (0 if is_typed(f.predicate) else 1, 1 if f.known_in else 0, int(background),
                int(is_reported(f)), -round(f.relevance, 2), -f.independent_sources,
                "|".join(f.key))  # fmt: skip

    return sorted(facts, key=key)


WHERE = re.compile(r"\bwhere\b", re.IGNORECASE)


def is_reported(fact: Fact) -> bool:
    """Only what a speaker said of a party ("X warned that Y had ..."): weaker than a
    relation a sentence states, so it comes after those of its relevance."""
    return bool(fact.statements) and all(st.method == "reported" for st in fact.statements)


def is_geography(fact: Fact) -> bool:
    """'Odesa is located in Ukraine': a place within a place, background to a question
    about suppliers or exposure (it still answers one that asks where)."""
    return fact.predicate == "locatedIn" and fact.subject.family == fact.object.family == "place"


def companions(chosen: list[Fact], facts: list[Fact], limit: int) -> list[Fact]:
    """What else the chosen facts' own sentences state about their subjects, while room is
    left: a sentence that answers the question also says where or how its actor does it
    ("Liontown supplies concentrate to Tesla from its new Kathleen Valley mine": it runs
    that mine). Relevant facts the DKG does not state yet, most relevant first; typed
    ones within the typed share of the room (`select`)."""
    taken = {f.key for f in chosen}
    said = {(st.sentence, f.subject.key) for f in chosen for st in f.statements}
    typed_room = max(1, limit // 2) - sum(is_typed(f.predicate) for f in chosen)
    out: list[Fact] = []
    for f in by_relevance(facts):
        if len(chosen) + len(out) >= limit:
            break
        if f.key in taken or f.known_in or not (is_typed(f.predicate) or is_open(f.predicate)):
            continue
        if is_typed(f.predicate) and typed_room <= 0:
            continue
        if any((st.sentence, f.subject.key) in said for st in f.statements):
            out.append(f)
            taken.add(f.key)
            typed_room -= is_typed(f.predicate)
    return out


def spread(ranked: list[Fact]) -> list[Fact]:
    """The facts in rounds over their subjects and their sentences: every subject's and
    every sentence's best fact, then their second, and so on, each round in rank order.
    One entity described at length ("the storm stalled over ..., drew from ..., poured
    into ...") or one sentence read many ways ("Washington and Brussels carved potash
    out of their sanctions on Russia") must not take the room the other actors of the
    question need."""
    subjects: dict[str, int] = {}
    sentences: dict[str, int] = {}
    rounds: list[int] = []
    for f in ranked:
        subjects[f.subject.key] = subjects.get(f.subject.key, -1) + 1
        said = f.statements[0].sentence if f.statements else ""
        if said:
            sentences[said] = sentences.get(said, -1) + 1
        # A malformed relation waits for every well-formed one (`is_malformed`).
        malformed = len(ranked) if is_malformed(f.predicate) else 0
        rounds.append(max(subjects[f.subject.key], sentences.get(said, 0)) + malformed)
    order = sorted(range(len(ranked)), key=lambda n: (rounds[n], n))
    return [ranked[n] for n in order]


def is_malformed(predicate: str) -> bool:
    """A relation in its source's own words is a verb with its particles and nouns
    ("took in the fix", "shipped the fix"); one holding a number took a version or a
    figure that belongs to an end ("ship in 115.2.2"), and one whose word comes twice
    running joined two attachments as one ("take in in"): a misreading, not a relation."""
    words = predicate.split()
    if any(ch.isdigit() for ch in predicate):
        return True
    return any(a == b for a, b in zip(words, words[1:], strict=False))


def select(ranked: list[Fact], limit: int) -> list[Fact]:
    """The top `limit` facts: typed relations (at most half of it, the share the typed
    vocabulary had before open relations came), then relations named by their own words;
    `relatedTo` only for leftover room, at most a fifth of it."""
    typed = [f for f in ranked if is_typed(f.predicate)][: max(1, limit // 2)]
    named = spread([f for f in ranked if is_open(f.predicate)])[: limit - len(typed)]
    room = min(limit - len(typed) - len(named), max(1, limit // 5))
    generic = [f for f in ranked if f.predicate == RELATED_TO][: max(0, room)]
    return typed + named + generic


__all__ = ["Fact", "by_relevance", "evidence_item", "group_facts", "near_best", "rank"]
