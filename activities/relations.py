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
from dataclasses import dataclass, replace
from typing import Any

from activities.event_clauses import NOMINALS, deprivations, harmed_by_clause
from activities.nlp import Mention
from activities.relation_lexicon import (
    AFFECT_VERBS,
    CAUSE_PREPS,
    COMPANY_NOUNS,
    COMPOUND_OVERRIDES,
    CONCEPT_OBJECT_PREDICATES,
    CONTRACT_NOUNS,
    DEFINITE_REFS,
    EXPORT_NOUNS,
    HEDGE_AUX,
    HEDGE_VERBS,
    INTERRUPTED_VERBS,
    KNOWN_VERBS,
    LIST_NOUNS,
    LIST_VERBS,
    NOUN_RULES,
    OWN_VERBS,
    PASSIVE_LOCATION_VERBS,
    PASSIVE_STATE_VERBS,
    POPULATION_NOUNS,
    PRONOUNS,
    QUANTITY_NOUNS,
    REFERENT_FAMILIES,
    RESTRICTING_VERBS,
    SITE_NOUNS,
    SITE_PREPS,
    VERB_PREPS_ON_OBJECT,
    VERB_RULES,
)
from activities.sentence_view import SentenceView, modified_from, phrase_mention
from workflows.predicates import PREDICATES


@dataclass(frozen=True)
class Relation:
    subject: Mention
    predicate: str
    object: Mention
    negated: bool = False
    hedged: bool = False
    method: str = "dependency"
    cue: str = ""
    goods: Mention | None = None  # what a supply supplies


def _refers_back(tok: Any) -> bool:
    if tok.lower_ in PRONOUNS:
        return True
    return (
        tok.pos_ == "NOUN"
        and tok.lemma_.lower() in DEFINITE_REFS
        and any(c.dep_ == "det" and c.lower_ == "the" for c in tok.children)
    )


def _lemma(tok: Any) -> str:
    return tok.lemma_.lower()


def _subjects(sent: SentenceView, verb: Any, depth: int = 0) -> list[Any]:
    """Subject heads of `verb`, inherited from the governing verb where English omits them."""
    subj = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass", "csubj")]
    if subj and all(s.tag_ in ("WDT", "WP") for s in subj) and verb.dep_ == "relcl":
        head = verb.head
        if head.dep_ == "appos" and head.i not in sent.owner and head.head.i in sent.owner:
            # "Van Aalst, the Rotterdam coffee trader, which buys ...": the trader is Van
            # Aalst, not the place that describes it.
            return [head.head]
        return [head]  # "CATL, which buys ..." -> CATL
    if subj or depth > 3:
        return subj
    if verb.dep_ in ("xcomp", "conj", "advcl") and verb.head.pos_ in ("VERB", "AUX"):
        return _subjects(sent, verb.head, depth + 1)
    if verb.dep_ == "pcomp" and verb.head.dep_ == "prep" and verb.head.head.pos_ == "VERB":
        return _subjects(sent, verb.head.head, depth + 1)  # "X did A after raising B": X
    if verb.dep_ == "acl" and verb.head.pos_ in ("NOUN", "PROPN"):
        return []
    return []


def _is_passive(verb: Any) -> bool:
    return any(c.dep_ in ("nsubjpass", "auxpass") for c in verb.children) or _is_participle(verb)


def _is_participle(verb: Any) -> bool:
    """'the database maintained by JRC': a past participle modifying a noun, with an agent."""
    return (
        verb.dep_ == "acl"
        and verb.tag_ == "VBN"
        and verb.head.pos_ in ("NOUN", "PROPN")
        and any(c.dep_ == "agent" for c in verb.children)
    )


def _negated(verb: Any) -> bool:
    t = verb
    for _ in range(4):
        if any(c.dep_ == "neg" for c in t.children):
            return True
        if t.dep_ not in ("xcomp", "conj", "ccomp") or t.head is t:
            return False
        t = t.head
    return False


