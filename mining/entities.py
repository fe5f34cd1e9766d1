"""Entity resolution: which DKG asset a name means, and which names are new entities.

Pure (no I/O): the DKG is consulted through a gazetteer (labels and aliases) and a
duplicate check passed in by the caller.

Resolution order for a name: an explicit link a resolver agent found (name -> UAL), the
UAL extraction already attached, then the DKG's labels and aliases by normalised name
(case, accents and legal forms like "Co., Ltd." ignored). A name left unresolved is a
*new entity* when it is a proper name (spaCy's NER, never a common noun phrase, which
extraction types `DefinedTerm`) of a kind worth an asset of its own: organisation, place,
product or event.
New names that one source writes short and another long ("Bikita Minerals", "Bikita
Minerals (Pvt) Ltd") or with an acronym ("Yacimientos de Litio Bolivianos (YLB)") are
merged into one entity with aliases.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from mining.extraction_patterns import Entry
from mining.memo import BoundedMemo
from mining.names import normalise_name, tokens, type_family
from mining.nlp import RESOLVERS_KEPT, gazetteer_digest, resolver_for
from mining.relevance import stem

NEW_ENTITY_FAMILIES = {
    "organization": "Organization",
    "place": "Place",
    "product": "Product",
    "event": "Event",
}
ENTITY_PREFIX = "urn:kminer:entity:"
# Phrases ("Chile's royalty reform") may name a DKG event or product whose label says more
# ("Chile lithium royalty reform proposal"): matched when every word of the phrase is in it.
# A phrase names a DKG asset of a kind it can be: an event phrase an event or a document,
# a thing ("raw lithium ore") a product.
PHRASE_TARGETS = {
    "event": frozenset({"event", "creativework"}),
    "concept": frozenset({"product"}),
    "product": frozenset({"product"}),
}
PHRASE_FAMILIES = frozenset().union(*PHRASE_TARGETS.values())
MIN_PHRASE_WORDS = 2
# Words that end a noun phrase's head: "dispute" in "long dispute with the state company".
_HEAD_ENDS = frozenset("of on in with for to against by from over at between".split())


def phrase_words(text: str) -> frozenset[str]:
    """Content words of a phrase, possessives dropped ("Chile's" -> "chile")."""
    return tokens(re.sub(r"['’]s\b", "", text))


@dataclass
class EntityRef:
    """One end of a claim: a DKG asset (ual) or a new entity (id) or a plain concept."""

    name: str
    type: str
    ual: str | None = None
    new_id: str | None = None
    aliases: list[str] = field(default_factory=list)

    @property
    def key(self) -> str:
        return self.ual or self.new_id or f"concept:{normalise_name(self.name)}"

    @property
    def family(self) -> str:
        return type_family(self.type)


def head_word(text: str) -> str:
    """The head noun of a phrase, stemmed: the last word before its first preposition."""
    words = re.findall(r"[\w-]+", re.sub(r"['’]s\b", "", text.lower()))
    cut = next((i for i, w in enumerate(words) if w in _HEAD_ENDS and i), len(words))
    return stem(words[cut - 1]) if cut else ""


def _is_phrase(name: str) -> bool:
    """A descriptive phrase ("Chile's royalty reform"), not a proper name of its own."""
    words = name.split()
    return any(w[:1].islower() for w in words[1:]) and not name.isupper()


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", normalise_name(text)).strip("-")[:60] or "entity"


def new_entity_id(name: str, family: str) -> str:
    digest = hashlib.sha256(f"{family}|{normalise_name(name)}".encode()).hexdigest()[:8]
    return f"{ENTITY_PREFIX}{family}:{slug(name)}-{digest}"


def _acronym(name: str) -> str:
    return "".join(w[0] for w in re.findall(r"[A-Za-zÀ-ÿ]+", name) if w[0].isupper())


def _spelled_by_initials(short: str, full: str) -> bool:
    """'YLB' for 'Yacimientos de Litio Bolivianos': capitals spelling the other's initials."""
    return len(short) >= 2 and short.isupper() and _acronym(full) == short


def named_alike(name: str, label: str) -> bool:
    """Whether a name and a DKG label can name one thing: a content word in common
    ("Beznau" / "Beznau Nuclear Power Plant"), or one spelled by the other's initials
    ("EDF" / "Electricite De France")."""
    if phrase_words(name) & phrase_words(label):
        return True
    return _spelled_by_initials(name, label) or _spelled_by_initials(label, name)


def merge_aliases(names: list[tuple[str, str]]) -> dict[str, str]:
    """Map each (name, family) of new entities to the name that represents its entity.

    Same family, and either the same normalised name, one name's words a leading part of
    the other's ("Bikita" / "Bikita Minerals"), or one the acronym of the other.
    The longest name wins, so the canonical name is the most specific.
    """
    ordered = sorted(set(names), key=lambda nf: (-len(nf[0]), nf[0]))
    canonical: dict[str, str] = {}
    chosen: list[tuple[str, str]] = []
    for name, family in ordered:
        norm = normalise_name(name).split()
        target = name
        for long_name, long_family in chosen:
            if long_family != family:
                continue
            long_norm = normalise_name(long_name).split()
            # "Bikita" for "Bikita Minerals" is a short form; "gallium" for "gallium
            # arsenide substrates" is another thing: only a proper name is shortened.
            if norm == long_norm[: len(norm)] and norm and name[:1].isupper():
                target = long_name
                break
            if _spelled_by_initials(name, long_name):
                target = long_name
                break
        if target == name:
            chosen.append((name, family))
        canonical[name] = target
    return canonical


