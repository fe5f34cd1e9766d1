"""Typed relations from a dependency parse: who does what to whom, in plain English.

Pure over a parsed spaCy sentence and its entity mentions (no I/O). For each verb the
rules find its subject (inherited through "agreed to supply", relative clauses and
coordinated verbs) and the entities in its object slots (direct object, "to"/"from"/
"with"/"in"/"on" phrases, the agent of a passive), then name the relation from the verb's
lemma and the slot (`VERB_RULES`), or, when the object hangs off a relational noun
("holds a stake in", "signed an offtake agreement with", "completed its acquisition of",
"banned exports of"), from that noun (`NOUN_RULES`). Appositions and possessives carry
nominal relations too ("Uranium One, a Rosatom subsidiary"; "Rio Tinto's acquisition of
Arcadium"). A negated verb yields no relation; a modal or a verb of intention marks it
hedged. Coordinated entities ("affect Ganfeng, Tianqi and CATL") each get the relation.

Where a product or commodity is the object ("banned exports of raw lithium ore") and no
entity was named, the noun phrase itself becomes a concept object for the predicates in
`CONCEPT_OBJECT_PREDICATES`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from mining.event_clauses import NOMINALS, deprivations, harmed_by_clause
from mining.mentions import Mention
from mining.noun_relations import _compounds_of, _from_nouns, _own_sites, _places_in_places
from mining.predicates import PREDICATES
from mining.relation_lexicon import (
    AFFECT_VERBS,
    CAUSE_PREPS,
    CONCEPT_OBJECT_PREDICATES,
    CONTRACT_NOUNS,
    EXPORT_NOUNS,
    INTERRUPTED_VERBS,
    KNOWN_VERBS,
    LIST_NOUNS,
    LIST_VERBS,
    PASSIVE_LOCATION_VERBS,
    PASSIVE_STATE_VERBS,
    RESTRICTING_VERBS,
)
from mining.relation_parts import (
    IMPOSING_VERBS,
    Relation,
    _emit,
    _hedged,
    _is_participle,
    _is_passive,
    _lemma,
    _list_predicate,
    _negated,
    _nominal_objects,
    _refers_back,
    _restricts_exports,
    _slots,
    _subjects,
    verb_rule,
)
from mining.sentence_view import SentenceView, modified_from, phrase_mention

# A supply read from either side: "A supplies B", "B buys from A", "B sources from A".
SUPPLY_PREDICATES = frozenset({"supplies", *PREDICATES["supplies"].inverses})
CONTRACT_PREDICATES = frozenset({"awardsContractTo", *PREDICATES["awardsContractTo"].inverses})
# "a second batch of electric buses", "the bulk of its neon": the goods are what the
# batch or the share is of.
BATCH_NOUNS = frozenset(
    "batch batches lot lots order orders fleet number set supply bulk most part majority "
    "half share portion rest all much some".split()
)


def _from_verb(sent: SentenceView, verb: Any, out: list[Relation]) -> None:
    """The verb's relations; a supply also says what is supplied, the verb's object
    ("supplies lithium hydroxide to B", "buys crude heparin from A"), and a contract
    what it is for ("awarded a contract to B for electric buses")."""
    first = len(out)
    _verb_relations(sent, verb, out)
    supplied, contracted = _goods_of(sent, verb), _contracted_for(sent, verb)
    out[first:] = [
        replace(r, goods=supplied) if supplied and r.predicate in SUPPLY_PREDICATES
        else replace(r, goods=contracted) if contracted and r.predicate in CONTRACT_PREDICATES
        else r
        for r in out[first:]
    ]  # fmt: skip


def _contracted_for(sent: SentenceView, verb: Any) -> Mention | None:
    """The goods of "for" on the verb or on its contract noun."""
    holders = [verb, *(c for c in verb.children if c.dep_ == "dobj"
                       and _lemma(c) in CONTRACT_NOUNS)]  # fmt: skip
    return _first_thing(sent, (g for h in holders for p in h.children
                               if p.dep_ == "prep" and _lemma(p) == "for"
                               for g in p.children if g.dep_ == "pobj"))  # fmt: skip


def _goods_of(sent: SentenceView, verb: Any) -> Mention | None:
    return _first_thing(sent, (c for c in verb.children if c.dep_ == "dobj"))


def _first_thing(sent: SentenceView, nouns: Iterable[Any]) -> Mention | None:
    return next((g for n in nouns if (g := _thing_at(sent, n)) is not None), None)


def _thing_at(sent: SentenceView, tok: Any) -> Mention | None:
    """The product a noun names, or its phrase when it names no entity."""
    if _lemma(tok) in BATCH_NOUNS:
        tok = next((g for p in tok.children if p.dep_ == "prep" and _lemma(p) == "of"
                    for g in p.children if g.dep_ == "pobj"), tok)  # fmt: skip
        if _lemma(tok) in BATCH_NOUNS:
            return None  # "most of it": an amount of nothing named
    named = [m for m in sent.entities_at(tok) if m.family == "product"]
    if named:
        return named[0]
    if tok.i not in sent.owner and tok.tag_ not in ("WDT", "WP", "PRP"):
        phrases = sent.concept_at(tok)
        if phrases:
            return phrases[0]
    return None


def _verb_relations(sent: SentenceView, verb: Any, out: list[Relation]) -> None:
    passive = _is_passive(verb)
    lemma = _lemma(verb)
    flags = (_negated(verb), _hedged(verb))
    subj_heads = [verb.head] if _is_participle(verb) else _subjects(sent, verb)
    slots = _slots(verb)
    if passive:
        agents = [t for slot, t in slots if slot == "agent"]
        if agents:
            # "X is supplied by Y": Y acts, X takes the object slot.
            slots = [(s, t) for s, t in slots if s != "agent"] + [("dobj", t) for t in subj_heads]
            subj_heads = agents
        elif lemma not in PASSIVE_STATE_VERBS and lemma not in PASSIVE_LOCATION_VERBS:
            return  # "concentrate is shipped to B": the shipper is not named
    subjects = [m for h in subj_heads for m in sent.entities_at(h)]
    if not subjects and any(_refers_back(h) for h in subj_heads):
        subjects = sent.antecedent(verb)
    if not subjects and lemma in AFFECT_VERBS:
        # "affected by the licensing delays": a cause no entity stands behind.
        subjects = [c for h in subj_heads if (c := sent.cause_phrase(h)) is not None]
    if subjects and lemma in INTERRUPTED_VERBS:
        _interrupted_by(sent, verb, subjects, flags, out)
    if not passive:
        # "X revoked Y's licences": Y is affected by the revocation, whoever did it.
        for holder, event, fl in deprivations(sent, verb, subjects, flags):
            out.append(Relation(holder, "affectedBy", event, *fl, "dependency", lemma))
        harmed = harmed_by_clause(sent, verb, subjects)
        if harmed is not None:
            # "suspended exports, hitting X": the suspension hit X, not its maker.
            event, heads = harmed
            for victim in (m for h in heads for m in sent.entities_at(h)):
                out.append(Relation(victim, "affectedBy", event, *flags, "dependency", lemma))
            return
    if not subjects and verb.dep_ == "relcl":
        # "SQM is a Chilean producer ... that operates in X": the producer is SQM (the
        # clause may hang off a noun inside the predicate: "producer of carbonate that").
        head = verb.head
        # By index: spaCy makes a new Token on every `.head`, so identity never ends a walk.
        for _ in range(len(sent.sent)):
            if head.dep_ not in ("pobj", "prep") or head.head.i == head.i:
                break
            head = head.head
        if head.dep_ == "attr":
            subjects = [m for c in head.head.children if c.dep_ == "nsubj"
                        for m in sent.entities_at(c)]  # fmt: skip
        elif head.dep_ == "appos":
            subjects = sent.entities_at(head.head, via_noun=False)
    if not subjects:
        return
    # A verb whose object carries a typed relation ("raised Section 301 tariffs on X")
    # needs no untyped fallback for a name inside that object.
    nominal = {
        tok.i: _nominal_objects(sent, tok, lemma)
        for _, tok in slots
        if tok.i not in sent.owner and tok.pos_ in ("NOUN", "PROPN")
    }
    typed_by_noun = any(nominal.values())
    for slot, tok in slots:
        # Objects named through a relational noun: "holds a stake in B".
        if tok.i in nominal:
            for predicate, swap, obj_tok in nominal[tok.i]:
                _emit(out, sent, subjects, predicate, swap, obj_tok, flags, f"{lemma} {tok.text}")
            if lemma in IMPOSING_VERBS and _restricts_exports(tok):
                # "introduced graphite export controls": the goods compounded into the
                # restriction.
                for goods in [*tok.children, *_compounds_of(tok)]:
                    if (goods.dep_ == "compound" and goods.i not in sent.owner
                            and _lemma(goods) not in EXPORT_NOUNS):  # fmt: skip
                        _emit(out, sent, subjects, "restrictsExportsOf", False, goods, flags,
                              f"{lemma} {tok.text}")  # fmt: skip
            if lemma in RESTRICTING_VERBS and _lemma(tok) in EXPORT_NOUNS:
                # "suspended cobalt exports": the goods compounded into the export noun.
                for goods in tok.children:
                    if goods.dep_ == "compound" and goods.i not in sent.owner:
                        _emit(out, sent, subjects, "restrictsExportsOf", False, goods, flags,
                              f"{lemma} {tok.text}")  # fmt: skip
            if lemma == "award" and _lemma(tok) in CONTRACT_NOUNS:
                for prep in tok.children:
                    if prep.dep_ == "prep" and _lemma(prep) == "to":
                        for g in prep.children:
                            _emit(out, sent, subjects, "awardsContractTo", False, g, flags, "award")
        if lemma in LIST_VERBS and slot in ("to", "on") and _lemma(tok) in LIST_NOUNS:
            predicate = _list_predicate(tok)
            listed = [t for s_, t in slots if s_ == "dobj"]
            if predicate != "regulates":
                for dobj in listed:
                    _emit(out, sent, subjects, predicate, False, dobj, flags, f"{lemma} to list")
            # Whoever is put on a named list is exposed to what the list brings.
            named_list = sent.owner.get(tok.i) or phrase_mention(
                sent.doc[modified_from(tok) : tok.i + 1], "event", "Event"
            )
            out.extend(Relation(m, "affectedBy", named_list, *flags, "dependency", "on list")
                       for d in listed for m in sent.entities_at(d))  # fmt: skip
            continue
        families = {m.family for m in sent.entities_at(tok)} or {"concept"}
        for family in sorted(families):
            rule = verb_rule(lemma, slot, family)
            if rule is None and lemma in ("award", "grant", "give") and slot in ("to", "dative"):
                rule = ("awardsContractTo", False)
            if (
                rule is None
                and passive
                and lemma in PASSIVE_LOCATION_VERBS
                and slot in ("in", "at")
            ):
                rule = ("locatedIn", False) if family == "place" else None
            if rule is None and lemma in ("win", "secure", "receive", "land") and slot == "from":
                rule = ("awardsContractTo", True)
            if (rule is None and slot == "dobj" and family != "concept" and not typed_by_noun
                    and lemma not in KNOWN_VERBS and lemma not in NOMINALS):  # fmt: skip
                # A verb joins two entities but no typed relation fits: say only that.
                rule = ("relatedTo", False)
            if rule is None:
                continue
            objects = [m for m in sent.entities_at(tok) if m.family == family]
            if family == "concept" and not objects:
                if rule[0] not in CONCEPT_OBJECT_PREDICATES:
                    continue
                objects = sent.concept_at(tok)
            for s in subjects:
                for o in objects:
                    if s.name == o.name:
                        continue
                    subj, obj = (o, s) if rule[1] else (s, o)
                    out.append(
                        Relation(subj, rule[0], obj, *flags, "dependency", f"{lemma} {slot}")
                    )


def _interrupted_by(
    sent: SentenceView, verb: Any, subjects: list[Mention], flags: tuple[bool, bool],
    out: list[Relation],
) -> None:
    """'Baltora stopped its Suez service after attacks on ships in the Red Sea': whoever
    had to stop is affected by the cause the sentence gives."""
    for prep in (c for c in verb.children if c.dep_ == "prep" and _lemma(c) in CAUSE_PREPS):
        for g in (c for c in prep.children if c.dep_ == "pobj"):
            cause = sent.entities_at(g) or [c for c in [sent.cause_phrase(g)] if c]
            out.extend(Relation(s, "affectedBy", c, *flags, "dependency", _lemma(prep))
                       for s in subjects if s.family == "organization" for c in cause
                       if c.family == "event")  # fmt: skip


# Relations only a state takes: done by "China's Ministry of Commerce", China does them.
STATE_ACTIONS = frozenset({"restrictsExportsOf", "imposesTariffsOn", "sanctions", "nationalises"})
_POSSESSIVE = frozenset({"'s ", "\u2019s "})


def _as_state_action(rel: Relation, mentions: list[Mention], text: str) -> Relation:
    """A state action by a country's own body ("India's trade directorate") is the
    country's: its subject becomes the country that owns the body."""
    if rel.predicate not in STATE_ACTIONS or rel.subject.family != "organization":
        return rel
    for m in mentions:
        if m.type == "Country" and text[m.end : rel.subject.start] in _POSSESSIVE:
            return replace(rel, subject=m)
    return rel


