"""Name normalisation shared by the DKG's label index, entity resolution and extraction:
labels folded to lowercase ASCII words, legal forms stripped, types folded into families."""

from __future__ import annotations

import re
import unicodedata

LEGAL_SUFFIXES = frozenset(
    "inc incorporated ltd limited corp corporation co company llc plc gmbh sa ag nv bv "
    "spa sas srl pty se ab asa oyj kgaa lp llp".split()
)
_STOPWORDS = frozenset("the of and de del la el y for in on at to a an".split())
# Subtypes are folded into a family so a candidate typed Organization is still
# compared with a seeded Corporation, a Place with a Country, and so on.
_TYPE_FAMILY = {
    "corporation": "organization",
    "governmentorganization": "organization",
    "ngo": "organization",
    "researchorganization": "organization",
    "educationalorganization": "organization",
    "medicalorganization": "organization",
    "country": "place",
    "city": "place",
    "administrativearea": "place",
    "landform": "place",
    "state": "place",
    "dataset": "creativework",
    "report": "creativework",
    "article": "creativework",
    "medicaltrial": "medicalstudy",
    "definedterm": "concept",
    "legislation": "creativework",
}


_JOINERS = re.compile(r"[.'\u2019]")
_SEPARATORS = re.compile(r"[^\w\s]|_")


def _fold(text: str) -> str:
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()


def normalise_label(text: str) -> str:
    """Lowercase, accents and punctuation removed, whitespace collapsed."""
    # Dots and apostrophes join ("S.A." -> "sa"); other punctuation separates words.
    return " ".join(_SEPARATORS.sub(" ", _JOINERS.sub("", _fold(text))).split())


def strip_legal(label: str) -> str:
    words = label.split()
    while len(words) > 1 and (words[-1] in LEGAL_SUFFIXES or words[-1] == "and"):
        words.pop()
    return " ".join(words)


def label_tokens(label: str) -> frozenset[str]:
    return frozenset(
        w for w in label.split() if len(w) > 1 and w not in _STOPWORDS and w not in LEGAL_SUFFIXES
    )


def normalise_name(text: str) -> str:
    """normalise_label without trailing legal-form words (Co., Ltd., Inc., S.A. ...)."""
    return strip_legal(normalise_label(text))


def tokens(text: str) -> frozenset[str]:
    return label_tokens(normalise_label(text))


def type_family(type_name: str) -> str:
    local = type_name.rsplit("/", 1)[-1].rsplit("#", 1)[-1].lower()
    return _TYPE_FAMILY.get(local, local)
