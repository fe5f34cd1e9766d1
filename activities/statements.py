"""The `extract_statements` tool: statements from texts, scored for relevance to the question.

Reading is `mining/extraction.py`; relevance is `mining/relevance.py` over the
embeddings of `activities/embeddings.py`. Statements below the relevance floor are left
out of the answer (counted in `metadata.filtered`), so off-topic text never reaches
enrichment; the rest come back most relevant first.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from temporalio import activity

from activities.common import Auditor, cap_results
from activities.embeddings import Embedder
from contracts.activity_names import EXTRACT_STATEMENTS
from contracts.tools import (
    ExtractArgs,
    ProvenanceItem,
    Statement,
    ToolMetadata,
    ToolResponse,
)
from mining.extraction_patterns import Gazetteer, find_mentions
from mining.names import normalise_name
from mining.nlp import Resolver, gazetteer_digest, mentions_in, resolver_for
from mining.parsing import parse
from mining.predicates import ASKS, sentence_for
from mining.relevance import (
    RELEVANCE_FLOOR,
    Signals,
    anchor,
    content_words,
    lexical,
    passage_text,
    relevance,
    stem,
)
from mining.statement_reads import StatementReader

MAX_STATEMENTS = 80


def question_entities(query: str, gazetteer: Gazetteer, resolver: Resolver) -> set[str]:
    """UALs and normalised names of the entities a question names."""
    found = mentions_in(parse(query), gazetteer, resolver)
    keys = {m.ual for m in found if m.ual}
    return keys | {normalise_name(n) for m in found for n in (m.name, m.text) if normalise_name(n)}


@lru_cache(maxsize=256)  # one question is scored again for every batch of its passages
def asked_kind(query: str) -> frozenset[str]:
    """Stems of the nouns that say what the question is about, which a source must name
    to answer it. Empty when the question has no such phrase.

    - "which ...": the kind it asks for, "potash" in "Which potash producers are affected
      by sanctions?", "container" and "shipping" in "Which container shipping lines ...".
    - "how ...": what the question asks a change of, its object with the nouns compounded
      into it, "carbon" and "footprint" in "How does refining lithium in China affect the
      carbon footprint of Australian spodumene?". A page on China's export controls says
      how China refines lithium, not what that does to a footprint.
    """
    doc = parse(query)
    # "Which exploit chain ..., who reported it, and which vendors ...": each part asks
    # for its own kind and a source answering any part is on topic, so a part that names
    # no kind ("who reported") lifts the requirement.
    parts = [t for t in doc if t.tag_ in ("WDT", "WP", "WRB")
             and (t.i == 0 or doc[t.i - 1].lower_ in ("and", ",", ";", "or"))]  # fmt: skip
    which = [t for t in doc if _asks_which(t)]
    if len(parts) > 1:
        kinds = [_which_kinds(t) if _asks_which(t) else frozenset() for t in parts]
        return frozenset() if not all(kinds) else frozenset().union(*kinds)
    if which:
        return _which_kinds(which[0])
    if _asks_how(doc):
        objects = [t for t in doc if t.dep_ == "dobj" and t.pos_ == "NOUN"]
        # The main verb's object ("affect the footprint"), not one inside its subject
        # ("refining lithium"); the parser does not always make that verb the root.
        main = [t for t in objects if t.head.dep_ == "ROOT"] or objects[-1:]
        nouns = [t for o in main for t in (o, *_modifying_nouns(o))]
        return frozenset(stem(t.text) for t in nouns)
    return frozenset()


def _asks_which(wh: Any) -> bool:
    return wh.tag_ in ("WDT", "WP") and wh.dep_ == "det" and wh.head.pos_ in ("NOUN", "PROPN")


def _which_kinds(wh: Any) -> frozenset[str]:
    """Stems of the nouns compounded into the noun "which" asks for ("potash producers").
    A small tagger reads a rare noun as a verb ("potash"/VBP); a proper name is an
    entity, which anchoring deals with."""
    head = wh.head
    return frozenset(stem(t.text) for t in head.subtree if t.i < head.i
                     and t.dep_ == "compound" and t.pos_ in ("NOUN", "VERB"))  # fmt: skip


def _asks_how(doc: Any) -> bool:
    """'How does ...', not 'How many/much/long ...' (those ask a quantity of the noun)."""
    first = doc[0] if len(doc) else None
    if first is None or first.lower_ != "how":
        return False
    return len(doc) < 2 or doc[1].tag_ not in ("JJ", "RB")


def _modifying_nouns(noun: Any) -> list[Any]:
    """The nouns compounded into `noun` before it, with their conjuncts ("coffee and
    cocoa supplies")."""
    mods = [t for t in noun.lefts if t.dep_ in ("compound", "nmod") and t.pos_ == "NOUN"]
    return [c for m in mods for c in (m, *m.conjuncts) if c.pos_ == "NOUN"]


def score_relevance(
    statements: list[Statement],
    texts: dict[str, str],
    query: str,
    embedder: Embedder,
    entities: set[str] | None = None,
    gazetteer: Gazetteer | None = None,
    places_of: Callable[[str], set[str]] | None = None,
) -> None:
    """Set each statement's relevance to `query` (in place). `texts`: source key -> text.

    `gazetteer`: the DKG labels, so a text that names a question entity by another of
    its aliases ("the Greenbushes mine" for "Greenbushes lithium mine") anchors too.
    `places_of`: where the DKG says an asset is, so a claim about an asset in a place the
    question names ("contracts in the UK": Transport for London) is about that place."""
    if not query.strip() or not statements:
        return
    claims = [sentence_for(s.predicate, s.subject, s.object) for s in statements]
    sources = {_key(s): passage_text(s.sourceTitle, texts.get(_key(s), s.sentence))
               for s in statements}  # fmt: skip
    # What each claim's relation is about: the typed relation's plain description; a
    # relation named by its source's own words means what its sentence says.
    relation_of = [ASKS.get(s.predicate) or s.sentence for s in statements]
    relations = dict.fromkeys(relation_of)
    parts = question_parts(query)
    texts_to_embed = list(
        dict.fromkeys([*(s.sentence for s in statements), *claims, *sources.values(),
                       *relations])
    )  # fmt: skip
    vectors = embedder.embed([query, *parts, *texts_to_embed])
    asked, embedded = vectors[1 : 1 + len(parts)], vectors[1 + len(parts) :]
    cos = dict(zip(texts_to_embed, (embedded @ vectors[0]).tolist(), strict=True))
    if parts:
        # A question asking two things: a relation, or a source, fits it when it fits
        # either part.
        vector_of = dict(zip(texts_to_embed, embedded, strict=True))
        for text in dict.fromkeys([*relations, *sources.values()]):
            best = float((asked @ vector_of[text]).max())
            cos[text] = max(cos[text], (cos[text] + best) / 2)
    uals: dict[str, frozenset[str]] = {}

    def named(text: str) -> frozenset[str]:
        if gazetteer is None or not entities:
            return frozenset()
        if text not in uals:
            uals[text] = frozenset(f[1] for f in find_mentions(text, gazetteer))
        return uals[text]

    kind = asked_kind(query)
    # Per source and per asset, not per statement: a passage gives many statements.
    kind_named = {key: bool(kind & content_words(text)) for key, text in sources.items()}
    located: dict[str, set[str]] = {}

    def places(ual: str) -> set[str]:
        if ual not in located:
            located[ual] = places_of(ual) if places_of is not None and entities else set()
        return located[ual]

    # A passage is about what its document is about: an article that names the
    # question's entity in one paragraph anchors its other paragraphs too.
    documents: dict[str, str] = {}
    for key, text in sources.items():
        url = key.split("#", 1)[0]
        documents[url] = f"{documents.get(url, '')} {text}"
    for st, claim, relation in zip(statements, claims, relation_of, strict=True):
        source = sources[_key(st)]
        ends = {st.subjectUal, st.objectUal} - {None}
        ends |= {p for u in list(ends) for p in places(u)}  # type: ignore[arg-type]
        ends |= {normalise_name(st.subject), normalise_name(st.object)}
        signals = Signals(
            sentence_cos=max(cos[st.sentence], cos[claim]),
            source_cos=cos[source],
            lexical=lexical(query, f"{st.sentence} {st.sourceTitle or ''}"),
            source_lexical=part_lexical(query, parts, source),
            relation_cos=cos[relation],
            anchor=anchor(
                entities or set(), ends, st.sentence,  # type: ignore[arg-type]
                documents[st.source or ""], named(st.sentence), named(documents[st.source or ""]),
            ),  # fmt: skip
            kind_named=kind_named[_key(st)] if kind else None,
        )
        st.relevance = relevance(signals, embedder.name)


_CLAUSE_JOIN = re.compile(r",\s*and\s+(?=(?:who|what|which|where|when|how|whom|whose)\b)|;\s*",
                          re.IGNORECASE)


def part_lexical(query: str, parts: list[str], text: str) -> float:
    """The share of the question's content words a text names, or, when the question
    asks several things, half-way to the share of the part it names best: a source
    answering one part of a long question names few of all its words."""
    whole = lexical(query, text)
    if not parts:
        return whole
    return max(whole, (whole + max(lexical(p, text) for p in parts)) / 2)


def question_parts(query: str) -> list[str]:
    """The questions a compound question asks ("What is behind the heparin shortage, and
    which drug makers are affected?": two), or [] when it asks one."""
    parts = [p.strip(" ?") for p in _CLAUSE_JOIN.split(query) if p.strip(" ?")]
    return [f"{p}?" for p in parts] if len(parts) > 1 else []


def _key(st: Statement) -> str:
    return f"{st.source}#{st.passageId or ''}"


class StatementActivities:
    def __init__(self, dkg: Any, embedder: Embedder, auditor: Auditor) -> None:
        self._dkg = dkg
        self._embedder = embedder
        self._audit = auditor

    def extract(
        self, args: ExtractArgs
    ) -> tuple[list[Statement], int, float | None, list[str]]:
        """(relevant statements best first, how many fell below the floor, best relevance,
        the texts skipped over their reading budget as source#passage)."""
        gazetteer = self._dkg.gazetteer()
        digest = gazetteer_digest(gazetteer)
        resolver = resolver_for(gazetteer, digest)
        reader = StatementReader(gazetteer, resolver, digest)
        statements: list[Statement] = []
        texts: dict[str, str] = {}
        for doc in args.documents:
            found = reader.read(doc)
            for st in found:
                texts[_key(st)] = doc.text
            statements.extend(found)
        entities = question_entities(args.query, gazetteer, resolver) if args.query else set()
        places_of = getattr(self._dkg, "places_of", None)
        score_relevance(
            statements, texts, args.query, self._embedder, entities, gazetteer, places_of
        )
        best = max((s.relevance for s in statements), default=None)
        if args.query.strip():
            kept = [s for s in statements if s.relevance >= RELEVANCE_FLOOR]
        else:
            kept = statements
        kept.sort(key=lambda s: -s.relevance)
        return kept[:MAX_STATEMENTS], len(statements) - len(kept), best, reader.skipped

    @activity.defn(name=EXTRACT_STATEMENTS)
    async def extract_statements(self, args: ExtractArgs) -> ToolResponse:
        started = time.perf_counter()
        kept, filtered, best, skipped = await asyncio.to_thread(self.extract, args)
        for text in skipped:
            activity.logger.warning("not read, over its reading budget: %s", text)
        rows = [s.model_dump(exclude_defaults=True) for s in kept]
        capped, truncated = cap_results(rows)
        blob = self._audit.overflow(rows) if truncated else None
        elapsed = int((time.perf_counter() - started) * 1000)
        self._audit.record(
            EXTRACT_STATEMENTS, {"n": len(args.documents)}, len(rows), elapsed, True
        )
        return ToolResponse(
            success=True,
            results=capped,
            provenance=[
                ProvenanceItem(
                    source=s.source,
                    source_id=s.passageId,
                    evidence_snippet=s.sentence[:200],
                    evidence_score=s.relevance,
                )
                for s in kept[:50]
            ],
            metadata=ToolMetadata(
                elapsed_ms=elapsed,
                count=len(rows),
                truncated=truncated,
                blobRef=blob,
                filtered=filtered,
                relevanceFloor=RELEVANCE_FLOOR if args.query.strip() else None,
                bestRelevance=best,
                skipped=skipped,
            ),
        )
