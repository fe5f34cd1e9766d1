"""A subject the parser swallowed into a sentence's leading phrase, given back to its verb.

With no comma after a sentence's opening date ("On Friday Moody's downgraded ...", "On 26
February Brooke Rollins set out ..."), the small parser reads the date and the name after
it as one noun phrase, the object of "On", and leaves the verb with no subject. English
puts a date phrase before the subject: so when a verb has no subject, the object of its
opening preposition is a proper noun running up to the verb, and the words between the
preposition and that name are a date (month and day names, numbers, words the NER calls
a date or a time), the date goes back to the preposition and the name to the verb.
Likewise a preposition the parser gave two objects ("On the southern bank the Kariba
South station ... is operated by X": no preposition takes two) gives the second, the one
running up to the verb, back to the verb as its subject.
"""

from __future__ import annotations

from typing import Any

from mining.name_runs import CALENDAR_WORDS
from mining.parse_paths import SUBJECT_DEPS
from mining.reparse import rebuilt, row_of

DATE_ENTITIES = frozenset({"DATE", "TIME"})
# How a name's words join its head ("Deschutes Valley Electric"), and its possessive "'s".
NAME_PART_DEPS = frozenset({"compound", "flat", "case"})


def _dated(tok: Any) -> bool:
    return tok.ent_type_ in DATE_ENTITIES or tok.lower_ in CALENDAR_WORDS or tok.like_num


def _subjectless_verb(sent: Any) -> Any | None:
    verb = sent.root
    if verb.pos_ not in ("VERB", "AUX") or any(c.dep_ in SUBJECT_DEPS for c in verb.children):
        return None
    return verb


def _runs_up_to(doc: Any, phrase: Any, verb: Any) -> bool:
    """Whether only punctuation and the verb's auxiliaries lie between a phrase and its
    verb: the phrase is where English puts the verb's subject."""
    if phrase.i > verb.i:
        return False
    between = doc[phrase.right_edge.i + 1 : verb.i]
    return all(t.is_punct or t.is_space or (t.pos_ == "AUX" and t.head.i == verb.i)
               for t in between)  # fmt: skip


def _dated_name(doc: Any, prep: Any, name: Any, verb: Any) -> dict[int, tuple[int, str]]:
    """The moves that split "On 26 February Brooke Rollins" into the date and the name."""
    if name.pos_ != "PROPN" or name.ent_type_ in DATE_ENTITIES or not _runs_up_to(doc, name, verb):
        return {}
    inside = list(doc[prep.i + 1 : name.i])
    date_len = 0
    while date_len < len(inside) and _dated(inside[date_len]):
        date_len += 1
    date, rest = inside[:date_len], inside[date_len:]
    if not any(t.lower_ in CALENDAR_WORDS or t.ent_type_ in DATE_ENTITIES for t in date):
        return {}  # "On 4 ..." alone is no date
    if any(t.pos_ != "PROPN" or t.dep_ not in NAME_PART_DEPS for t in rest):
        return {}
    if any(t.head.i != name.i and not prep.i < t.head.i <= name.i for t in date):
        return {}  # the date's words belong to the phrase, not to something further
    head = date[-1]
    moves = {head.i: (prep.i, "pobj")}
    for t in date[:-1]:
        moves[t.i] = (head.i, "nummod" if t.like_num else "compound")
    return moves


def subject_moves(doc: Any) -> dict[int, tuple[int, str]]:
    """{token: (new head, dependency)} that give each swallowed subject back to its verb."""
    moves: dict[int, tuple[int, str]] = {}
    for sent in doc.sents:
        verb = _subjectless_verb(sent)
        words = [t for t in sent if not t.is_space]
        if verb is None or len(words) < 4:
            continue
        prep = words[0]
        if prep.dep_ != "prep" or prep.head.i != verb.i:
            continue
        objects = [c for c in prep.children if c.dep_ == "pobj"]
        subject = "nsubjpass" if any(c.dep_ == "auxpass" for c in verb.children) else "nsubj"
        if len(objects) == 2 and _runs_up_to(doc, objects[1], verb):
            moves[objects[1].i] = (verb.i, subject)
        elif len(objects) == 1 and (dated := _dated_name(doc, prep, objects[0], verb)):
            moves.update(dated)
            moves[objects[0].i] = (verb.i, subject)
    return moves


def subjects_restored(doc: Any) -> Any:
    """`doc` with every swallowed subject given back to its verb."""
    moves = subject_moves(doc)
    return rebuilt(doc, {t: row_of(doc[t], head, dep) for t, (head, dep) in moves.items()})


__all__ = ["subject_moves", "subjects_restored"]
