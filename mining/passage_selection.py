"""Which passages a corpus search answers with, and what travels with each.

Pure: the search backend (`activities/search.py` `CorpusSearch`) fetches the candidate
passages, their embeddings and their documents; this module orders them (words and
meaning blended), caps each document's share, reads the best documents on to their end,
and finds a document's full names and the text before a passage. Every pass here is
linear in the text it reads, and a very long document is read a part at a time
(`NAMES_PART_CHARS`), so one large file cannot stall a search.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from mining.name_runs import CALENDAR_WORDS, LEADING_FUNCTION_WORDS, after_dates
from mining.parsing import after_heading
from mining.sentence_starts import sentence_starts

# Hybrid ranking: BM25 finds candidates by their words, the embedding orders them by
# meaning. A word every passage shares ("lithium" in a lithium corpus) has an IDF near zero,
# so BM25 alone orders those passages arbitrarily; ranks, not raw scores, are blended.
CANDIDATE_POOL = 5
W_LEXICAL_RANK = 0.4
W_SEMANTIC = 0.6
# Passages one document may place in a search's answer, and in the pool it is drawn from.
PER_DOCUMENT = 2
POOL_PER_DOCUMENT = 4
# The documents of the best few hits are read on to their end (`read_on`), at most this
# many more passages each.
WHOLE_DOCUMENTS = 3
WHOLE_DOCUMENT_PASSAGES = 12
MAX_DOCUMENT_NAMES = 24
# How much text before a passage travels with it (`SourceDocument.context`): a paragraph
# or two, enough for the noun an opening "The outbreak has hit X" points back to.
CONTEXT_CHARS = 600
# A document's names are read from the part of it a passage lies in: the whole document
# up to this many characters (nearly every one), else the part of this size the passage
# starts in. A 20 MB file is a collection of texts: its names would be those of its first
# pages, at the cost of reading all of it.
NAMES_PART_CHARS = 1_000_000


class Hit(Protocol):
    """A passage a search found (`storage/corpus/models.py` `SearchHit`)."""

    documentId: int
    passageId: str
    score: float

    def model_copy(self, *, update: dict[str, Any] | None = None) -> Any: ...


H = TypeVar("H")


def per_document(hits: Sequence[Any], limit: int) -> list[Any]:
    """The first `limit` hits, at most `PER_DOCUMENT` from any one document."""
    kept: list[Any] = []
    seen: dict[int, int] = {}
    for hit in hits:
        if seen.get(hit.documentId, 0) < PER_DOCUMENT:
            seen[hit.documentId] = seen.get(hit.documentId, 0) + 1
            kept.append(hit)
    return kept[:limit]


def by_words_and_meaning(pool: Sequence[H], cosines: Sequence[float]) -> list[H]:
    """The pool (in its word-match order) reordered by its rank blended with each
    passage's cosine to the question; ties keep the word-match order."""
    n = len(pool)
    blended = [
        (W_LEXICAL_RANK * (1 - rank / n) + W_SEMANTIC * cos, rank)
        for rank, cos in enumerate(cosines)
    ]
    order = sorted(blended, key=lambda br: (-br[0], br[1]))
    return [pool[rank] for _, rank in order]


def read_on(hits: list[Any], passages_of: Callable[[int], Sequence[Hit]]) -> list[Any]:
    """The hits, then the other passages of the documents the best hits come from
    (`passages_of`: a document's passages in order), each scored as its document's best hit.

    A reader who finds the answer's article reads all of it: the facts a question asks
    for are spread over an article's paragraphs, and the per-document cap that keeps
    one document from filling the answer would otherwise leave most of them unread.
    """
    taken = {h.passageId for h in hits}
    top = list(dict.fromkeys(h.documentId for h in hits[:WHOLE_DOCUMENTS]))
    more: list[Any] = []
    for document_id in top:
        best = next(h.score for h in hits if h.documentId == document_id)
        rest = [p for p in passages_of(document_id) if p.passageId not in taken]
        more += [p.model_copy(update={"score": best}) for p in rest[:WHOLE_DOCUMENT_PASSAGES]]
    return hits + more


# A run of two to five capitalised words, joined by spaces (line breaks of wrapped text
# included), '&', 'of' or 'de': a full name. A leading article is not part of it.
# Never over a blank line: a paragraph ends every name in it.
_GAP = r"(?:[^\S\n]+(?:\n[^\S\n]*)?|\n[^\S\n]*)"
_PROPER_RUN = re.compile(
    rf"\b[A-Z][\w'’&-]*(?:{_GAP}(?:&{_GAP}|of{_GAP}|de{_GAP})?[A-Z][\w'’&-]*){{1,4}}"
)
_SENTENCE_START = re.compile(r"[.!?][\"'\u201d\u2019)\]]*\s+(?=[\"'\u201c\u2018(\[]?[A-Z0-9])")


def context_before(body: str, start: int | None, limit: int = CONTEXT_CHARS) -> str:
    """Whole sentences of `body` ending where a passage starts at `start`, at most `limit`
    characters; headings left out."""
    if not start or start <= 0:
        return ""
    return whole_sentences(body[max(0, start - limit) : start], mid_text=start > limit)


def whole_sentences(window: str, mid_text: bool) -> str:
    """The sentences of `window`, the text just before a passage, from the first one that
    starts in it when it begins `mid_text` (a sentence's tail is left out); headings left
    out."""
    if mid_text:
        cut = _SENTENCE_START.search(window)
        window = window[cut.end() :] if cut else ""
    lines = [line for line in window.splitlines() if not line.lstrip().startswith("#")]
    return "\n".join(lines).strip()


