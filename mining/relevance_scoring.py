"""Statements read from texts, scored for relevance to the question, the relevant kept.

The formula is `mining/relevance.py`; this module gathers its signals for a batch of
statements (embedding cosines through the `Embedder` passed in, the question's entities,
kind and parts from `mining/question.py`, the DKG labels and places the caller passes
in) and keeps those above `RELEVANCE_FLOOR`, most relevant first. Pure apart from the
embedder and the `places_of` callable it is given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from contracts.tools import SourceDocument, Statement
from mining.extraction_patterns import Gazetteer, find_mentions
from mining.interruption import check as check_interrupted
from mining.names import normalise_name
from mining.nlp import gazetteer_digest, resolver_for
from mining.predicates import ASKS, sentence_for
from mining.question import asked_kind, question_entities, question_parts
from mining.relevance import (
    RELEVANCE_FLOOR,
    Embedder,
    Signals,
    anchor,
    content_words,
    lexical,
    passage_text,
    relevance,
)
from mining.statement_reads import StatementReader

MAX_STATEMENTS = 80


def source_key(st: Statement) -> str:
    """The passage a statement was read from, as source#passageId."""
    return f"{st.source}#{st.passageId or ''}"


def relevant_statements(
    documents: Sequence[SourceDocument],
    query: str,
    gazetteer: Gazetteer,
    embedder: Embedder,
    places_of: Callable[[str], set[str]] | None = None,
) -> tuple[list[Statement], int, float | None, list[str]]:
    """The statements of `documents`, scored against `query`: (those at or above the
    relevance floor, best first, at most `MAX_STATEMENTS`; how many fell below it; the
    best relevance; the texts skipped over their reading budget as source#passage).
    Without a question every statement is kept."""
    digest = gazetteer_digest(gazetteer)
    resolver = resolver_for(gazetteer, digest)
    reader = StatementReader(gazetteer, resolver, digest)
    statements: list[Statement] = []
    texts: dict[str, str] = {}
    for doc in documents:
        check_interrupted()
        found = reader.read(doc)
        for st in found:
            texts[source_key(st)] = doc.text
        statements.extend(found)
    entities = question_entities(query, gazetteer, resolver) if query else set()
    names = {doc.source: doc.names for doc in documents if doc.names}
    score_relevance(statements, texts, query, embedder, entities, gazetteer, places_of, names)
    best = max((s.relevance for s in statements), default=None)
    if query.strip():
        kept = [s for s in statements if s.relevance >= RELEVANCE_FLOOR]
    else:
        kept = statements
    kept.sort(key=lambda s: -s.relevance)
    return kept[:MAX_STATEMENTS], len(statements) - len(kept), best, reader.skipped


def score_relevance(
    statements: list[Statement],
    texts: dict[str, str],
    query: str,
    embedder: Embedder,
    entities: set[str] | None = None,
    gazetteer: Gazetteer | None = None,
    places_of: Callable[[str], set[str]] | None = None,
    document_names: dict[str, list[str]] | None = None,
) -> None:
    """Set each statement's relevance to `query` (in place). `texts`: source key -> text.
    `document_names`: document URL -> the full names the whole document uses (a search
    hit's `names`), so a passage of an article that names the question's entity in a
    paragraph search did not return is anchored too.

    `gazetteer`: the DKG labels, so a text that names a question entity by another of
    its aliases ("the Greenbushes mine" for "Greenbushes lithium mine") anchors too.
    `places_of`: where the DKG says an asset is, so a claim about an asset in a place the
    question names ("contracts in the UK": Transport for London) is about that place."""
    if not query.strip() or not statements:
        return
    claims = [sentence_for(s.predicate, s.subject, s.object) for s in statements]
    sources = {source_key(s): passage_text(s.sourceTitle, texts.get(source_key(s), s.sentence))
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
    for url, names in (document_names or {}).items():
        if url in documents:
            documents[url] += " " + ". ".join(names)
    for st, claim, relation in zip(statements, claims, relation_of, strict=True):
        source = sources[source_key(st)]
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
            kind_named=kind_named[source_key(st)] if kind else None,
        )
        st.relevance = relevance(signals, embedder.name)


def part_lexical(query: str, parts: list[str], text: str) -> float:
    """The share of the question's content words a text names, or, when the question
    asks several things, half-way to the share of the part it names best: a source
    answering one part of a long question names few of all its words."""
    whole = lexical(query, text)
    if not parts:
        return whole
    return max(whole, (whole + max(lexical(p, text) for p in parts)) / 2)


def text_relevance(query: str, text: str, embedder: Embedder) -> float:
    """The relevance of a bare text (a model's free sentence) to `query`: the text is its
    own source, with no passage around it and no relation to compare."""
    if not query.strip() or not text.strip():
        return 0.0
    vectors = embedder.embed([query, text])
    cos = float(vectors[1] @ vectors[0])
    share = lexical(query, text)
    return relevance(Signals(cos, cos, share, share), embedder.name)
