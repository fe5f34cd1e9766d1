"""An entity mention, and how one text shortens its names after first use ("Cryon" for
"Cryon Gas Technologies"). Pure; mining/nlp.py finds the mentions."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from mining.names import normalise_name


@dataclass(frozen=True)
class Mention:
    """One entity named in a text: where, what it is, and its DKG asset if it has one."""

    text: str  # the words in the text
    name: str  # the DKG label when resolved, else the cleaned words
    start: int
    end: int
    family: str  # organization, place, product, event, person, creativework, concept
    type: str  # schema.org type
    ual: str | None = None
    origin: str = "gazetteer"  # gazetteer | ner | phrase


def _names_more(
    name: str,
    raw: str,
    label: str,
    known: Any,
    inner: list[Mention],
    span: tuple[int, int],
    own_family: str = "",
) -> bool:
    """Whether an NER place or organisation name is a longer, different name around the
    gazetteer mentions inside it: every inner mention lies within it, and the words it
    adds are capitalised (a name: "Western Australia", "Kathleen Valley"), not a
    possessive or a common noun ("Chile's", "Albemarle plant").

    A run of proper nouns (`label` '') counts too when its own words say it is an
    organisation or place (`own_family`): "Coffee and Cocoa Council" is not the
    commodity cocoa."""
    start, end = span
    # Inside such a run: the goods it names, and the NER's shorter reading of its end
    # ("Pulp Council" of "Timber and Pulp Council").
    by_words = (label == "" and own_family in ("organization", "place") and all(
        m.family in ("product", "concept") if m.ual else m.end == end for m in inner))  # fmt: skip
    if (label not in ("GPE", "LOC", "FAC", "ORG") and not by_words) or known is not None:
        return False
    if not inner or any(m.start < start or m.end > end for m in inner):
        return False
    if not by_words and any(m.ual is None for m in inner):
        return False
    rest = name
    for m in inner:
        rest = rest.replace(m.text, " ")
    joiners = NAME_JOINERS if by_words else ()
    extra = [w for w in re.findall(r"[\w']+", rest) if w and w.lower() not in joiners]
    return (bool(extra) or by_words) and all(w[:1].isupper() and "'" not in w for w in extra)


def named_after_goods(name: str, inner: list[Mention], end: int) -> bool:
    """Whether a run of capitalised words ends in goods the DKG knows and begins with a
    word of its own ("Petronet LNG", "Albemarle Lithium"): a company named after what it
    trades, not the goods."""
    goods = [m for m in inner if m.ual and m.family == "product" and m.end == end]
    words = name.split()
    return bool(goods) and len(words) > 1 and words[0][:1].isupper() and not any(
        m.start < end - len(name) + len(words[0]) for m in inner
    )


# Lower-case words inside one proper name ("Coffee and Cocoa Council", "Bank of Ghana").
NAME_JOINERS = ("of", "de", "and")


def _bare_short_forms(
    doc: Any, found: list[Mention], context: Sequence[Mention] = ()
) -> list[Mention]:
    """A lone capitalised word that is part of a longer unresolved name of the text
    ("Meridian" for "Meridian Sterile Products"), where the NER saw nothing; names of the
    rest of the document (`context`) count after the text's own."""
    names = {
        word: m for m in [*[c for c in context if c.family != "concept"], *found]
        if len(m.name.split()) > 1 and (m.ual is None or m.origin == "context")
        for word in (m.text if m.origin == "context" else m.name).split()
        if word[:1].isupper() and len(word) > 2
    }  # fmt: skip
    taken = [(m.start, m.end) for m in found]
    extra = []
    for tok in doc:
        full = names.get(tok.text)
        # The tagger may read a rare name as a common noun ("Huarun supplies ..."), the
        # NER still reading it as a name.
        if full is None or (tok.pos_ != "PROPN" and not tok.ent_type_):
            continue
        start, end = tok.idx, tok.idx + len(tok)
        if any(s < end and start < e for s, e in taken):
            continue
        extra.append(replace(full, text=tok.text, start=start, end=end, origin="ner"))
    return sorted([*found, *extra], key=lambda m: m.start)


def contains_run(words: list[str], part: list[str]) -> bool:
    n = len(part)
    return any(words[i : i + n] == part for i in range(len(words) - n + 1))


def short_forms(found: list[Mention], context: Sequence[Mention] = ()) -> list[Mention]:
    """Within one text, "Cryon" after "Cryon Gas Technologies" is that company.

    An unresolved name whose words occur in a longer name of the same text ("Cryon",
    "Huarun" for "Changzhou Huarun Biochemical") is read as that name, type and DKG
    asset included: the way articles shorten names after first use.
    """
    longer = [m for m in [*found, *context] if len(m.name.split()) > 1]
    out = []
    for m in found:
        words = normalise_name(m.name).split()
        if m.ual is None and words:
            for full in longer:
                full_words = normalise_name(full.name).split()
                shortened = len(full_words) > len(words) and contains_run(full_words, words)
                if shortened or _initials_of(m.text, full.name):
                    typed = full.family != "concept"  # else keep what NER said of m
                    m = replace(m, name=full.name, family=full.family if typed else m.family,
                                type=full.type if typed else m.type, ual=full.ual)  # fmt: skip
                    break
        out.append(m)
    return out


# How long an abbreviation made of a name's initials may be ("NTIA", "DGFT").
MAX_INITIALS = 6


def _initials_of(short: str, full: str) -> bool:
    """Whether `short` is spelled by the initials of `full`'s capitalised words: "NTIA"
    for "National Telecommunications and Information Administration", used later in a
    text that never wrote the abbreviation beside the name."""
    short = short.strip()
    capitals = [w[0] for w in full.split() if w[:1].isupper()]
    return (
        2 <= len(short) <= MAX_INITIALS
        and short.isalpha()
        and short.isupper()
        and len(capitals) == len(short)
        and "".join(capitals) == short
    )


def with_name(mention: Mention, name: str) -> Mention:
    return replace(mention, name=name)
