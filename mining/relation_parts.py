"""The parts of a clause the relation rules read (mining/relations.py, verbs;
mining/noun_relations.py, nouns): a verb's subjects, object slots, negation and hedging,
the relational nouns its objects hang off, and `Relation`, what the rules emit.

Pure over a parsed spaCy sentence (no I/O). The underscored helpers are the package's
own: shared by the two rule modules, not meant for callers outside mining/.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mining.mentions import Mention
from mining.references import apposed_it
from mining.relation_lexicon import (
    COMPOUND_OVERRIDES,
    CONCEPT_OBJECT_PREDICATES,
    DEFINITE_REFS,
    EXPORT_NOUNS,
    HEDGE_AUX,
    HEDGE_VERBS,
    NOUN_RULES,
    OWN_VERBS,
    POPULATION_NOUNS,
    PRONOUNS,
    QUANTITY_NOUNS,
    RESTRICTING_VERBS,
    SITE_NOUNS,
    SITE_PREPS,
    VERB_PREPS_ON_OBJECT,
    VERB_RULES,
)
from mining.sentence_view import SentenceView


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
    # "made exports of X subject to licences": beside an object, the object predicate says
    # what the object was made into, not a second thing the verb acts on.
    has_object = any(c.dep_ == "dobj" for c in verb.children)
    for c in verb.children:
        if c.dep_ == "oprd" and has_object:
            continue
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
    if (noun := apposed_it(obj_tok)) is not None:  # "Y, the only producer of it"
        # The noun's own phrase only: what the parser coordinated with it may be Y itself.
        objects = [sent.owner[noun.i]] if noun.i in sent.owner else []
        if not objects and predicate in CONCEPT_OBJECT_PREDICATES:
            objects = sent.concept_of(noun)
    elif not objects and predicate in CONCEPT_OBJECT_PREDICATES:
        objects = sent.concept_at(obj_tok)
    for s in subjects:
        for o in objects:
            if s.name == o.name or (s.start, s.end) == (o.start, o.end):
                continue
            subj, obj = (o, s) if swap else (s, o)
            out.append(Relation(subj, predicate, obj, flags[0], flags[1], "dependency", cue))
