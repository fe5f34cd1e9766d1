"""'X <verb group> Y' between neighbouring mentions, read from the words between them.

For the sentences the small parser gets wrong: "The World Bank debarred Transmeridian
Engineering" parsed as one noun phrase with "debarred" as an adjective, "The African
Development Bank cross-debarred ..." with no verb at all. The words between two
neighbouring mentions are read by their part-of-speech tags and English morphology (a
past form tagged as an adjective), never by a list of verbs. A passive ("was fined by")
turns round. Only pairs the parse left unrelated use it (`mining/open_relations.py`
first).
"""

from __future__ import annotations

from typing import Any

from mining.open_relations import relations_between
from mining.parse_paths import (
    HYPHENS,
    MODAL_WORDS,
    REL_PRONOUN_TAGS,
    OpenRelation,
    make_relation,
)

MAX_GAP = 4  # tokens between the two mentions
AFTER_VERB = frozenset({"ADP", "DET"})  # "debarred (from) (the)"
VERB_GROUP = frozenset({"AUX", "ADV", "PART", "ADJ", "VERB", "PUNCT"})
NEGATIONS = frozenset({"not", "never", "n't"})


def _verbal(tok: Any) -> bool:
    """A verb by its tag, or a past form the small tagger read as an adjective."""
    return bool(tok.tag_.startswith("VB")) or (tok.tag_ == "JJ" and tok.lower_.endswith("ed"))


def _breaks(tok: Any) -> bool:
    """Punctuation (but a hyphen), a conjunction or a pronoun: another clause begins."""
    return (
        (tok.is_punct and tok.text not in HYPHENS)
        or tok.pos_ in ("CCONJ", "SCONJ", "PRON")
        or tok.tag_ in REL_PRONOUN_TAGS
    )


def _gap_relation(doc: Any, left: int, right: int, gap: list[Any]) -> OpenRelation | None:
    core = list(gap)
    while core and core[-1].pos_ in AFTER_VERB:
        core.pop()
    verbs = [t for t in core if _verbal(t) and t.pos_ != "PROPN"]
    if not verbs or core[-1].i != verbs[-1].i:
        return None  # the verb group must end right before the preposition or the name
    if any(t.pos_ not in VERB_GROUP for t in core) or any(_breaks(t) for t in gap):
        return None
    main = verbs[-1]
    lemma = main.lemma_.lower()
    preps = [t.lower_ for t in gap if t.pos_ == "ADP" and t.i > main.i]
    negated = any(t.dep_ == "neg" or t.lower_ in NEGATIONS for t in gap)
    hedged = any(t.lower_ in MODAL_WORDS for t in gap)
    passive = main.tag_ == "VBN" and preps[-1:] == ["by"] and any(
        t.lemma_.lower() == "be" for t in gap
    )
    if passive:  # "X was fined by Y": Y fined X
        return make_relation(right, left, [lemma, *preps[:-1]], lemma, "dobj", negated, hedged)
    slot = preps[0] if preps else "dobj"
    return make_relation(left, right, [lemma, *preps], lemma, slot, negated, hedged)


def neighbour_relations(
    doc: Any, spans: list[tuple[int, int]], floor: int, ceiling: int
) -> list[OpenRelation]:
    """Relations between each mention and the next, from the 1-4 words between them;
    `spans` are the mentions' token spans in text order (ends index them)."""
    out: list[OpenRelation] = []
    for n in range(len(spans) - 1):
        gap = [doc[i] for i in range(spans[n][1], spans[n + 1][0])]
        if not 1 <= len(gap) <= MAX_GAP:
            continue
        # The first mention must open its clause: a name after a preposition ("the
        # contract with X awarded Y") is not a subject.
        if spans[n][0] > floor and doc[spans[n][0] - 1].pos_ == "ADP":
            continue
        rel = _gap_relation(doc, n, n + 1, gap)
        if rel is not None:
            out.append(rel)
    return out


def relations_in_sentence(
    doc: Any, spans: list[tuple[int, int]], floor: int, ceiling: int
) -> list[OpenRelation]:
    """Open relations from the parse, then from neighbouring words for pairs it left
    unrelated."""
    found = relations_between(doc, spans, floor, ceiling)
    related = {frozenset((r.subject, r.object)) for r in found}
    return found + [
        r for r in neighbour_relations(doc, spans, floor, ceiling)
        if frozenset((r.subject, r.object)) not in related
    ]  # fmt: skip
