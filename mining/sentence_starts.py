"""Where a document's own layout ends a sentence that has no full stop, and the newswire
dateline that is not prose at all.

A parser reads text with its line breaks as spaces, so a heading, a table row or a byline
runs into the sentence after it ("... road contracts WASHINGTON, 3 June 2024 (Finance
Wire) -- The World Bank has debarred ..." becomes one sentence that relates the headline
to the dateline). The layout says where such a sentence ends:

- a blank line ends a paragraph, and with it a sentence its writer left without a stop;
- a line that ends without punctuation, when the next line's first word would have fitted
  on it, was broken by its writer, not wrapped by a typesetter (a greedy wrap puts every
  word on the line while it fits): a heading, a table row, a list item, an address.

A dateline ("ZURICH/NEW YORK, 6 May 2024 (Commodity Wire) --") opens a news story with
where and by whom it was filed: layout, like a page header, so it is read as blank.
"""

from __future__ import annotations

import re

# A paragraph ending in these has ended its sentence: the parser needs no help there.
SENTENCE_ENDS = frozenset(".!?")
# A sentence runs on over a line that ends in these (or in a word broken by a hyphen).
CONTINUING_ENDS = frozenset(".!?,;:-([/&")
# Closed-class English that cannot end a heading or a table row: a line ending in one
# goes on in the next ("... sold it to the\nBergen yard").
CONTINUING_WORDS = frozenset({
    "a", "an", "the", "and", "or", "but", "nor", "of", "to", "in", "on", "at", "by", "for",
    "from", "with", "into", "as", "that", "which", "who", "whose", "its", "their", "his", "her",
})  # fmt: skip
# Characters are not the typesetter's unit: in a proportional font a line of n characters
# can be a tenth wider or narrower than another, so the next word must have fitted with
# that much room to spare before the break counts as the writer's.
FIT_SLACK = 0.1
_FIRST_WORD = re.compile(r"\S+")
# An all-capitals place, then a region and a date or the wire that filed it in brackets
# (or both), then a dash: the newswire convention. The date or the wire tells it from an
# acronym opening a sentence ("CISA, the agency -- ...").
_CAPS = r"[A-Z][A-Z'./ -]*[A-Z]"
_DATE = r",[^\n()]{0,40}?\d[^\n()]{0,20}?"
_WIRE = r"\s*\([^()\n]{1,60}\)"
_PARAGRAPH_BREAK = re.compile(r"\n[^\S\n]*\n\s*")
_DATELINE = re.compile(rf"{_CAPS}(?:{_DATE}(?:{_WIRE})?|{_WIRE})\s*(?:--|\u2014|\u2013)\s")


def _lines(text: str) -> list[tuple[int, str]]:
    """Each line of `text` with the offset it starts at."""
    out: list[tuple[int, str]] = []
    at = 0
    for line in text.split("\n"):
        out.append((at, line))
        at += len(line) + 1
    return out


def sentence_starts(text: str) -> set[int]:
    """Offsets in `text` where a sentence starts because of its layout."""
    lines = _lines(text)
    width = max((len(line.rstrip()) for _, line in lines), default=0)
    starts: set[int] = set()
    blank = False
    ended = True  # whether the text so far ends a sentence of its own (a full stop)
    for k, (at, line) in enumerate(lines):
        body = line.strip()
        if not body:
            blank = True
            continue
        first = at + len(line) - len(line.lstrip())
        if blank and not ended:
            starts.add(first)
        blank = False
        ended = body.rstrip("\"')\u201d\u2019")[-1:] in SENTENCE_ENDS
        if k + 1 >= len(lines) or body[-1] in CONTINUING_ENDS:
            continue
        if body.rsplit(None, 1)[-1].lower() in CONTINUING_WORDS:
            continue
        nxt_at, nxt = lines[k + 1]
        word = _FIRST_WORD.search(nxt)
        if word is None or word.group()[0].islower():
            continue
        if len(line.rstrip()) + 1 + len(word.group()) <= width * (1 - FIT_SLACK):
            starts.add(nxt_at + word.start())
    return starts


def datelines(text: str, starts: set[int]) -> list[tuple[int, int]]:
    """Spans of `text` that are a dateline at the start of the text or of a paragraph."""
    out: list[tuple[int, int]] = []
    first = len(text) - len(text.lstrip())
    paragraphs = {m.end() for m in _PARAGRAPH_BREAK.finditer(text)}
    for at in sorted({first, *starts, *paragraphs}):
        found = _DATELINE.match(text, at)
        if found is not None:
            out.append((found.start(), found.end()))
    return out


_WORD = re.compile(r"[^\W\d_][\w'\u2019-]*")
# Words this short are the function words a title leaves in small letters ("in", "of").
TITLE_WORD_CHARS = 4


def is_title_line(text: str) -> bool:
    """A heading or a table row: one line, no full stop, and every word of it but the
    short function words capitalised ("Antibiotic Supply Resilience in Europe", "Vendor
    Product Fixed in Released"). It names things; its words in a row are not a clause
    ("Resilience in Europe" does not say where a resilience is). Prose has its verbs and
    common nouns in small letters, and a bullet written as a sentence keeps them."""
    body = text.strip()
    if not body or "\n" in body or body.rstrip("\"')\u201d\u2019")[-1:] in SENTENCE_ENDS:
        return False
    words = [w for w in _WORD.findall(body) if len(w) >= TITLE_WORD_CHARS]
    return bool(words) and all(w[0].isupper() for w in words)


__all__ = ["datelines", "is_title_line", "sentence_starts"]
