"""Cut a document body into passages a reader (and a ranking function) can use.

Search ranks passages, not whole documents: a 40-page PDF must not win a query
because one page mentions it, and evidence must point at the sentences that
support a claim. Each `Passage` keeps character offsets into the body, so
`content[start:end] == text` always holds and a citation can be traced back.

Rules, in order: paragraphs (blank lines) are the natural units; a paragraph
longer than `max_words` is cut at sentence ends (and a run-on sentence at word
boundaries); consecutive short units are merged up to `target_words` so one-line
paragraphs do not become tiny passages. No passage is longer than `max_chars`
characters either: a piece past it is cut at its last whitespace before the limit.
Cuts fall only on whitespace, save in a run of `max_chars` characters with none
(a base64 blob, a table pasted without spaces), which is cut where the limit falls, so a
passage a reader parses stays small whatever the file holds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
_WORD = re.compile(r"\S+")
# A sentence end: terminal punctuation, optional closing quotes/brackets, whitespace.
_SENTENCE_END = re.compile(r"[.!?][\"'\u201d\u2019)\]]*(\s+)")
_OPENERS = "\"'\u201c\u2018(["
_ABBREVIATIONS = frozenset(
    """co ltd inc corp plc llc dr mr mrs ms prof st jr sr vs no nos fig figs approx dept est
    gov gen sen rep mt ft op vol pp ed eds jan feb mar apr jun jul aug sep sept oct nov dec
    e.g i.e cf al""".split()
)
_DOTTED = re.compile(r"^(?:[a-z]\.)+[a-z]$")
# Characters in one passage at most: 160 words of ordinary prose are about 1,000.
MAX_PASSAGE_CHARS = 4000
_SPACES = " \n\t\r\f\v"


@dataclass(frozen=True)
class Passage:
    ordinal: int
    start: int
    end: int
    text: str


Span = tuple[int, int]


def _trim(content: str, start: int, end: int) -> Span | None:
    while start < end and content[start].isspace():
        start += 1
    while end > start and content[end - 1].isspace():
        end -= 1
    return (start, end) if start < end else None


def _words(content: str, span: Span) -> int:
    return len(_WORD.findall(content, span[0], span[1]))


def _paragraphs(content: str) -> list[Span]:
    spans: list[Span] = []
    start = 0
    for brk in _PARAGRAPH_BREAK.finditer(content):
        if (span := _trim(content, start, brk.start())) is not None:
            spans.append(span)
        start = brk.end()
    if (span := _trim(content, start, len(content))) is not None:
        spans.append(span)
    return spans


def _is_abbreviation(content: str, start: int, dot: int) -> bool:
    """Whether the word that ends with the period at `dot` is an abbreviation."""
    word_start = dot
    while word_start > start and not content[word_start - 1].isspace():
        word_start -= 1
    word = content[word_start:dot].lstrip(_OPENERS).lower()
    return word in _ABBREVIATIONS or len(word) == 1 or bool(_DOTTED.match(word))


def _sentences(content: str, span: Span) -> list[Span]:
    start, end = span
    spans: list[Span] = []
    begin = start
    for match in _SENTENCE_END.finditer(content, start, end):
        after = match.end()
        nxt = after
        while nxt < end and content[nxt] in _OPENERS:
            nxt += 1
        if nxt >= end or not (content[nxt].isupper() or content[nxt].isdigit()):
            continue
        if content[match.start()] == "." and _is_abbreviation(content, begin, match.start()):
            continue
        spans.append((begin, match.start(1)))
        begin = after
    spans.append((begin, end))
    return [s for s in (_trim(content, a, b) for a, b in spans) if s is not None]


def _word_chunks(content: str, span: Span, size: int) -> list[Span]:
    words = [(m.start(), m.end()) for m in _WORD.finditer(content, span[0], span[1])]
    return [
        (words[i][0], words[min(i + size, len(words)) - 1][1]) for i in range(0, len(words), size)
    ]


def _char_chunks(content: str, span: Span, size: int) -> list[Span]:
    """A span as pieces of at most `size` characters, each cut at the last whitespace
    before its limit (where the limit falls when there is none)."""
    start, end = span
    pieces: list[Span] = []
    while end - start > size:
        limit = start + size
        cut = max(content.rfind(space, start + 1, limit + 1) for space in _SPACES)
        cut = cut if cut > start else limit
        if (piece := _trim(content, start, cut)) is not None:
            pieces.append(piece)
        start = cut
        while start < end and content[start].isspace():
            start += 1
    if (piece := _trim(content, start, end)) is not None:
        pieces.append(piece)
    return pieces


def _split_long(content: str, span: Span, target: int, max_words: int) -> list[Span]:
    """A paragraph over `max_words` as pieces of whole sentences of about `target` words."""
    pieces: list[Span] = []
    current: Span | None = None
    count = 0
    for sentence in _sentences(content, span):
        n = _words(content, sentence)
        parts = _word_chunks(content, sentence, target) if n > max_words else [sentence]
        for part in parts:
            n = _words(content, part)
            if current is not None and count + n <= target:
                current, count = (current[0], part[1]), count + n
                continue
            if current is not None:
                pieces.append(current)
            current, count = part, n
    if current is not None:
        pieces.append(current)
    return pieces


def split_passages(
    content: str,
    target_words: int = 90,
    max_words: int = 160,
    max_chars: int = MAX_PASSAGE_CHARS,
) -> list[Passage]:
    """The passages of `content`, in order, with exact character offsets."""
    target = max(1, target_words)
    ceiling = max(target, max_words)
    small = max(1, target // 3)
    units: list[tuple[Span, int]] = []
    for paragraph in _paragraphs(content):
        n = _words(content, paragraph)
        pieces = _split_long(content, paragraph, target, ceiling) if n > ceiling else [paragraph]
        for piece in pieces:
            long = piece[1] - piece[0] > max_chars
            parts = _char_chunks(content, piece, max_chars) if long else [piece]
            units.extend((part, _words(content, part)) for part in parts)

    merged: list[tuple[Span, int]] = []
    for unit, n in units:
        if merged:
            (start, _), count = merged[-1]
            # Fill up to the target; a passage too small to stand alone (a heading) takes
            # the next unit as long as the result stays under the ceiling.
            fits = unit[1] - start <= max_chars
            if fits and (count + n <= target or (count < small and count + n <= ceiling)):
                merged[-1] = ((start, unit[1]), count + n)
                continue
        merged.append((unit, n))
    if len(merged) > 1 and merged[-1][1] < small:  # a short tail joins its predecessor
        ((start, _), count), ((_, end), n) = merged[-2], merged[-1]
        if count + n <= ceiling and end - start <= max_chars:
            merged[-2:] = [((start, end), count + n)]
    return [Passage(i, a, b, content[a:b]) for i, ((a, b), _) in enumerate(merged)]