def names_part(start: int | None) -> tuple[int, int]:
    """The characters [from, to) of a document whose names go with a passage at `start`."""
    first = (start or 0) // NAMES_PART_CHARS * NAMES_PART_CHARS
    return first, first + NAMES_PART_CHARS


def part_names(part: str, first: bool) -> list[str]:
    """`document_names` of a part of a document (`names_part`): a part after the `first`
    starts after its first whitespace, a part that fills its size ends at its last one, so
    no word cut in two is read as a name."""
    last_space = max(part.rfind(" "), part.rfind("\n"))
    end = last_space if len(part) >= NAMES_PART_CHARS and last_space > 0 else len(part)
    begin = _SPACE.search(part, 0, end) if not first else None
    return document_names(part[begin.end() if begin else 0 : end])


def _after_capitalised_and(body: str, at: int) -> bool:
    """Whether `body` before `at` ends with a word holding a capital, then "and" between
    spaces ("Food and " before "Drug Administration"). Read backwards from `at` over
    only those words, so a scan of every name stays linear in the text (a regex anchored
    at `at` but searched from the start of the text made it quadratic)."""
    end = at
    while end > 0 and body[end - 1].isspace():
        end -= 1
    if end == at or body[end - 3 : end] != "and":
        return False
    word_end = end - 3
    while word_end > 0 and body[word_end - 1].isspace():
        word_end -= 1
    if word_end == end - 3:
        return False  # "and" ends a longer word ("Brand")
    i = word_end
    while i > 0 and _is_name_char(body[i - 1]):
        i -= 1
        if "A" <= body[i] <= "Z":
            return True
    return False


def _is_name_char(char: str) -> bool:
    """A character of `[\\w'’-]`, as the name patterns count word characters."""
    return char.isalnum() or char in "_'’-"


def document_names(text: str) -> list[str]:
    """The multi-word proper names of a document, in order of first use, so a passage
    that says only "Huarun" can be read as the "Changzhou Huarun Biochemical" the
    document introduced in another passage."""
    # A heading is written in title case: its words are not names.
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    found: dict[str, None] = {}
    # A line its writer broke (a heading, a byline, a table row) ends any name on it.
    breaks = sorted(sentence_starts(body))
    # The document's words in small letters: what a common word is written as somewhere.
    small = set(_LOWER_WORD.findall(body))
    for match in _PROPER_RUN.finditer(body):
        if _after_capitalised_and(body, match.start()):
            continue  # "Drug Administration" of "Food and Drug Administration": a tail
        # "1. Neon" heading the line "Veltrix Semiconductor sources ...": not one name.
        start = after_heading(body, match.start(), match.end())
        k = bisect.bisect_right(breaks, start)
        end = min(match.end(), breaks[k]) if k < len(breaks) else match.end()
        words = after_dates(LEADING_FUNCTION_WORDS.sub("", body[start:end]).split())
        if len(words) > 1 and _opens_sentence(body, start):
            # "- Only Senegal and Gambia have ...": a sentence's first word has its capital
            # anyway; one the document also writes in small letters is no part of a name.
            if words[0].lower() in small:
                words = words[1:]
        name = " ".join(words)
        if len(name.split()) > 1:
            found.setdefault(name, None)
            if len(found) == MAX_DOCUMENT_NAMES:
                break  # in order of first use: later ones would be cut off anyway
    names = list(found)
    singles = _repeated_single_names(body, names, small)
    return names + singles[: MAX_DOCUMENT_NAMES - len(names)]


_SPACE = re.compile(r"\s")
_CAPITALISED = re.compile(r"\b[A-Z][\w'’&-]+")
_LOWER_WORD = re.compile(r"\b[a-z][\w'’&-]*")


def _opens_sentence(body: str, at: int) -> bool:
    """Whether the word at `at` is a sentence's or a list item's first: after the text's
    start, a line break, a sentence's end or a bullet."""
    before = body[max(0, at - 8) : at].rstrip(" \t")
    return not before or before[-1] in "\n.!?:-*•"


def _repeated_single_names(body: str, longer: list[str], small: set[str]) -> list[str]:
    """One-word names ("Rijkswaterstaat", "Axpo") a document uses at least twice, once
    inside a sentence (a sentence's first word has its capital anyway), never in small
    letters, and that no longer name of it contains: what the whole document is about,
    for anchoring a passage that does not say it again. `small`: the document's words
    written in small letters."""
    counts: dict[str, int] = {}
    within: set[str] = set()
    for match in _CAPITALISED.finditer(body):
        word = match.group(0)
        counts[word] = counts.get(word, 0) + 1
        # The character before the word, spaces skipped: a scan back over only the
        # spaces before this match, so the whole loop stays linear in the text.
        at = match.start() - 1
        while at >= 0 and body[at].isspace():
            at -= 1
        if at >= 0 and body[at] not in ".!?\"'”’:":
            within.add(word)  # not a sentence's (or a quotation's) first word
    # A common word is written in small letters somewhere; a name never is.
    common = {w.lower() for w in small} | CALENDAR_WORDS
    inside = {w for name in longer for w in name.split()}
    return [
        w for w, n in counts.items()
        if n >= 2 and w in within and w.lower() not in common and w not in inside
    ]  # fmt: skip
