"""Proper-noun runs the NER cut short or left untyped, repaired from the parse.

The small NER model often takes part of a name ("LNG" of "Petronet LNG", "Hyundai
Electric" of "HD Hyundai Electric", "Cleveland" of "Cleveland-Cliffs") or leaves out a
name whose words say nothing of what it is ("Van Dalen Verlichting"). A run of proper
nouns that holds the NER's span whole is the name; a run coordinated with a typed name
("X and Brabant Lichttechniek") is of the same kind, as coordination joins likes. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from mining.mentions import Mention
from mining.name_shapes import SHAPED_LABEL

KINDS_SHARED_BY_COORDINATION = frozenset({"organization", "place", "person"})
# English agent-noun endings: "importer", "operator", "chocolatier", "engineer", "chemist".
AGENT_ENDINGS = ("er", "or", "ist")
MIN_AGENT_NOUN = 5


def agent_noun(word: str) -> bool:
    """Whether a lower-cased noun is an English agent noun ("operator", "chemist"): a
    word for someone who does something, so for a party."""
    return len(word) >= MIN_AGENT_NOUN and word.endswith(AGENT_ENDINGS)


def joining_hyphen(tok: Any) -> bool:
    """A hyphen inside one word of a name ("Cleveland-Cliffs"), spaces on neither side."""
    return (
        tok.text == "-" and not tok.whitespace_ and tok.i > 0 and not tok.doc[tok.i - 1].whitespace_
    )


# What the NER reads as a date or an amount is never part of a name ("On 26 February
# Brooke Rollins ...").
NOT_NAME_ENTITIES = frozenset(
    {"DATE", "TIME", "CARDINAL", "ORDINAL", "MONEY", "PERCENT", "QUANTITY"}
)

# An article, a preposition or a question word a sentence-initial capital sweeps into a
# name ("Through NCEL, India ...", "By Dana Whitcombe", "In Europe, X ...", a headline's
# "Which Linux distributions ..."); not "on"/"under", which open names.
LEADING_FUNCTION_WORDS = re.compile(
    r"^(?:the|a|an|through|by|from|via|in|at|for|with|after|before|during|into|across"
    r"|against|between|within|since|which|what|whose|how|why|when|where)\s+",
    re.IGNORECASE,
)

# Month and day names are capitalised English words, not parts of the names beside them.
CALENDAR_WORDS = frozenset(
    """january february march april may june july august september october november
    december monday tuesday wednesday thursday friday saturday sunday""".split()
)


def cut_by_ner(
    label: str, known: Any, inner: Sequence[Mention], start: int, end: int, span: Any = None
) -> Mention | None:
    """The first NER mention a proper-noun run (label '') holds whole and is longer than:
    the name the NER cut short or in two ("Marlow" and "Finch" of "Marlow & Finch"),
    whose kind the run keeps. None when the run is no such repair
    (a DKG name inside it always stands)."""
    if label or known is not None or not inner:
        return None
    if span is not None and any(
        t.ent_type_ in NOT_NAME_ENTITIES or t.lower_ in CALENDAR_WORDS for t in span
    ):
        return None
    for m in inner:
        if m.ual is not None or m.origin != "ner" or not (start <= m.start and m.end <= end):
            return None
    first = inner[0]
    return first if (start, end) != (first.start, first.end) else None


def apposed(root: Any) -> list[Any]:
    """The words set in apposition to a phrase's head, either way round ("X, the ferry
    operator" and "the operator, X")."""
    beside = [c for c in root.children if c.dep_ == "appos"]
    if root.dep_ == "appos":
        beside.append(root.head)
    return beside


def apposed_kind(
    span: Any, org_words: frozenset[str], place_words: frozenset[str], agents: bool = True
) -> tuple[str, str] | None:
    """(family, schema type) the common noun set beside a name says it is: "X, the
    largest ferry operator" (an agent noun: an organisation), "X, a river town" (a place
    word); None when no such noun is beside it."""
    for noun in apposed(span.root):
        if noun.pos_ != "NOUN":
            continue
        word = noun.lemma_.lower()
        if word in place_words:
            return "place", "Place"
        agent = agents and agent_noun(word)
        if word in org_words or agent:
            return "organization", "Organization"
    return None