def _hedged(verb: Any) -> bool:
    if any(c.dep_ == "aux" and _lemma(c) in HEDGE_AUX for c in verb.children):
        return True
    if _lemma(verb) in HEDGE_VERBS:
        return True  # "Merck plans studies in X": a plan, not a study
    t = verb
    for _ in range(3):
        if t.dep_ not in ("xcomp", "ccomp") or t.head is t:
            return False
        t = t.head
        if _lemma(t) in HEDGE_VERBS:
            return True
    return False


# A small parser tags "that" in "the controls that X introduced" DT or IN as often as WDT.
RELATIVES = frozenset({"that", "which", "who", "whom"})


def _slots(verb: Any) -> list[tuple[str, Any]]:
    """(slot, head token) of a verb's objects: dobj, dative, prepositions, particles."""
    slots: list[tuple[str, Any]] = []
    for c in verb.children:
        if c.dep_ in ("dobj", "attr", "oprd"):
            objects = [c]
            if verb.dep_ == "relcl" and (c.tag_ in ("WDT", "WP") or c.lower_ in RELATIVES):
                # "the controls that MOFCOM introduced ... and the controls on gallium": the
                # relative pronoun is the noun the clause hangs on, and its conjuncts
                # (the parser hangs a coordinated noun on the noun or on the verb).
                objects = [verb.head, *(g for t in (verb.head, verb) for g in t.children
                                        if g.dep_ == "conj" and g.pos_ == "NOUN")]  # fmt: skip
            for obj in objects:
                slots.append(("dobj", obj))
                slots.extend(_object_preps(obj))
        elif c.dep_ == "dative":
            slots.append(("dative", c))
            # "supplies X to A, and to B": a coordinated "to" names another recipient.
            for prep in [c, *(g for g in c.children if g.dep_ == "conj" and g.pos_ == "ADP")]:
                slots.extend(("dative", g) for g in prep.children if g.dep_ == "pobj")
        elif c.dep_ == "prep":
            for prep in [c, *[g for g in c.children if g.dep_ == "conj" and g.dep_ != "pobj"]]:
                for g in prep.children:
                    if g.dep_ == "pobj":
                        slots.append((_lemma(prep), g))
                        slots.extend((_lemma(prep), h) for h in _population_of(g))
        elif c.dep_ == "agent":
            slots.extend(("agent", g) for g in c.children if g.dep_ == "pobj")
        elif c.dep_ == "prt":
            slots.extend((_lemma(c), g) for g in verb.children if g.dep_ == "dobj")
    return slots


def _population_of(noun: Any) -> list[Any]:
    """'patients with resected Melanoma' -> Melanoma: the condition of who is enrolled."""
    if _lemma(noun) not in POPULATION_NOUNS:
        return []
    return [g for p in _preps(noun) if _lemma(p) == "with" for g in p.children
            if g.dep_ == "pobj"]  # fmt: skip


def _object_preps(noun: Any, depth: int = 0) -> list[tuple[str, Any]]:
    """Verb-like prepositions hanging off an object ("buys all of its heparin from X")."""
    out: list[tuple[str, Any]] = []
    for prep in _preps(noun):
        lemma = _lemma(prep)
        for g in prep.children:
            if g.dep_ != "pobj":
                continue
            if lemma == "in":
                out.extend(("in", h) for h in _population_of(g))  # "tested X in patients with Y"
            if lemma in SITE_PREPS and _lemma(noun) in SITE_NOUNS and depth == 0:
                out.append((lemma, g))  # "runs a logic fab in Hsinchu": where it operates
            if lemma in VERB_PREPS_ON_OBJECT:
                out.append((lemma, g))
            elif lemma == "of" and depth < 2:
                out.extend(_object_preps(g, depth + 1))
    return out


def _preps(tok: Any) -> list[Any]:
    """Prepositions attached to `tok`, with coordinated ones ("for SQM and for Albemarle")."""
    out = []
    for c in tok.children:
        if c.dep_ == "prep":
            out.append(c)
            out.extend(g for g in c.children if g.dep_ == "conj" and g.pos_ == "ADP")
    return out