@dataclass(frozen=True)
class GazetteerTables:
    """The gazetteer read for claim ends: entries by UAL (the best-staked first entry of
    each), and the event and product labels' words for phrase matching."""

    by_ual: dict[str, Entry]
    phrases: list[tuple[frozenset[str], str, Entry]]

    @classmethod
    def of(cls, gazetteer: list[Entry]) -> GazetteerTables:
        return cls(
            by_ual={ual: (label, ual, typ) for label, ual, typ in reversed(gazetteer)},
            phrases=[
                (phrase_words(label), type_family(typ), (label, ual, typ))
                for label, ual, typ in gazetteer
                if type_family(typ) in PHRASE_FAMILIES
            ],
        )


_tables: BoundedMemo[str, GazetteerTables] = BoundedMemo(RESOLVERS_KEPT)


class EntityResolver:
    """Resolves claim ends against the DKG; remembers the new entities it saw."""

    def __init__(
        self,
        gazetteer: list[tuple[str, str, str]],
        links: dict[str, str],
        concerning: Callable[[str], list[tuple[str, str, str]]] | None = None,
        places_of: Callable[[str], set[str]] | None = None,
        digest: str | None = None,
    ) -> None:
        self._concerning = concerning
        self._places_of = places_of
        # What only the gazetteer decides is built once per gazetteer state and shared
        # (read-only) by every proposal against it; the links are this call's. `digest`:
        # the gazetteer's, when the caller has it.
        digest = digest or gazetteer_digest(gazetteer)
        self._names = resolver_for(gazetteer, digest)
        tables = _tables.get(digest, lambda: GazetteerTables.of(gazetteer))
        self._by_ual = tables.by_ual
        self._phrases = tables.phrases
        self._links = {normalise_name(k): v for k, v in links.items() if isinstance(v, str)}

    def _phrase(self, name: str, family: str) -> tuple[str, str, str] | None:
        """The DKG event/product whose label contains every word of a phrase, fewest extra."""
        targets = PHRASE_TARGETS.get(family)
        if targets is None:
            return None
        words = phrase_words(name)
        if len(words) < MIN_PHRASE_WORDS:
            return None
        best: tuple[int, tuple[str, str, str]] | None = None
        for label_words, label_family, entry in self._phrases:
            if label_family in targets and words <= label_words:
                extra = len(label_words - words)
                if best is None or extra < best[0]:
                    best = (extra, entry)
        return best[1] if best else None

    def _event_of(self, name: str, partner: str | None) -> tuple[str, str, str] | None:
        """The one DKG event about `partner` with the phrase's head noun: "a long dispute
        with the state company Cominière" that affected AVZ is the DKG's "Manono lithium
        licence dispute" about AVZ. None when none or several fit."""
        if partner is None or self._concerning is None:
            return None
        head = head_word(name)
        events = PHRASE_TARGETS["event"]
        fits = [e for e in self._concerning(partner)
                if type_family(e[2]) in events and head_word(e[0]) == head]  # fmt: skip
        return fits[0] if head and len(fits) == 1 else None

    def state_of(self, end: EntityRef) -> EntityRef | None:
        """The country a government body acts for, when the DKG places it in exactly one:
        an export ban by "MOFCOM" is China's (`mining/relations.py` STATE_ACTIONS)."""
        if end.ual is None or self._places_of is None or type_family(end.type) != "organization":
            return None
        if "government" not in end.type.lower():
            return None
        countries = [self._by_ual[u] for u in sorted(self._places_of(end.ual))
                     if u in self._by_ual and self._by_ual[u][2].lower() == "country"]  # fmt: skip
        if len(countries) != 1:
            return None
        label, ual, typ = countries[0]
        return EntityRef(label, typ, ual=ual)

    def known(self, name: str) -> tuple[str, str, str] | None:
        """(label, ual, type) of the DKG asset a name means, by label or alias, else by a
        link the DKG's label bears out (`named_alike`). A small model links names to
        whatever UAL it saw: taken as given, such links make one entity of several (11
        statements that give 18 candidates gave 6 with every name linked to one asset)."""
        found = self._names.resolve(name)
        if found is not None:
            return found
        ual = self._links.get(normalise_name(name))
        if ual and ual in self._by_ual and named_alike(name, self._by_ual[ual][0]):
            return self._by_ual[ual]
        return None

    def ref(
        self, name: str, typ: str | None, ual: str | None, partner: str | None = None
    ) -> EntityRef:
        """The claim end for a statement's subject or object; `partner`: the UAL of the
        claim's other end, when known."""
        if ual and ual in self._by_ual:
            label, ual, known_type = self._by_ual[ual]
            return EntityRef(label, known_type, ual=ual)
        found = self.known(name)
        if found is not None:
            return EntityRef(found[0], found[2], ual=found[1])
        typ = typ or "Thing"
        family = type_family(typ)
        phrase = self._phrase(name, family)
        if phrase is None and family == "event":
            phrase = self._event_of(name, partner)
        if phrase is not None:
            return EntityRef(phrase[0], phrase[2], ual=phrase[1], aliases=[name])
        if family in NEW_ENTITY_FAMILIES and not _is_phrase(name):
            return EntityRef(name, typ, new_id=new_entity_id(name, family))
        return EntityRef(name, typ)