def _lone_name(tok: Any) -> bool:
    """A capitalised proper noun of one word, not a sentence's first (whose capital says
    nothing) and no part of a longer name (which the runs read)."""
    return (
        tok.pos_ == "PROPN"
        and tok.text[:1].isupper()
        and not tok.is_sent_start
        and tok.dep_ != "compound"
        and not any(c.dep_ == "compound" for c in tok.children)
    )


def placed_names(doc: Any, found: Sequence[Mention]) -> list[Mention]:
    """'Weiz in Austria': a lone proper noun no mention took, which the text locates in a
    place it named, as a place too. A company there would be one the NER or the DKG
    knew; a bare name placed "in" a country or region is a town, a site, a district. Not
    a sentence's first word, whose capital says nothing."""
    taken = [(m.start, m.end) for m in found]
    places = [(m.start, m.end) for m in found if m.family == "place"]
    out: list[Mention] = []
    for tok in doc:
        if not _lone_name(tok) or any(s <= tok.idx < e for s, e in taken):
            continue
        located = [
            p for prep in tok.children if prep.dep_ == "prep" and prep.lower_ == "in"
            for p in prep.children if p.dep_ == "pobj"
        ]  # fmt: skip
        if any(s <= p.idx < e for p in located for s, e in places):
            out.append(Mention(tok.text, tok.text, tok.idx, tok.idx + len(tok), "place", "Place",
                               None, "ner"))  # fmt: skip
    return out


def document_words(doc: Any, found: Sequence[Mention], names: Sequence[str]) -> list[Mention]:
    """A lone proper noun no mention took that the rest of its document uses as a name of
    one word ("the Aare", or "Beznau has no cooling tower" in a passage of an article
    that names them elsewhere): the document says it is a name (`document_names` keeps
    no word it also writes in lower case, nor one that only opens sentences), though this
    passage says nothing of it. Typed as another mention of the same name in the text,
    else as a concept (its kind is said where the document describes it)."""
    words = {n for n in names if len(n.split()) == 1}
    taken = [(m.start, m.end) for m in found]
    kinds = {m.text: m for m in found if m.family != "concept"}
    out: list[Mention] = []
    for tok in doc:
        if (
            tok.text not in words
            or tok.pos_ != "PROPN"
            or tok.dep_ == "compound"
            or any(s <= tok.idx < e for s, e in taken)
        ):
            continue
        same = kinds.get(tok.text)
        start, end = tok.idx, tok.idx + len(tok)
        if same is not None:
            out.append(replace(same, text=tok.text, start=start, end=end, origin="ner"))
        else:
            out.append(Mention(tok.text, tok.text, start, end, "concept", "Thing", None, "ner"))
    return out


def coordinated_names(
    doc: Any,
    untyped: Sequence[tuple[int, int, str]],
    found: Sequence[Mention],
    org_words: frozenset[str] = frozenset(),
    place_words: frozenset[str] = frozenset(),
) -> list[Mention]:
    """Untyped proper-noun runs coordinated with a typed mention, as mentions of its kind;
    else set beside a noun that says their kind (`apposed_kind`)."""
    out: list[Mention] = []
    for start, end, name in untyped:
        span = doc.char_span(start, end, alignment_mode="expand")
        if span is None:
            continue
        kind = apposed_kind(span, org_words, place_words)
        if kind is not None:
            out.append(Mention(name, name, start, end, kind[0], kind[1], None, "ner"))
            continue
        root = span.root
        siblings = [*root.conjuncts]
        for other in found:
            if other.family not in KINDS_SHARED_BY_COORDINATION:
                continue
            them = doc.char_span(other.start, other.end, alignment_mode="expand")
            if them is not None and any(t.i == them.root.i for t in siblings):
                out.append(
                    replace(
                        other, text=name, name=name, start=start, end=end, ual=None, origin="ner"
                    )  # fmt: skip
                )
                break
    return out