def verb_rule(lemma: str, slot: str, family: str) -> tuple[str, bool] | None:
    for lemmas, slots, predicate, swap, families in VERB_RULES:
        if lemma in lemmas and slot in slots and (not families or family in families):
            return predicate, swap
    return None


def _noun_predicate(noun: Any, prep: str, verb_lemma: str = "") -> tuple[str, bool] | None:
    lemma = _lemma(noun)
    for child in noun.children:
        if child.dep_ in ("compound", "amod"):
            override = COMPOUND_OVERRIDES.get((_lemma(child), lemma))
            if override is not None:
                return override, False
    if lemma in EXPORT_NOUNS and prep == "of" and verb_lemma in RESTRICTING_VERBS:
        return "restrictsExportsOf", False
    return NOUN_RULES.get((lemma, prep))


VERB_ATTACHED_PREPS = frozenset({"on", "against"})
REMAINDER_WORDS = frozenset({"remain", "remaining", "rest", "balance", "other"})
# Verbs that put a measure in place: "introduced / imposed / tightened export controls".
IMPOSING_VERBS = frozenset(
    "introduce impose adopt announce enact tighten extend expand apply issue".split()
)


def _restricts_exports(noun: Any) -> bool:
    """An export restriction noun: "export controls", "export ban"."""
    return any(
        c.dep_ in ("compound", "amod")
        and COMPOUND_OVERRIDES.get((_lemma(c), _lemma(noun))) == "restrictsExportsOf"
        for c in noun.children
    )


def _nominal_objects(sent: SentenceView, noun: Any, verb_lemma: str) -> list[tuple[str, bool, Any]]:
    """(predicate, swap, object head) reached through a relational noun's prepositions."""
    out = []
    preps = _preps(noun)
    if noun.dep_ == "dobj":
        # "introduced export controls on graphite": the parser often hangs the noun's
        # "on"/"against" phrase on the verb; it still says what the controls are on.
        preps += [c for c in noun.head.children
                  if c.dep_ == "prep" and _lemma(c) in VERB_ATTACHED_PREPS]  # fmt: skip
    for prep in preps:
        rule = _noun_predicate(noun, _lemma(prep), verb_lemma)
        if rule is None and verb_lemma in OWN_VERBS and _lemma(noun) in QUANTITY_NOUNS:
            rule = ("ownsStakeIn", False) if _lemma(prep) == "of" else None
        if rule is None:
            continue
        out.extend((rule[0], rule[1], g) for g in prep.children if g.dep_ == "pobj")
    if not out and verb_lemma in OWN_VERBS and _lemma(noun) in QUANTITY_NOUNS:
        out.extend(("ownsStakeIn", False, g) for g in _remainder_of(noun))
    return out


def _remainder_of(noun: Any) -> list[Any]:
    """"... owns 51% of Talison, and Albemarle holds the remaining 49%": the rest is of
    what the stake named before it in the sentence is of."""
    if not any(_lemma(c) in REMAINDER_WORDS for c in noun.children):
        return []
    for earlier in reversed(list(noun.sent[: noun.i - noun.sent.start])):
        if _lemma(earlier) in QUANTITY_NOUNS:
            of = [g for p in _preps(earlier) if _lemma(p) == "of"
                  for g in p.children if g.dep_ == "pobj"]  # fmt: skip
            if of:
                return of
    return []


def _list_predicate(list_noun: Any) -> str:
    """What putting something on a list means: export controls, sanctions, or regulation."""
    words = {_lemma(t) for t in list_noun.subtree}
    if words & {"export", "exports"}:
        return "restrictsExportsOf"
    if words & {"sanction", "sanctions", "entity", "blacklist"}:
        return "sanctions"
    return "regulates"


