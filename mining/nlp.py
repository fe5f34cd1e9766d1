"""Entity mentions in text: the DKG gazetteer merged with spaCy's named entities.

The gazetteer (DKG labels and aliases) is precise but only knows what the DKG knows;
spaCy's small English NER finds organisations, places, products and events nobody
listed, with mistakes (companies tagged PERSON, a country tagged ORG). So:
- a gazetteer match always wins where the two overlap;
- an NER span is resolved against the DKG by its normalised name (alias-aware, legal
  suffixes ignored) before it counts as new;
- the type of an unknown name comes from its own words (``Mining``, ``Group``, ``mine``,
  ``project``...) before spaCy's label, because those words are more reliable;
- later, corroboration across sources decides what is worth proposing.

The spaCy parse is mining/parsing.py; a mention and its short forms, mining/mentions.py.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Any

from mining.aliases import aliased
from mining.extraction_patterns import Gazetteer, find_mentions
from mining.memo import BoundedMemo
from mining.mentions import (
    NAME_JOINERS,
    Mention,
    _bare_short_forms,
    _names_more,
    named_after_goods,
    short_forms,
)
from mining.name_runs import (
    CALENDAR_WORDS,
    LEADING_FUNCTION_WORDS,
    apposed_kind,
    apposed_names,
    coordinated_names,
    cut_by_ner,
    designation_end,
    document_words,
    joining_hyphen,
    owns_its_possessive,
    placed_names,
    places_set_off,
)
from mining.name_shapes import SHAPED_LABEL, shaped_names
from mining.names import normalise_label, normalise_name, type_family
from mining.parsing import after_heading, parse
from mining.relation_lexicon import SITE_NOUNS

# spaCy label -> (type family, schema.org type); labels not listed are ignored.
NER_TYPES = {
    "ORG": ("organization", "Organization"),
    "GPE": ("place", "Place"),
    "LOC": ("place", "Place"),
    "FAC": ("place", "Place"),
    "PRODUCT": ("product", "Product"),
    "EVENT": ("event", "Event"),
    "LAW": ("creativework", "Legislation"),
    "PERSON": ("person", "Person"),
    # Spelled as a name, typed by nothing else (mining/name_shapes.py).
    SHAPED_LABEL: ("concept", "DefinedTerm"),
}
# Words that make a capitalised name an organisation whatever spaCy said.
ORG_WORDS = frozenset(
    """administration agency airlines alliance association authority bank biotech board
    bureau capital chemical chemicals co commission committee company consortium
    cooperative cooperativa coop corp corporation council department directorate energy
    enterprises foundation fund group holdings inc industries institute international
    laboratories labs limited llc logistics ltd materials metals minerals mining
    ministry motors network office organisation organization partners pharma
    pharmaceutical pharmaceuticals plc power resources services shipping solutions
    systems technologies therapeutics trust university utility utilities ventures firm
    """.split()
)
# A commodity word ending a proper name usually names a producer ("Huayou Cobalt").
COMMODITY_WORDS = frozenset(
    "lithium cobalt nickel copper gold silver iron steel oil gas uranium zinc aluminium "
    "aluminum graphite coal potash rare earths".split()
)
PLACE_WORDS = frozenset(
    """basin bay city coast county deposit desert district field island lake mine mines
    mountain port province region reserve river salar site state strait territory valley
    plant refinery project""".split()
)
_TRAILING = re.compile(r"(?:['’]s|['’]|[\s,.;:]+)$")
MAX_NAME_WORDS = 8


class Resolver:
    """Name -> DKG entry: the exact label or alias first, then with legal forms ignored.

    "SQM" is the alias of one asset and "SQM S.A." the label of another: the exact
    spelling decides before "S.A." is dropped.
    """

    def __init__(self, gazetteer: Gazetteer) -> None:
        self._exact: dict[str, tuple[str, str, str]] = {}
        self._by_name: dict[str, tuple[str, str, str]] = {}
        for label, ual, typ in gazetteer:
            # The gazetteer lists the best-staked asset first for a shared label.
            self._exact.setdefault(normalise_label(label), (label, ual, typ))
            self._by_name.setdefault(normalise_name(label), (label, ual, typ))

    def resolve(self, name: str) -> tuple[str, str, str] | None:
        exact = self._exact.get(normalise_label(name))
        if exact is not None:
            return exact
        key = normalise_name(name)
        return self._by_name.get(key) if key else None


def gazetteer_digest(gazetteer: Gazetteer) -> str:
    """A digest of every (label, UAL, type) in order: equal only for the same gazetteer."""
    h = hashlib.blake2b(digest_size=20)
    for label, ual, typ in gazetteer:
        h.update(f"{label}\x1f{ual}\x1f{typ}\x1e".encode())
    return h.hexdigest()


# A gazetteer changes only when an asset is published; the few last states are enough.
RESOLVERS_KEPT = 8
_resolvers: BoundedMemo[str, Resolver] = BoundedMemo(RESOLVERS_KEPT)


def resolver_for(gazetteer: Gazetteer, digest: str | None = None) -> Resolver:
    """The `Resolver` of this gazetteer, built once per process for each gazetteer state
    (`digest`: its `gazetteer_digest`, when the caller has it). A resolver is read-only
    once built, so every activity thread may share it."""
    key = digest or gazetteer_digest(gazetteer)
    return _resolvers.get(key, lambda: Resolver(gazetteer))


def _clean(text: str) -> str:
    text = _TRAILING.sub("", text.strip())
    return LEADING_FUNCTION_WORDS.sub("", text).strip()


def _common_noun(word: str) -> bool:
    """Whether a word, lower-cased and alone, reads as a common noun ("gases", "works")."""
    if word not in _noun_cache:
        doc = parse(word.lower())
        _noun_cache[word] = len(doc) == 1 and doc[0].pos_ == "NOUN"
    return _noun_cache[word]


_noun_cache: dict[str, bool] = {}


def infer_type(words: str, label: str, next_word: str = "") -> tuple[str, str]:
    """(family, schema type) of an unknown name from its words, then spaCy's label.

    spaCy often tags companies PERSON; a "person" whose last word is a common noun
    ("Lindqvist Industrial Gases", "Kaneshiro Wafer Works") is read as an organisation.
    """
    tokens = [t.lower() for t in re.findall(r"[\w']+", words)]
    if tokens and (tokens[-1] in ORG_WORDS or any(t in ORG_WORDS for t in tokens[:-1])):
        return "organization", "Organization"
    if len(tokens) > 1 and tokens[-1] in COMMODITY_WORDS:
        return "organization", "Organization"
    if (tokens and tokens[-1] in PLACE_WORDS) or next_word.lower() in PLACE_WORDS:
        return "place", "Place"
    if label in ("PERSON", "ORG", "") and len(tokens) > 1 and _common_noun(tokens[-1]):
        return "organization", "Organization"
    return NER_TYPES.get(label, ("concept", "Thing"))


# Nouns for a site whose "in"/"at" phrase says where it is ("a plant in Kundl"): the sites
# an organisation operates, less the words that also end names ("Tirol Penicillin Works").
SITE_HEADS = (SITE_NOUNS - {"works", "operation", "operations"}) | {
    "warehouses",
    "office",
    "offices",
    "port",
}


def _at_a_site(span: Any) -> bool:
    """Whether a name is where a site is: "a fermentation plant in Kundl" (spaCy guessed
    a product)."""
    if span is None:
        return False
    prep = span.root.head
    return (
        span.root.dep_ == "pobj" and prep.lower_ in ("in", "at") and prep.head.lower_ in SITE_HEADS
    )


def _ner_spans(doc: Any) -> list[tuple[int, int, str]]:
    """(start, end, label) of NER entities, split at coordinations spaCy glued together."""
    spans: list[tuple[int, int, str]] = []
    for ent, label in _glued(doc, doc.ents):
        if label == "NORP" and _named_party(ent):
            label = "ORG"
        if label not in NER_TYPES:
            continue
        start = ent.start
        for tok in ent:
            if tok.dep_ == "cc" and _one_name_across(doc[start : tok.i], doc[tok.i + 1 : ent.end]):
                continue
            if tok.dep_ == "cc" or tok.text == ",":
                if start < tok.i:
                    spans.append((doc[start].idx, doc[tok.i - 1].idx + len(doc[tok.i - 1]), label))
                start = tok.i + 1
        if start < ent.end:
            last = doc[ent.end - 1]
            spans.append((doc[start].idx, last.idx + len(last), label))
    return spans


def _one_name_across(left: Any, right: Any) -> bool:
    """Whether "and" joins two parts of one name ("Food and Drug Administration",
    "Department of Health and Human Services"), not two names ("Pilbara Minerals and
    Mineral Resources"): only the last part says what the whole is."""

    def kind_word(part: Any) -> bool:
        return bool(len(part)) and part[-1].lower_ in ORG_WORDS | COMMODITY_WORDS

    return len(left) > 1 and kind_word(right) and not kind_word(left)


def _glued(doc: Any, ents: Sequence[Any]) -> list[tuple[Any, str]]:
    """(span, label) of the NER's entities, with an organisation it cut at "and" in two
    ("the European Health Emergency Preparedness" and "Response Authority") made whole."""
    out: list[tuple[Any, str]] = []
    for ent in ents:
        if out:
            prev, label = out[-1]
            between = doc[prev.end : ent.start]
            if (label == ent.label_ == "ORG" and len(between) == 1 and between[0].lower_ == "and"
                    and _one_name_across(prev, ent)):  # fmt: skip
                out[-1] = (doc[prev.start : ent.end], label)
                continue
        out.append((ent, ent.label_))
    return out


def _named_party(ent: Any) -> bool:
    """A "nationality" the small model saw in a one-word proper name that a verb acts on
    ("sanctioned Belaruskali"): a name, not the adjective "Belarusian"."""
    root = ent.root
    return len(ent) == 1 and root.pos_ == "PROPN" and root.dep_ in ("nsubj", "dobj", "pobj")


def _proper_chunks(doc: Any) -> list[tuple[int, int, str]]:
    """Runs of proper nouns spaCy's NER left out ("Quarrion Minerals"): kept only when their
    own words say what they are (see `infer_type`), labelled '' for that."""
    spans: list[tuple[int, int, str]] = []
    run: list[Any] = []
    joiners = (*NAME_JOINERS, "&")
    for tok in [*doc, None]:
        # "26 February Brooke Rollins": a month or day name before a name is no part of it.
        dated = (tok is not None and tok.lower_ in CALENDAR_WORDS and tok.i + 1 < len(doc)
                 and doc[tok.i + 1].pos_ == "PROPN")  # fmt: skip
        if tok is not None and not dated and (
            tok.pos_ == "PROPN" or (run and (tok.lower_ in joiners or joining_hyphen(tok)))
        ):
            run.append(tok)
            continue
        for part in _split_at_and(run):
            while part and part[-1].pos_ != "PROPN":
                part.pop()
            if len(part) >= 2:
                spans.append((part[0].idx, part[-1].idx + len(part[-1]), ""))
        run = []
    return spans


def _split_at_and(run: list[Any]) -> list[list[Any]]:
    """A run of proper nouns cut at each "and" that joins two names, kept whole where
    "and" is inside one: one word before it, a name ending in what it is after it
    ("Coffee and Cocoa Council")."""
    parts: list[list[Any]] = [[]]
    for n, tok in enumerate(run):
        if tok.lower_ == "and":
            right = run[n + 1 :]
            inside = (len(parts[-1]) == 1 and bool(right) and right[-1].lower_ in ORG_WORDS
                      and parts[-1][0].lower_ not in ORG_WORDS)  # fmt: skip
            if not inside:
                parts.append([])
                continue
        parts[-1].append(tok)
    return parts


def _context_names(names: Sequence[str], resolver: Resolver) -> list[Mention]:
    """Full names used elsewhere in the text's document, as targets for short forms only
    (never mentions themselves): a DKG asset when one has the name, else typed by its own
    words; a name whose words say nothing of what it is gives no target."""
    out = []
    for name in names:
        if len(name.split()) < 2:
            continue
        known = resolver.resolve(name)
        if known is not None:
            label, ual, typ = known
            out.append(Mention(name, label, -1, -1, type_family(typ), typ, ual, "context"))
            continue
        # Untyped ("concept") names still serve short forms that NER typed itself.
        family, typ = infer_type(name, "")
        out.append(Mention(name, name, -1, -1, family, typ, None, "context"))
    return out


def mentions_in(
    doc: Any, gazetteer: Gazetteer, resolver: Resolver, document_names: Sequence[str] = ()
) -> list[Mention]:
    """Entity mentions of a parsed text, in text order, never overlapping.

    `document_names`: full names the rest of the document uses, so that "Huarun" in this
    passage is the "Changzhou Huarun Biochemical" another passage introduced."""
    text = doc.text
    found: list[Mention] = [
        Mention(
            text=text[start:end],
            name=label,
            start=start,
            end=end,
            family=type_family(typ),
            type=typ,
            ual=ual,
        )
        for label, ual, typ, start, end in find_mentions(text, gazetteer)
    ]
    taken = [(m.start, m.end) for m in found]
    untyped: list[tuple[int, int, str]] = []
    spans = [*_ner_spans(doc), *_proper_chunks(doc), *places_set_off(doc), *shaped_names(doc),
             *apposed_names(doc)]  # fmt: skip
    for start, end, label in spans:
        span = doc.char_span(start, end, alignment_mode="expand")
        shaped = label == SHAPED_LABEL
        named = shaped or any(t.pos_ == "PROPN" or t.is_upper for t in span or ())
        if span is not None and not named:
            continue  # "Arbitration" at a sentence start: a common noun, not a name
        start = after_heading(doc.user_data.get("lines", text), start, end)
        raw = text[start:end]
        name = _clean(raw)
        if owns_its_possessive(doc, span):
            name = raw.strip()  # "Moody's downgraded ...": the "'s" is the name's own
        if not name or not any(ch.isupper() for ch in name):
            continue  # lower-case spans are common nouns spaCy over-read
        shift = raw.find(name)
        start, end = start + shift, start + shift + len(name)
        if len(name.split()) > MAX_NAME_WORDS or not (shaped or re.search(r"[A-Za-z]{2}", name)):
            continue
        known = resolver.resolve(name)
        cut: Mention | None = None
        traded = False  # a company named after the goods the DKG knows ("Petronet LNG")
        if any(s < end and start < e for s, e in taken):
            inner = [m for m in found if m.start < end and start < m.end]
            cut = cut_by_ner(label, known, inner, start, end, span)
            own = infer_type(name, label)[0] if not label else ""
            traded = own == "concept" and named_after_goods(name, inner, end)
            own = "organization" if traded else own
            if cut is None and not _names_more(name, raw, label, known, inner, (start, end), own):
                continue
            # "Western Australia" is not Australia: the longer proper name is the entity.
            found = [m for m in found if m not in inner]
            taken = [(m.start, m.end) for m in found]
        said = traded or infer_type(name, label)[0] != "concept"  # its words say what it is
        if known is None and not label and cut is None and not said:
            untyped.append((start, end, name))
            continue  # a proper-noun run with nothing saying what it names (yet)
        if known is not None:
            label_, ual, typ = known
            mention = Mention(name, label_, start, end, type_family(typ), typ, ual, "ner")
        else:
            after = text[end:].split(maxsplit=1)
            family, typ = infer_type(name, label, after[0] if after else "")
            numbered = designation_end(doc, start, end)
            if numbered != end and not any(s < numbered and end < e for s, e in taken):
                end, name = numbered, text[start:numbered]
            if family == "concept" and cut is not None:
                family, typ = cut.family, cut.type
            if family == "concept" and traded:
                family, typ = "organization", "Organization"
            if family in ("concept", "place", "person") and span is not None:
                # "X, the Finnish utility": the noun beside a name says what it is, over
                # the NER's guess ("X, a reporter" stays a person: agent nouns name people).
                apposed = apposed_kind(span, ORG_WORDS, PLACE_WORDS, family != "person")
                if apposed is not None and (family == "concept" or apposed[0] != "place"):
                    family, typ = apposed
            if family in ("product", "concept") and _at_a_site(doc.char_span(start, end)):
                family, typ = "place", "Place"
            mention = Mention(name, name, start, end, family, typ, None, "ner")
        found.append(mention)
        taken.append((start, end))
    found += coordinated_names(doc, untyped, found, ORG_WORDS, PLACE_WORDS)
    found += placed_names(doc, found)
    found += document_words(doc, found, document_names)
    found.sort(key=lambda m: m.start)
    context = _context_names(document_names, resolver)
    found = aliased(doc, short_forms(found, context))
    return _bare_short_forms(doc, found, context)