def apposed_names(doc: Any) -> list[tuple[int, int, str]]:
    """(start, end, label) of lone capitalised words set beside a described common noun
    ("the Aare, the river that cools the plant"; "Pegasus, the spyware sold by ..."): an
    apposition says the word names one thing of that kind. Not a sentence's first word,
    whose capital says nothing."""
    spans: list[tuple[int, int, str]] = []
    for tok in doc:
        if not _lone_name(tok):
            continue
        described = any(
            c.dep_ == "appos" and c.pos_ == "NOUN" and any(d.dep_ == "det" for d in c.children)
            for c in tok.children
        )
        if described:
            spans.append((tok.idx, tok.idx + len(tok), SHAPED_LABEL))
    return spans


# A number written with thousands separators counts something; a designation never is.
QUANTITY = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")


def designation_end(doc: Any, start: int, end: int) -> int:
    """Where a name ends with the number that designates it ("Executive Order 14028",
    "the RDK 8 unit"): a number right after the name, no comma between, that modifies
    the name or what the name modifies. `end` when none follows."""
    span = doc.char_span(start, end, alignment_mode="expand")
    if span is None or span.end >= len(doc):
        return end
    number = doc[span.end]
    if not (number.like_num and number.dep_ in ("nummod", "appos", "compound")):
        return end
    if number.idx != end + 1 or not any(ch.isdigit() for ch in number.text):
        return end
    if QUANTITY.fullmatch(number.text):
        return end  # "Senegal 1,350,000" in a table: a count, never a designation
    if number.head.i not in (span.root.i, span.root.head.i):
        return end
    return number.idx + len(number)


def owns_its_possessive(doc: Any, span: Any) -> bool:
    """Whether a name ending in "'s" keeps it: nothing it could possess follows ("Moody's
    downgraded the debt", "at Sainsbury's."), so the "'s" is part of the name, not a
    possessive ("Moody's analysts")."""
    if span is None or len(span) < 2 or span[-1].lower_ not in ("'s", "’s"):
        return False
    after = doc[span.end] if span.end < len(doc) else None
    return after is None or after.pos_ in POSSESSIVE_ENDS


# What follows a name whose "'s" possesses nothing: a verb, a preposition, punctuation.
POSSESSIVE_ENDS = frozenset({"VERB", "AUX", "PUNCT", "ADP", "CCONJ", "SCONJ", "PART", "ADV"})


def places_set_off(doc: Any) -> list[tuple[int, int, str]]:
    """A proper name the NER missed that a place is set off after ("Belém, Brazil"): a
    place too, the smaller one."""
    spans: list[tuple[int, int, str]] = []
    for tok in doc:
        if tok.pos_ != "PROPN" or tok.ent_type_:
            continue
        if any(c.dep_ == "appos" and c.ent_type_ in ("GPE", "LOC") for c in tok.children):
            first = min([tok, *(c for c in tok.lefts if c.dep_ == "compound"
                                and c.pos_ == "PROPN")], key=lambda t: t.i)  # fmt: skip
            spans.append((first.idx, tok.idx + len(tok), "GPE"))
    return spans


def after_dates(words: list[str]) -> list[str]:
    """The words of a capitalised run after the last month or day name that more of the
    run follows ("On Friday Moody's" -> "Moody's", "February Brooke Rollins" -> "Brooke
    Rollins"); a run ending in one keeps it ("Theresa May")."""
    cut = 0
    for n, word in enumerate(words[:-1]):
        if _POSSESSIVE.sub("", word.lower()) in CALENDAR_WORDS:  # "Friday's" too
            cut = n + 1
    return words[cut:]


_POSSESSIVE = re.compile(r"['’]s$")
