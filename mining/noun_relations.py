"""Relations that nouns state: appositions and possessives ("X, a subsidiary of Y";
"Y's acquisition of X"), named trials, places set off by a comma, and the sites an
organisation calls its own. Pure over a parsed sentence (see mining/relations.py)."""

from __future__ import annotations

from typing import Any

from mining.mentions import Mention
from mining.relation_lexicon import (
    COMPANY_NOUNS,
    DEFINITE_REFS,
    NOUN_RULES,
    REFERENT_FAMILIES,
    SITE_NOUNS,
    SITE_PREPS,
)
from mining.relation_parts import (
    Relation,
    _emit,
    _lemma,
    _nominal_objects,
    _population_of,
    _preps,
    _subjects,
)
from mining.sentence_view import SentenceView


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
        # By index and bounded: spaCy makes a new Token on every `.head`, so `verb.head is
        # not verb` never ends the walk at the root ("Alpine Linux had 5.6.1 only in its
        # edge branch" looped forever).
        for _ in range(len(sent.sent)):
            if verb.head.i == verb.i or (
                verb.pos_ in ("VERB", "AUX") and verb.dep_ not in NOMINAL_DEPS
            ):
                break
            verb = verb.head
        # A subject phrase holding the possessive is not what "its" stands for: in "its
        # Kansanshi mine near Solwezi and its Sentinel mine had run", the mines are not
        # their own owners, nor is the town one of them lies near.
        found = [m for h in _subjects(sent, verb)
                 if not h.left_edge.i <= tok.i <= h.right_edge.i
                 for m in sent.entities_at(h)]  # fmt: skip
        owners = [m for m in found if m.family == "organization"] or sent.antecedent(
            tok, lambda m: m.family == "organization"
        )
        if tok.dep_ == "pobj" and _lemma(tok.head) == "for":
            # "Cryon sells neon to Hanbit for its fab": what is bought for its own site is
            # the buyer's.
            buyers = [m for p in verb.children if p.dep_ in ("dative", "prep")
                      and _lemma(p) == "to" for g in p.children if g.dep_ == "pobj"
                      for m in sent.entities_at(g) if m.family == "organization"]  # fmt: skip
            owners = buyers or owners
        out.extend(Relation(o, "operatesIn", site, cue=f"its {tok.text}")
                   for o in owners for site in sites)  # fmt: skip