def _emit(
    out: list[Relation],
    sent: SentenceView,
    subjects: list[Mention],
    predicate: str,
    swap: bool,
    obj_tok: Any,
    flags: tuple[bool, bool],
    cue: str,
) -> None:
    objects = sent.entities_at(obj_tok)
    if not objects and predicate in CONCEPT_OBJECT_PREDICATES:
        objects = sent.concept_at(obj_tok)
    for s in subjects:
        for o in objects:
            if s.name == o.name or (s.start, s.end) == (o.start, o.end):
                continue
            subj, obj = (o, s) if swap else (s, o)
            out.append(Relation(subj, predicate, obj, flags[0], flags[1], "dependency", cue))


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


def _from_nouns(sent: SentenceView, out: list[Relation]) -> None:
    """Appositions and possessives: 'X, a subsidiary of Y'; "Y's acquisition of X"."""
    for tok in sent.sent:
        if tok.pos_ not in ("NOUN", "PROPN") or tok.i in sent.owner:
            continue
        _named_trial(sent, tok, out)
        holders: list[Mention] = []
        if tok.dep_ == "appos":
            holders = sent.entities_at(tok.head, via_noun=False)
        if tok.dep_ == "attr" and tok.head.lemma_ == "be":
            holders += [
                m for c in tok.head.children if c.dep_ == "nsubj" for m in sent.entities_at(c)
            ]
        described = list(holders)  # what the noun says is, not whose it is
        holders += [m for c in tok.children if c.dep_ == "poss" for m in sent.entities_at(c)]
        if not holders:
            continue
        for predicate, swap, obj_tok in _nominal_objects(sent, tok, ""):
            _emit(out, sent, holders, predicate, swap, obj_tok, (False, False), tok.text)
        # "Cryon, a neon purifier": an agent noun's compound names what it makes.
        if NOUN_RULES.get((_lemma(tok), "of")) == ("produces", False):
            for c in tok.children:
                if c.dep_ == "compound" and c.i not in sent.owner and c.pos_ == "NOUN":
                    _emit(out, sent, holders, "produces", False, c, (False, False), tok.text)
        # "Van Aalst, the Rotterdam coffee trader" / "Halvorsen, a roaster in Oslo" /
        # "COP30 is a summit in Belém": a place describing what an organisation or an
        # event is says where it is.
        if tok.dep_ in ("appos", "attr"):
            # A name the small NER took for a person is a company when the noun describing
            # it is a company's ("Halvorsen Kaffe, a family-owned roaster in Oslo").
            kinds = {"organization", "event"} | ({"person"} if _lemma(tok) in COMPANY_NOUNS
                                                 else set())  # fmt: skip
            orgs = [h for h in described if h.family in kinds]
            for c in [*tok.children, *_compounds_of(tok)]:
                at = c
                if c.dep_ == "prep" and c.lower_ in ("in", "at"):
                    at = next((g for g in c.children if g.dep_ == "pobj"), c)
                elif c.dep_ not in MODIFIER_DEPS:
                    continue
                place = sent.owner.get(at.i)
                if place is not None and place.family == "place":
                    _emit(out, sent, orgs, "locatedIn", False, at, (False, False), tok.text)
        # "Uranium One Group, a Rosatom subsidiary": the compound names the other end.
        rule = NOUN_RULES.get((_lemma(tok), "of"))
        if rule is not None and tok.dep_ == "appos":
            for c in tok.children:
                if c.dep_ in ("compound", "poss") and c.i in sent.owner:
                    _emit(out, sent, holders, rule[0], rule[1], c, (False, False), tok.text)


# How a small parser attaches a name modifying a noun ("Zimbabwe" in "the Zimbabwe
# coffee trader" comes out as any of these).
MODIFIER_DEPS = frozenset({"compound", "amod", "nmod"})


def _places_in_places(sent: SentenceView, out: list[Relation]) -> None:
    """'a plant in Kundl, Austria': a place set off by a comma after another place is
    where that place is. A list ("Kundl, Linz and Graz") coordinates, it does not set off."""
    for tok in sent.sent:
        if tok.dep_ != "appos" or tok.i not in sent.owner or tok.head.i not in sent.owner:
            continue
        inner, outer = sent.owner[tok.head.i], sent.owner[tok.i]
        if inner.family == outer.family == "place" and inner.name != outer.name:
            out.append(Relation(inner, "locatedIn", outer, cue=", "))


