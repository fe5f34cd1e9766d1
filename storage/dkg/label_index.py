"""In-memory name index over the DKG: related-asset lookup, duplicates, gazetteer.

SPARQL regex/CONTAINS over every label would scan the whole store on each call;
with 100k assets that is far too slow for an agent tool called many times per
run. This index keeps normalised names, tokens and identifiers in dictionaries
so a lookup touches only the postings of the query's words.
"""

from __future__ import annotations

import gc
from bisect import bisect_right, insort
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from mining.names import (
    label_tokens,
    normalise_label,
    normalise_name,
    strip_legal,
    tokens,
    type_family,
)

_SUBSTRING_HIT_CAP = 2000


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
    norm_names: list[str] = field(default_factory=list)
    shortest: int = 99  # fewest words among its names: ranks one-word matches
    node_id: str | None = None  # its JSON-LD "@id", by which other assets point at it
    about: list[str] = field(default_factory=list)  # "@id"s or identifiers it is about
    places: list[str] = field(default_factory=list)  # "@id"s or identifiers of where it is


# schema.org properties by which an asset (an event, a report) names what it concerns.
ABOUT_KEYS = ("about", "participant", "organizer")
# ... and where an asset is.
PLACE_KEYS = ("location", "containedInPlace")
# How many "is in" steps `LabelIndex.places_of` follows (site -> region -> country).
PLACE_DEPTH = 3


def entry_from_asset(ual: str, asset: dict[str, Any], stake: float) -> IndexEntry:
    names = list(dict.fromkeys(_strings(asset.get("name")) + _strings(asset.get("alternateName"))))
    types = asset_types(asset)
    labels = [normalise_label(n) for n in names]
    name_tokens = [label_tokens(label) for label in labels]
    return IndexEntry(
        ual=ual,
        label=names[0] if names else ual,
        type=types[0] if types else "Thing",
        stake=stake,
        names=names,
        identifiers=_strings(asset.get("identifier")),
        families=frozenset(type_family(t) for t in types),
        name_tokens=name_tokens,
        norm_names=labels,
        shortest=min((len(t) for t in name_tokens), default=99),
        node_id=asset.get("@id") if isinstance(asset.get("@id"), str) else None,
        about=[a for key in ABOUT_KEYS for a in _strings(asset.get(key))],
        places=_places(asset),
    )


