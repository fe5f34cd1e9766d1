"""In-memory name index over the DKG: related-asset lookup, duplicates, gazetteer.

SPARQL regex/CONTAINS over every label would scan the whole store on each call;
with 100k assets that is far too slow for an agent tool called many times per
run. This index keeps normalised names, tokens and identifiers in dictionaries
so a lookup touches only the postings of the query's words.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

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
}
_SUBSTRING_HIT_CAP = 2000
_COMMON_POSTING = 5000


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()


def normalise_label(text: str) -> str:
    """Lowercase, accents and punctuation removed, whitespace collapsed."""
    folded = _fold(text)
    # Dots and apostrophes join ("S.A." -> "sa"); other punctuation separates words.
    folded = re.sub(r"[.'\u2019]", "", folded)
    return " ".join(re.sub(r"[^\w\s]|_", " ", folded).split())


def normalise_name(text: str) -> str:
    """normalise_label without trailing legal-form words (Co., Ltd., Inc., S.A. ...)."""
    words = normalise_label(text).split()
    while len(words) > 1 and (words[-1] in LEGAL_SUFFIXES or words[-1] == "and"):
        words.pop()
    return " ".join(words)


def tokens(text: str) -> frozenset[str]:
    return frozenset(
        w
        for w in normalise_label(text).split()
        if len(w) > 1 and w not in _STOPWORDS and w not in LEGAL_SUFFIXES
    )


def type_family(type_name: str) -> str:
    local = type_name.rsplit("/", 1)[-1].rsplit("#", 1)[-1].lower()
    return _TYPE_FAMILY.get(local, local)


def _strings(value: Any) -> list[str]:
    """Plain strings out of a JSON-LD value: str, value object, PropertyValue, list."""
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    if isinstance(value, dict):
        for key in ("@value", "value", "@id", "name"):
            if key in value:
                return _strings(value[key])
    if isinstance(value, int | float) and not isinstance(value, bool):
        return [str(value)]
    return []


def asset_types(asset: dict[str, Any]) -> list[str]:
    raw = asset.get("@type")
    items = raw if isinstance(raw, list) else [raw]
    return [t.rsplit("/", 1)[-1].split(":")[-1] for t in items if isinstance(t, str) and t]


@dataclass
class IndexEntry:
    ual: str
    label: str
    type: str
    stake: float
    names: list[str] = field(default_factory=list)
    identifiers: list[str] = field(default_factory=list)
    families: frozenset[str] = frozenset()
    name_tokens: list[frozenset[str]] = field(default_factory=list)


def entry_from_asset(ual: str, asset: dict[str, Any], stake: float) -> IndexEntry:
    names = _strings(asset.get("name")) + _strings(asset.get("alternateName"))
    types = asset_types(asset)
    return IndexEntry(
        ual=ual,
        label=names[0] if names else ual,
        type=types[0] if types else "Thing",
        stake=stake,
        names=list(dict.fromkeys(names)),
        identifiers=_strings(asset.get("identifier")),
        families=frozenset(type_family(t) for t in types),
        name_tokens=[tokens(n) for n in dict.fromkeys(names)],
    )


@dataclass
class Match:
    entry: IndexEntry
    score: float


class LabelIndex:
    """Postings from names, tokens and identifiers to UALs."""

    def __init__(self) -> None:
        self.entries: dict[str, IndexEntry] = {}
        self._exact: dict[str, set[str]] = {}
        self._name: dict[str, set[str]] = {}
        self._tokens: dict[str, set[str]] = {}
        self._ids: dict[str, set[str]] = {}
        self._typed_names: dict[tuple[str, str], set[str]] = {}
        self._sub_names: list[tuple[str, str]] = []
        self._blob: str | None = None
        self._starts: list[int] = []
        self._gazetteer: list[tuple[str, str, str]] | None = None

    def __len__(self) -> int:
        return len(self.entries)

    def add(self, entry: IndexEntry) -> None:
        self.entries[entry.ual] = entry
        for name in entry.names:
            label = normalise_label(name)
            if not label:
                continue
            self._exact.setdefault(label, set()).add(entry.ual)
            plain = normalise_name(name)
            self._name.setdefault(plain, set()).add(entry.ual)
            for family in entry.families:
                self._typed_names.setdefault((family, plain), set()).add(entry.ual)
            for tok in tokens(name):
                self._tokens.setdefault(tok, set()).add(entry.ual)
            self._sub_names.append((label, entry.ual))
        for ident in entry.identifiers:
            key = ident.strip().lower()
            self._ids.setdefault(key, set()).add(entry.ual)
            self._exact.setdefault(normalise_label(ident), set()).add(entry.ual)
        self._blob = None
        self._gazetteer = None

    def related(self, text: str, limit: int, types: Iterable[str] | None = None) -> list[Match]:
        query = normalise_label(text)
        if not query:
            return []
        scores: dict[str, float] = {}

        def offer(ual: str, score: float) -> None:
            if score > scores.get(ual, 0.0):
                scores[ual] = score

        for ual in self._exact.get(query, ()):
            offer(ual, 1.0)
        for ual in self._ids.get(text.strip().lower(), ()):
            offer(ual, 1.0)
        for ual in self._name.get(normalise_name(text), ()):
            offer(ual, 0.9)
        self._token_matches(text, limit, offer)
        if len(query) >= 3:
            for label, ual in self._substring_hits(query):
                offer(ual, 0.1 + 0.25 * len(query) / max(len(label), 1))
        wanted = {type_family(t) for t in types} if types else None
        matches = [
            Match(self.entries[ual], score)
            for ual, score in scores.items()
            if wanted is None or self.entries[ual].families & wanted
        ]
        matches.sort(key=lambda m: (-m.score, -m.entry.stake, m.entry.label))
        return matches[:limit]

    def _token_matches(
        self, text: str, limit: int, offer: Callable[[str, float], None]
    ) -> None:
        query_tokens = tokens(text)
        postings = sorted((self._tokens.get(t, set()) for t in query_tokens), key=len)
        postings = [p for p in postings if p]
        if not postings:
            return
        # Words shared by a large part of the index ("lithium", "group") would make every
        # lookup touch most assets: candidates come from the rarest word, and more common
        # words only widen the set while it is small.
        candidates: set[str] = set()
        for posting in postings:
            if candidates and (len(posting) > _COMMON_POSTING or len(candidates) >= limit * 20):
                break
            candidates |= posting
        for ual in candidates:
            best = 0.0
            for name_tokens in self.entries[ual].name_tokens:
                union = query_tokens | name_tokens
                if union:
                    best = max(best, len(query_tokens & name_tokens) / len(union))
            if best:
                offer(ual, 0.4 + 0.45 * best)

    def _substring_hits(self, query: str) -> list[tuple[str, str]]:
        if self._blob is None:
            # One joined string lets str.find (C speed) do the scanning.
            self._starts = []
            offset = 0
            for label, _ in self._sub_names:
                self._starts.append(offset)
                offset += len(label) + 1
            self._blob = "\n".join(label for label, _ in self._sub_names)
        hits: list[tuple[str, str]] = []
        pos = self._blob.find(query)
        while pos != -1 and len(hits) < _SUBSTRING_HIT_CAP:
            i = bisect_right(self._starts, pos) - 1
            hits.append(self._sub_names[i])
            pos = self._blob.find(query, self._starts[i] + len(self._sub_names[i][0]) + 1)
        return hits

    def duplicates(self, asset: dict[str, Any]) -> list[tuple[str, str]]:
        """(ual, reason) for existing assets sharing an identifier or type + name."""
        found: dict[str, str] = {}
        for ident in _strings(asset.get("identifier")):
            for ual in sorted(self._ids.get(ident.strip().lower(), ())):
                found.setdefault(ual, "same identifier")
        families = {type_family(t) for t in asset_types(asset)}
        names = _strings(asset.get("name")) + _strings(asset.get("alternateName"))
        for family in sorted(families):
            for name in names:
                for ual in sorted(self._typed_names.get((family, normalise_name(name)), ())):
                    found.setdefault(ual, "same type and name")
        # Identifier matches are the strongest evidence; then trust the better-staked asset.
        return sorted(
            found.items(),
            key=lambda kv: (kv[1] != "same identifier", -self.entries[kv[0]].stake, kv[0]),
        )

    def gazetteer(self) -> list[tuple[str, str, str]]:
        if self._gazetteer is None:
            rows = {
                (name, entry.ual, entry.type)
                for entry in self.entries.values()
                for name in entry.names
            }
            self._gazetteer = sorted(rows, key=lambda r: (-len(r[0]), r[0], r[1]))
        return list(self._gazetteer)
