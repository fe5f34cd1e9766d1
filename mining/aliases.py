"""One entity under two names in one text: "the International Cocoa Organization, or
ICCO", "Ghana's Cocoa Board, known as COCOBOD", "the Directorate General of Foreign
Trade, the DGFT". The grammar says so (an apposition, "or" between a name and its
abbreviation, "known as" / "called"), not a list of names; pure over a spaCy parse.

The alias mention keeps its own words (`text`) and takes the other's name, type and DKG
asset, so a relation between the two is never read and what the text later says of the
abbreviation is said of the entity; the claims carry the abbreviation as `alternateName`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mining.mentions import Mention

MAX_ABBREVIATION = 8
# The English naming phrases: "known as X", "called X" (closed class, of no domain).
NAMING_VERBS = frozenset({"know", "call", "name", "dub"})


def _abbreviation(m: Mention) -> bool:
    word = m.text.strip()
    return " " not in word and 2 <= len(word) <= MAX_ABBREVIATION and word.isupper()


def _root(doc: Any, m: Mention) -> Any:
    span = doc.char_span(m.start, m.end, alignment_mode="expand")
    return span.root if span is not None else None


def _names_the_same(first: Any, second: Any) -> str | None:
    """How the parse says `second` is another name of `first`: 'appos', 'or', 'named'."""
    if second.head.i == first.i and second.dep_ == "appos":
        return "appos"
    if second.head.i == first.i and second.dep_ == "conj":
        if any(c.dep_ == "cc" and c.lower_ == "or" for c in first.children):
            return "or"
    prep = second.head
    if second.dep_ == "pobj" and prep.lower_ == "as" and prep.head.lemma_.lower() in NAMING_VERBS:
        verb = prep.head
        if verb.dep_ in ("acl", "relcl") and verb.head.i == first.i:
            return "named"
    if second.dep_ == "oprd" and second.head.lemma_.lower() in NAMING_VERBS:
        verb = second.head
        if verb.dep_ in ("acl", "relcl") and verb.head.i == first.i:
            return "named"
    return None


def aliased(doc: Any, found: list[Mention]) -> list[Mention]:
    """The mentions with each alias named as the entity it stands for, and every later
    mention of the same abbreviation in the text with it."""
    same: dict[str, Mention] = {}  # an alias's words -> the mention it names
    roots = [_root(doc, m) for m in found]
    for a, (first, ra) in enumerate(zip(found, roots, strict=True)):
        for second, rb in zip(found[a + 1 :], roots[a + 1 :], strict=True):
            if ra is None or rb is None or first.name == second.name:
                continue
            how = _names_the_same(ra, rb)
            if how is None or (how != "named" and not (_abbreviation(first)
                                                        or _abbreviation(second))):  # fmt: skip
                continue
            # The entity is the DKG's when one side is an asset, else the full name.
            entity, alias = (second, first) if _prefer(second, first) else (first, second)
            same.setdefault(alias.text, entity)
    if not same:
        return found
    out = []
    for m in found:
        entity = same.get(m.text)
        if entity is not None and entity is not m and m.name != entity.name:
            m = replace(m, name=entity.name, family=entity.family, type=entity.type,
                        ual=entity.ual)  # fmt: skip
        out.append(m)
    return out


def _prefer(a: Mention, b: Mention) -> bool:
    """Whether `a` names the entity over `b`: a DKG asset, else the longer, spelled-out name."""
    if (a.ual is None) != (b.ual is None):
        return a.ual is not None
    return not _abbreviation(a) and (_abbreviation(b) or len(a.text) > len(b.text))