def _places(asset: dict[str, Any]) -> list[str]:
    """References to where an asset is: its location, the place containing it, and its
    address's country as the ISO 3166 identifier countries carry ("ISO3166-1:GB")."""
    refs = [p for key in PLACE_KEYS for p in _strings(asset.get(key))]
    address = asset.get("address")
    if isinstance(address, dict):
        refs += [f"ISO3166-1:{c.upper()}" for c in _strings(address.get("addressCountry"))
                 if len(c) == 2]  # fmt: skip
    return refs


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
        self._blob_len = 0
        self._gazetteer: list[tuple[str, str, str]] | None = None
        self._ranked: dict[str, list[str]] = {}
        self._concerning: dict[str, list[str]] | None = None
        self._nodes: dict[str, set[str]] | None = None

    def __len__(self) -> int:
        return len(self.entries)

    def add(self, entry: IndexEntry) -> None:
        self.entries[entry.ual] = entry
        for label, name_tokens in zip(entry.norm_names, entry.name_tokens, strict=True):
            if not label:
                continue
            self._exact.setdefault(label, set()).add(entry.ual)
            plain = strip_legal(label)
            self._name.setdefault(plain, set()).add(entry.ual)
            for family in entry.families:
                self._typed_names.setdefault((family, plain), set()).add(entry.ual)
            for tok in name_tokens:
                self._tokens.setdefault(tok, set()).add(entry.ual)
                if tok in self._ranked:
                    # Keep the cached order valid instead of re-sorting a huge posting.
                    insort(self._ranked[tok], entry.ual, key=self._rank_key)
            self._starts.append(self._blob_len)
            self._blob_len += len(label) + 1
            self._sub_names.append((label, entry.ual))
        for ident in entry.identifiers:
            key = ident.strip().lower()
            self._ids.setdefault(key, set()).add(entry.ual)
            self._exact.setdefault(normalise_label(ident), set()).add(entry.ual)
        self._blob = None
        self._gazetteer = None
        self._concerning = None
        self._nodes = None

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

    def _token_matches(self, text: str, limit: int, offer: Callable[[str, float], None]) -> None:
        query_tokens = tokens(text)
        postings = sorted(
            ((t, self._tokens[t]) for t in query_tokens if t in self._tokens),
            key=lambda tp: len(tp[1]),
        )
        budget = limit * 20
        # Assets that carry every query word score highest; the set intersection runs
        # at C speed, so start from it and only then widen to single-word postings.
        candidates: set[str] = set()
        if len(postings) > 1:
            candidates = set.intersection(*(posting for _, posting in postings))
        if len(candidates) < limit:
            for tok, posting in postings:
                room = budget - len(candidates)
                if room <= 0:
                    break
                # Scoring is the Python loop below: a word shared by many assets adds only
                # its best-ranked few (shortest names, highest stake), which are the ones
                # that would win a query on that word anyway.
                if len(posting) <= room:
                    candidates |= posting
                else:
                    candidates.update(self._ranked_posting(tok)[:room])
        for ual in candidates:
            best = 0.0
            for name_tokens in self.entries[ual].name_tokens:
                union = query_tokens | name_tokens
                if union:
                    best = max(best, len(query_tokens & name_tokens) / len(union))
            if best:
                offer(ual, 0.4 + 0.45 * best)

    def _rank_key(self, ual: str) -> float:
        # One float (fewest words first, then highest stake) sorts far faster than a tuple.
        entry = self.entries[ual]
        return entry.shortest * 1e13 - entry.stake

    def _ranked_posting(self, tok: str) -> list[str]:
        ranked = self._ranked.get(tok)
        if ranked is None:
            ranked = self._ranked[tok] = sorted(self._tokens[tok], key=self._rank_key)
        return ranked

    def _substring_hits(self, query: str) -> list[tuple[str, str]]:
        if self._blob is None:
            # One joined string lets str.find (C speed) do the scanning.
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

    def concerning(self, ual: str) -> list[tuple[str, str, str]]:
        """(label, ual, type) of the assets that are about the asset `ual` (events naming
        it as what they concern or a participant), by their identifiers."""
        if self._concerning is None:
            by_target: dict[str, list[str]] = {}
            for entry in self.entries.values():
                for ref in entry.about:
                    for target in self._target(ref):
                        by_target.setdefault(target, []).append(entry.ual)
            self._concerning = by_target
        found = (self.entries[u] for u in self._concerning.get(ual, ()))
        return [(e.label, e.ual, e.type) for e in found]

    def _target(self, ref: str) -> set[str]:
        """The UALs a reference inside an asset points at, by "@id" or identifier."""
        if self._nodes is None:
            self._nodes = {}
            for entry in self.entries.values():
                if entry.node_id:
                    self._nodes.setdefault(entry.node_id.strip().lower(), set()).add(entry.ual)
        key = ref.strip().lower()
        return self._nodes.get(key, set()) | self._ids.get(key, set())

    def places_of(self, ual: str) -> set[str]:
        """UALs of the places an asset is in, following "is in" links `PLACE_DEPTH` deep
        (a mine in Western Australia is in Australia too)."""
        found: set[str] = set()
        frontier = {ual}
        for _ in range(PLACE_DEPTH):
            nxt = {t for u in frontier if u in self.entries
                   for ref in self.entries[u].places for t in self._target(ref)}  # fmt: skip
            frontier = nxt - found - {ual}
            found |= frontier
            if not frontier:
                break
        return found

    def gazetteer(self) -> list[tuple[str, str, str]]:
        if self._gazetteer is None:
            rows = {
                (name, entry.ual, entry.type, entry.stake)
                for entry in self.entries.values()
                for name in entry.names
            }
            # Longest first for greedy mention matching; for one label shared by several
            # assets, the best-staked comes first so "first wins" picks the trusted one.
            ordered = sorted(rows, key=lambda r: (-len(r[0]), r[0], -r[3], r[1]))
            self._gazetteer = [(name, ual, type_) for name, ual, type_, _ in ordered]
        return list(self._gazetteer)


def build_index(entries: Iterable[IndexEntry]) -> LabelIndex:
    """Index many entries at once (the lazy build over a whole store)."""
    index = LabelIndex()
    # Hundreds of thousands of small sets and dataclasses make the cyclic GC rescan the
    # growing heap again and again; nothing here forms cycles, so pause it meanwhile.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        for entry in entries:
            index.add(entry)
    finally:
        if was_enabled:
            # The index lives as long as the store: move it out of the collector's
            # generations so later collections do not rescan it mid-lookup.
            gc.freeze()
            gc.enable()
    return index
