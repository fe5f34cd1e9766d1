"""A common noun that a participle gives a name is that name.

English names a thing it first describes: "the backdoor, known as SUNBURST, was compiled
into ...", "a shipping consortium called Nordlink Freight bought ...". The parser hangs
the name under the naming participle (the object of "as", or the participle's object
predicate), so the clause the noun is the subject or object of never reaches the name,
and what the sentence says of the thing is said of no entity. The name is hung on the
noun as its apposition, the way "the backdoor, SUNBURST, ..." is parsed, and the
relation readers treat an apposition as the noun it renames.

Only a common noun is renamed: between two names ("the International Cocoa
Organization, known as ICCO") the two are one entity, which `mining/aliases.py` reads.
The naming verbs are closed-class English (`aliases.NAMING_VERBS`), of no domain.

A relative clause that names ("the malware, which CrowdStrike named SUNSPOT, ...") is
left as parsed: its own relation (CrowdStrike named SUNSPOT) is read from it there, and
moving the name would lose it.
"""

from __future__ import annotations

from typing import Any

from mining.aliases import NAMING_VERBS
from mining.parse_paths import first_conjunct
from mining.reparse import rebuilt, row_of

# How a naming participle hangs on the noun it names ("known as", "called").
NAMING_CLAUSE_DEPS = frozenset({"acl"})
# How the name hangs on the naming verb, directly ("called X", "named X").
NAME_DEPS = frozenset({"oprd", "dobj", "attr"})
NAME_POS = frozenset({"PROPN"})


def _is_name(tok: Any) -> bool:
    """A proper noun, or a capitalised word the entity recogniser took for a name (the
    small tagger reads an unknown name as a common noun: "called Tramwise"/NN)."""
    return tok.pos_ in NAME_POS or (bool(tok.ent_type_) and tok.text[:1].isupper())


def _naming_verb(name: Any) -> Any | None:
    """The naming verb `name` is the name given by: "named X", "called X", "known as X"."""
    verb = name.head
    if name.dep_ == "pobj" and verb.lower_ == "as" and verb.dep_ == "prep":
        verb = verb.head
    elif name.dep_ not in NAME_DEPS:
        return None
    if verb.i == name.i or verb.pos_ != "VERB" or verb.lemma_.lower() not in NAMING_VERBS:
        return None
    return verb


def _named_noun(verb: Any) -> Any | None:
    """The common noun whose participle `verb` is (through the participles it is
    coordinated with: "a drug developed in Basel and called Y")."""
    clause = first_conjunct(verb)
    if clause.dep_ not in NAMING_CLAUSE_DEPS:
        return None
    noun = clause.head
    return noun if noun.pos_ == "NOUN" else None


def clause_name(noun: Any) -> Any | None:
    """The name a relative clause gives the common noun `noun` ("That malware, which
    CrowdStrike analysed and named SUNSPOT"): that clause keeps its own relation, so the
    name is read here, for what a later "it" refers to."""
    for clause in noun.children:
        if clause.dep_ != "relcl":
            continue
        for verb in [clause, *clause.conjuncts]:
            for name in verb.children:
                if _is_name(name) and _naming_verb(name) is not None:
                    return name
    return None


def name_moves(doc: Any) -> dict[int, int]:
    """{name token: the common noun it names} for every named noun of `doc`."""
    moves: dict[int, int] = {}
    for tok in doc:
        if not _is_name(tok):
            continue
        verb = _naming_verb(tok)
        noun = _named_noun(verb) if verb is not None else None
        if noun is not None:
            moves[tok.i] = noun.i
    return moves


def names_given(doc: Any) -> Any:
    """`doc` with every name a naming clause gives a common noun hung on that noun."""
    moves = name_moves(doc)
    return rebuilt(doc, {n: row_of(doc[n], noun, "appos") for n, noun in moves.items()})


__all__ = ["clause_name", "name_moves", "names_given"]
