"""A name that acts on a thing through a relative clause, and what the thing then does.

"The ferries that Stena Line retired now sail for Baltic Seaways": Stena Line is the
subject of a clause ("that Stena Line retired") that describes the main clause's subject
("the ferries"), so what the main clause says of the ferries it says through them of
Stena Line: Stena Line, "retire ferry sail for", Baltic Seaways. English puts the thing
first and its actor inside the clause; without this reading the name looks like a word
inside the subject phrase and no relation leaves it. Only an object relative (its
relative pronoun is the clause's object: "that/which X retired") and only the subject
noun itself or a quantity of it ("several of the ferries that X retired"), never a noun
the thing is part of ("the captain of the ferries that X retired" is a person), and no
event or policy, which acts for itself ("the ban that X imposed hit Y" is the ban's act,
as "X's ban hit Y" is in mining/open_relations.py). Pure over the same sentence paths as
mining/open_relations.py; no word of any domain is listed.
"""

from __future__ import annotations

from typing import Any

from mining.parse_paths import (
    SUBJECT_CHAIN,
    ParsedSentence,
    is_passive,
    is_relative_pronoun,
    is_verb,
)
from mining.relation_lexicon import EVENT_NOUNS

# Parts of speech of a head that counts out a noun ("several of", "most of", "two of"),
# as opposed to a noun it belongs to ("the captain of"): the grammar, not a word list.
QUANTITY_POS = frozenset({"ADJ", "NUM", "PRON", "DET"})


def _object_relative(clause: Any) -> bool:
    """'that X retired': the relative pronoun is the clause's object, so the noun it
    describes is what the clause's subject acted on."""
    return any(c.dep_ == "dobj" and is_relative_pronoun(c) for c in clause.children)


def relative_subject(s: ParsedSentence, up_s: list[int]) -> tuple[int, int] | None:
    """(relative clause verb, described noun) when the subject side `up_s` of a clause
    (the mention's head up to the clause's subject slot) runs from the mention, as the
    subject of an object relative clause, through the noun that clause describes, which
    is the subject itself or counted by it; None otherwise."""
    doc = s.doc
    verbs = [n for n, t in enumerate(up_s) if is_verb(doc[t])]
    if len(verbs) != 1 or verbs[0] < 1 or verbs[0] + 1 >= len(up_s):
        return None
    k = verbs[0]
    clause, noun = doc[up_s[k]], doc[up_s[k + 1]]
    if clause.dep_ != "relcl" or is_passive(clause) or not _object_relative(clause):
        return None
    if doc[up_s[k - 1]].dep_ != "nsubj":
        return None
    if any(doc[t].dep_ not in SUBJECT_CHAIN for t in up_s[: k - 1]):
        return None  # the mention is inside the clause's subject, not the subject
    if noun.pos_ != "NOUN" or up_s[k + 1] in s.all_owned:
        return None
    if noun.lemma_.lower() in EVENT_NOUNS:
        return None  # "the ban that X imposed hit Y": the ban acts, as "X's ban" does
    above = up_s[k + 1 :]
    if len(above) == 3:  # "several of the ferries": a quantity of the noun is the subject
        prep, counter = doc[above[1]], doc[above[2]]
        if noun.dep_ != "pobj" or prep.lower_ != "of" or counter.pos_ not in QUANTITY_POS:
            return None
    elif len(above) != 1:
        return None
    return up_s[k], up_s[k + 1]
