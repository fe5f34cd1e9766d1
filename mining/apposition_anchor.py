"""An apposition hangs on the noun phrase just before its comma.

English puts an apposition right after the phrase it renames: in "... said it was used to
deliver Pegasus, the spyware sold by NSO Group", the spyware is Pegasus. The small parser
sometimes hangs such an apposition on a noun further back (here the subject of "said"),
and everything said inside the apposition then describes the wrong thing. An apposition
is moved only when the phrase its parser-given head heads does not reach the comma at all
(the word before the comma is not in that phrase) and that word is a noun: "Kallavesi
Voima in Kuopio, the Finnish utility," keeps its head, since "Kuopio" is part of the
phrase headed by "Voima".
"""

from __future__ import annotations

from typing import Any

from mining.reparse import rebuilt, row_of

NOUN_POS = frozenset({"NOUN", "PROPN"})
# How a noun joins the noun it is part of ("NSO" in "NSO Group").
NAME_PART_DEPS = frozenset({"compound", "flat"})


def _word_before(doc: Any, at: int, floor: int) -> int | None:
    at -= 1
    while at >= floor and doc[at].is_space:
        at -= 1
    return at if at >= floor else None


def _phrase_head(doc: Any, at: int, ceiling: int) -> int:
    """The noun `at` is part of: climbed through compounds that stay before `ceiling`."""
    for _ in range(ceiling):
        tok = doc[at]
        if tok.dep_ not in NAME_PART_DEPS or not at < tok.head.i < ceiling:
            break
        at = tok.head.i
    return at


def anchor_moves(doc: Any) -> dict[int, int]:
    """{apposition token: the noun it should hang on} for every misplaced apposition."""
    moves: dict[int, int] = {}
    for sent in doc.sents:
        for tok in sent:
            head = tok.head.i
            if tok.dep_ != "appos" or head >= tok.i:
                continue
            comma = _word_before(doc, tok.left_edge.i, sent.start)
            if comma is None or doc[comma].text != ",":
                continue
            before = _word_before(doc, comma, sent.start)
            if before is None or doc[before].pos_ not in NOUN_POS:
                continue
            reached = {t.i for t in doc[head].subtree} - {t.i for t in tok.subtree}
            if before in reached:
                continue
            target = _phrase_head(doc, before, comma)
            if target != head:
                moves[tok.i] = target
    return moves


def reanchored(doc: Any) -> Any:
    """`doc` with every misplaced apposition hung on the noun before its comma."""
    moves = anchor_moves(doc)
    return rebuilt(doc, {a: row_of(doc[a], noun, "appos") for a, noun in moves.items()})


__all__ = ["anchor_moves", "reanchored"]
