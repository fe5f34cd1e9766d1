"""Names spelled as no common word is: the entities a small NER model misses most.

Coined names of software, malware, standards, strains and products ("CycloneDX",
"openSUSE", "SUNBURST", "H5N1") are rare words the model never saw, so its NER leaves them
out and its tagger may not even call them nouns. Their spelling says they are names,
in any domain: a capital inside a word after a small letter, a whole word in capitals in
a sentence that is not itself in capitals, letters mixed with digits. Pure over a spaCy
parse; mining/nlp.py merges these spans after the NER's and the gazetteer's.
"""

from __future__ import annotations

import re
from typing import Any

# "CycloneDX", "openSUSE", "iMessage", "PassKit": a capital after a small letter.
_INNER_CAPITAL = re.compile(r"[a-z][A-Z]")
# "SUNBURST", "SVR": three or more capitals and nothing else.
_ALL_CAPITALS = re.compile(r"^[A-Z]{3,}$")
# "H5N1", "RX7B": letters and digits mixed, two letters at least, one a capital.
_LETTERS_AND_DIGITS = re.compile(r"^(?=(?:.*[A-Za-z]){2})(?=.*\d)(?=.*[A-Z])[A-Za-z0-9]{4,}$")
# The label nlp.mentions_in gives these spans (typed by their context, not by NER).
SHAPED_LABEL = "NAME"


def name_shaped(word: str) -> bool:
    """Whether a word's spelling alone marks it as a name."""
    return bool(
        _INNER_CAPITAL.search(word)
        or _ALL_CAPITALS.match(word)
        or _LETTERS_AND_DIGITS.match(word)
    )


def _shouting(sent: Any) -> bool:
    """A heading or banner in capitals, where capitals say nothing of names."""
    words = [t.text for t in sent if t.is_alpha and len(t.text) > 1]
    return sum(w.isupper() for w in words) * 2 >= len(words)


def shaped_names(doc: Any) -> list[tuple[int, int, str]]:
    """(start, end, label) character spans of name-shaped words, each with the proper
    nouns it is compounded into ("openSUSE Tumbleweed")."""
    spans: list[tuple[int, int, str]] = []
    for sent in doc.sents:
        if _shouting(sent):
            continue
        last = sent.start - 1
        for tok in sent:
            if tok.i <= last or not name_shaped(tok.text):
                continue
            end = tok.i
            # Right along the compound chain: "openSUSE Tumbleweed", not "SBOM rules".
            while (end + 1 < sent.end and doc[end].dep_ == "compound"
                   and doc[end].head.i == end + 1 and doc[end + 1].pos_ == "PROPN"):  # fmt: skip
                end += 1
            spans.append((tok.idx, doc[end].idx + len(doc[end]), SHAPED_LABEL))
            last = end
    return spans