# Verbs by which a party says it will hand over goods ("BD will supply infusion pumps to
# hospital trusts"), whoever receives them.
DELIVERY_VERBS = frozenset({"supply", "deliver", "provide", "ship"})


def deliveries(
    sent: Any, mentions: list[Mention], before: list[Mention] | None = None
) -> list[tuple[Mention, Mention]]:
    """(party, goods) for each party the sentence says supplies or delivers something,
    asserted, the goods named by the verb's object (a product, or its phrase)."""
    state = SentenceView(sent, mentions, before or [])
    out: list[tuple[Mention, Mention]] = []
    for tok in sent:
        if tok.pos_ != "VERB" or _lemma(tok) not in DELIVERY_VERBS or _negated(tok):
            continue
        goods = _goods_of(state, tok)
        if goods is not None:
            out += [(m, goods) for h in _subjects(state, tok) for m in state.entities_at(h)]
    return out


def relations_in(
    sent: Any, mentions: list[Mention], before: list[Mention] | None = None
) -> list[Relation]:
    """Typed relations a parsed sentence states between its mentions (dependency rules).

    `before`: the mentions of the text's earlier sentences, for "it" and "the company".
    """
    state = SentenceView(sent, mentions, before or [])
    out: list[Relation] = []
    for tok in sent:
        if tok.pos_ == "VERB" or (tok.pos_ == "AUX" and tok.dep_ == "ROOT"):
            _from_verb(state, tok, out)
    _from_nouns(state, out)
    _own_sites(state, out)
    _places_in_places(state, out)
    out = [_as_state_action(r, mentions, sent.doc.text) for r in out]
    unique: dict[tuple[str, str, str], Relation] = {}
    for r in out:
        unique.setdefault((r.subject.name, r.predicate, r.object.name), r)
    return list(unique.values())