def _compounds_of(tok: Any) -> list[Any]:
    """Compounds of a noun's compounds: "Rotterdam" in "the Rotterdam coffee trader"."""
    return [g for c in tok.children if c.dep_ == "compound"
            for g in c.subtree if g.i != c.i and g.dep_ in MODIFIER_DEPS]  # fmt: skip


def _named_trial(sent: SentenceView, tok: Any, out: list[Relation]) -> None:
    """'the Clarity AD trial of Lecanemab in Alzheimer's disease': a trial noun named by a
    study studies what its "of", "in" and "with" phrases name."""
    if REFERENT_FAMILIES.get(_lemma(tok)) is None:
        return
    studies = [m for c in tok.children if c.dep_ == "compound" and c.i in sent.owner
               for m in [sent.owner[c.i]] if m.family == "medicalstudy"]  # fmt: skip
    if not studies:
        return
    for prep in _preps(tok):
        if _lemma(prep) not in ("of", "in", "with"):
            continue
        for g in prep.children:
            if g.dep_ != "pobj":
                continue
            for target in [g, *_population_of(g)]:
                for o in sent.entities_at(target):
                    if o.family in ("drug", "product", "medicalcondition"):
                        out.extend(Relation(st, "studies", o, cue=tok.text) for st in studies)


OWNER_PRONOUNS = frozenset({"its", "their"})
NOMINAL_DEPS = frozenset({"dobj", "pobj", "nsubj", "nsubjpass", "attr", "appos", "compound"})


def _owner_word(tok: Any) -> bool:
    """'its' / 'their', or 'the company's': an owner named before."""
    return tok.lower_ in OWNER_PRONOUNS or (
        _lemma(tok) in DEFINITE_REFS and any(d.lower_ == "the" for d in tok.children)
    )


def _own_sites(sent: SentenceView, out: list[Relation]) -> None:
    """'Liontown supplies concentrate from its Kathleen Valley mine': an organisation
    operates the site it calls its own."""
    for tok in sent.sent:
        if tok.pos_ not in ("NOUN", "PROPN"):
            continue
        if not any(c.dep_ == "poss" and _owner_word(c) for c in tok.children):
            continue
        sites = [m for m in sent.entities_at(tok) if m.family == "place"]
        if tok.i not in sent.owner and _lemma(tok) in SITE_NOUNS:
            # "its plant in Gothenburg": where its own site is, it operates.
            sites += [m for p in tok.children if p.dep_ == "prep" and _lemma(p) in SITE_PREPS
                      for g in p.children if g.dep_ == "pobj"
                      for m in sent.entities_at(g) if m.family == "place"]  # fmt: skip
        verb = tok.head
        # The clause's verb ("concentrate" mis-tagged a verb in an object's place is not).
        for _ in range(len(sent.sent)):  # bounded, by index (see above)
            if verb.head.i == verb.i or (
                verb.pos_ in ("VERB", "AUX") and verb.dep_ not in NOMINAL_DEPS
            ):
                break
            verb = verb.head
        found = [m for h in _subjects(sent, verb) for m in sent.entities_at(h)]
        owners = [m for m in found if m.family == "organization"] or [
            m for m in sent.antecedent(tok) if m.family == "organization"
        ]
        if tok.dep_ == "pobj" and _lemma(tok.head) == "for":
            # "Cryon sells neon to Hanbit for its fab": what is bought for its own site is
            # the buyer's.
            buyers = [m for p in verb.children if p.dep_ in ("dative", "prep")
                      and _lemma(p) == "to" for g in p.children if g.dep_ == "pobj"
                      for m in sent.entities_at(g) if m.family == "organization"]  # fmt: skip
            owners = buyers or owners
        out.extend(Relation(o, "operatesIn", site, cue=f"its {tok.text}")
                   for o in owners for site in sites)  # fmt: skip


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
