"""What a question asks: the entities it names, the kind of thing it asks for, its parts.

Pure: spaCy's parse of the question (`mining/parsing.py`) and the DKG labels the caller
passes in. `mining/relevance_scoring.py` scores statements against these.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from mining.extraction_patterns import Gazetteer
from mining.name_runs import agent_noun
from mining.names import normalise_name
from mining.nlp import ORG_WORDS, PLACE_WORDS, Resolver, mentions_in
from mining.parsing import parse
from mining.relevance import stem


def question_entities(query: str, gazetteer: Gazetteer, resolver: Resolver) -> set[str]:
    """UALs and normalised names of the entities a question names."""
    found = mentions_in(parse(query), gazetteer, resolver)
    keys = {m.ual for m in found if m.ual}
    return keys | {normalise_name(n) for m in found for n in (m.name, m.text) if normalise_name(n)}


@lru_cache(maxsize=256)  # one question is scored again for every batch of its passages
def asked_kind(query: str) -> frozenset[str]:
    """Stems of the nouns that say what the question is about, which a source must name
    to answer it. Empty when the question has no such phrase.

    - "which ...": the kind it asks for, "potash" in "Which potash producers are affected
      by sanctions?", "container" and "shipping" in "Which container shipping lines ...".
    - "how ...": what the question asks a change of, its object with the nouns compounded
      into it, "carbon" and "footprint" in "How does refining lithium in China affect the
      carbon footprint of Australian spodumene?". A page on China's export controls says
      how China refines lithium, not what that does to a footprint.
    """
    doc = parse(query)
    # "Which exploit chain ..., who reported it, and which vendors ...": each part asks
    # for its own kind and a source answering any part is on topic, so a part that names
    # no kind ("who reported") lifts the requirement.
    parts = [t for t in doc if t.tag_ in ("WDT", "WP", "WRB")
             and (t.i == 0 or doc[t.i - 1].lower_ in ("and", ",", ";", "or"))]  # fmt: skip
    which = [t for t in doc if _asks_which(t)]
    if len(parts) > 1:
        kinds = [_which_kinds(t) if _asks_which(t) else frozenset() for t in parts]
        return frozenset() if not all(kinds) else frozenset().union(*kinds)
    if which:
        return _which_kinds(which[0])
    if _asks_how(doc):
        objects = [t for t in doc if t.dep_ == "dobj" and t.pos_ == "NOUN"]
        # The main verb's object ("affect the footprint"), not one inside its subject
        # ("refining lithium"); the parser does not always make that verb the root.
        main = [t for t in objects if t.head.dep_ == "ROOT"] or objects[-1:]
        nouns = [t for o in main for t in (o, *_modifying_nouns(o))]
        return frozenset(stem(t.text) for t in nouns)
    return frozenset()


def _asks_which(wh: Any) -> bool:
    return wh.tag_ in ("WDT", "WP") and wh.dep_ == "det" and wh.head.pos_ in ("NOUN", "PROPN")


def _which_kinds(wh: Any) -> frozenset[str]:
    """Stems of the nouns compounded into the noun "which" asks for ("potash producers").
    A small tagger reads a rare noun as a verb ("potash"/VBP); a proper name is an
    entity, which anchoring deals with."""
    head = wh.head
    return frozenset(stem(t.text) for t in head.subtree if t.i < head.i
                     and t.dep_ == "compound" and t.pos_ in ("NOUN", "VERB"))  # fmt: skip


def _asks_how(doc: Any) -> bool:
    """'How does ...', not 'How many/much/long ...' (those ask a quantity of the noun)."""
    first = doc[0] if len(doc) else None
    if first is None or first.lower_ != "how":
        return False
    return len(doc) < 2 or doc[1].tag_ not in ("JJ", "RB")


def _modifying_nouns(noun: Any) -> list[Any]:
    """The nouns compounded into `noun` before it, with their conjuncts ("coffee and
    cocoa supplies")."""
    mods = [t for t in noun.lefts if t.dep_ in ("compound", "nmod") and t.pos_ == "NOUN"]
    return [c for m in mods for c in (m, *m.conjuncts) if c.pos_ == "NOUN"]


# "..., and which", "... and who", "; ..." and ", how ..." start another question; ", which"
# alone may open a relative clause, so it does not; ", who" does unless a party stands
# before it ("Which carriers, who lease their hulls, ..."), ", what" always does.
_CLAUSE_JOIN = re.compile(
    r",?\s+and\s+(?=(?:who|what|which|where|when|how|whom|whose)\b)|;\s*"
    r"|,\s*(?=(?:how|when|where|what)\b)",
    re.IGNORECASE,
)
_COMMA_WHO = re.compile(r",\s*(?=who\b)", re.IGNORECASE)
_PARTY_ENTITIES = frozenset({"PERSON", "ORG", "NORP"})


def _names_a_party(text: str) -> bool:
    """Whether `text` ends in a word for a person or an organisation, which a ", who"
    after it may describe ("Which carriers", "the regulator", "Nordic Pulp")."""
    words = [t for t in parse(text) if not t.is_punct]
    if not words:
        return False
    last = words[-1]
    word = last.lemma_.lower()
    return last.ent_type_ in _PARTY_ENTITIES or word in ORG_WORDS or agent_noun(word)


def question_parts(query: str) -> list[str]:
    """The questions a compound question asks ("What is behind the heparin shortage, and
    which drug makers are affected?": two), or [] when it asks one. A part of one word
    ("..., and when?") belongs to the part before it."""
    parts: list[str] = []
    for piece in (p.strip(" ?") for p in _CLAUSE_JOIN.split(query)):
        for sub in _COMMA_WHO.split(piece):
            sub = sub.strip(" ?,")
            if not sub:
                continue
            if parts and len(sub.split()) < 2:
                parts[-1] = f"{parts[-1]}, and {sub}"
            elif parts and sub.lower().startswith("who") and _names_a_party(parts[-1]):
                parts[-1] = f"{parts[-1]}, {sub}"
            else:
                parts.append(sub)
    return [f"{p}?" for p in parts] if len(parts) > 1 else []


# Question words that ask for a kind of entity by themselves.
_PARTIES = frozenset({"organization", "person"})
_WH_FAMILIES = {"who": _PARTIES, "whom": _PARTIES, "where": frozenset({"place"})}
# Place words a question asks "which" of, besides those that end a place's name.
_ASKED_PLACES = frozenset({"country", "countries", "site", "region", "port", "location"})


@lru_cache(maxsize=256)
def asked_families(query: str) -> frozenset[str]:
    """The kinds of entity a question asks for, so the answer can lead with them: "who"
    an organisation or a person, "where" a place, "which suppliers" (an agent noun, or a
    word naming organisations) an organisation, "which sites" (a place word) a place.
    Empty when it asks for no kind of entity ("how far has output fallen")."""
    found: set[str] = set()
    for tok in parse(query):
        if tok.lower_ in _WH_FAMILIES and tok.tag_ in ("WP", "WRB"):
            found |= _WH_FAMILIES[tok.lower_]
        elif _asks_which(tok):
            noun = tok.head.lemma_.lower()
            if noun in PLACE_WORDS or noun in _ASKED_PLACES:
                found.add("place")
            elif noun in ORG_WORDS or agent_noun(noun):
                found.add("organization")
    return frozenset(found)
