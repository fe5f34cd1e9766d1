"""Reading a document is memoised by its content and the gazetteer's, never stale."""

from __future__ import annotations

import pytest

import mining.statement_reads as reads
from contracts.tools import SourceDocument
from mining.entities import EntityResolver
from mining.extraction import read_statements
from mining.nlp import Resolver, resolver_for
from mining.statement_reads import StatementReader, gazetteer_digest, shared_reads

TEXT = "Albemarle supplies lithium hydroxide to Tesla from its Kemerton plant."


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts the real reader was asked to read (memo emptied first)."""
    shared_reads().clear()
    texts: list[str] = []

    def counting(doc, gazetteer, resolver, *budget):  # type: ignore[no-untyped-def]
        texts.append(doc.text)
        return read_statements(doc, gazetteer, resolver, *budget)

    monkeypatch.setattr(reads, "read_statements", counting)
    return texts


def test_a_document_read_again_is_not_parsed_again(gazetteer, counted) -> None:  # type: ignore[no-untyped-def]
    reader = StatementReader(gazetteer, Resolver(gazetteer))
    doc = SourceDocument(text=TEXT, source="https://example.org/a")
    first = reader.read(doc)
    # Another reader over the same gazetteer (another activity call) hits too.
    again = StatementReader(list(gazetteer), Resolver(gazetteer)).read(doc)
    assert counted == [TEXT]
    assert first and again == first
    assert first == read_statements(doc, gazetteer, Resolver(gazetteer))


def test_callers_get_copies_they_may_change(gazetteer, counted) -> None:  # type: ignore[no-untyped-def]
    reader = StatementReader(gazetteer, Resolver(gazetteer))
    doc = SourceDocument(text=TEXT, source="https://example.org/a")
    first = reader.read(doc)
    first[0].relevance = 0.99
    assert reader.read(doc)[0].relevance == 0.0


def test_changed_text_or_provenance_is_read_afresh(gazetteer, counted) -> None:  # type: ignore[no-untyped-def]
    reader = StatementReader(gazetteer, Resolver(gazetteer))
    base = SourceDocument(text=TEXT, source="https://example.org/a")
    reader.read(base)
    other = reader.read(base.model_copy(update={"text": TEXT.replace("Tesla", "BYD")}))
    moved = reader.read(base.model_copy(update={"source": "https://example.org/b"}))
    assert len(counted) == 3
    assert {s.object for s in other} != {s.object for s in reader.read(base)}
    assert {s.source for s in moved} == {"https://example.org/b"}


def test_a_new_name_in_the_gazetteer_is_a_new_key(gazetteer, counted) -> None:  # type: ignore[no-untyped-def]
    text = "Quarrion Minerals supplies spodumene to Tesla."
    doc = SourceDocument(text=text, source="https://example.org/q")
    before = StatementReader(gazetteer, Resolver(gazetteer)).read(doc)
    grown = [("Quarrion Minerals", "did:dkg:otp:2043/0xabc/999", "Organization"), *gazetteer]
    after = StatementReader(grown, Resolver(grown)).read(doc)
    assert len(counted) == 2
    assert gazetteer_digest(grown) != gazetteer_digest(gazetteer)
    assert not any(s.subjectUal == "did:dkg:otp:2043/0xabc/999" for s in before)
    assert any(s.subjectUal == "did:dkg:otp:2043/0xabc/999" for s in after)


def test_the_memo_is_bounded(gazetteer, counted, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    small = reads.BoundedMemo(2)
    monkeypatch.setattr(reads, "_reads", small)
    reader = StatementReader(gazetteer, Resolver(gazetteer))
    for i in range(4):
        reader.read(SourceDocument(text=f"{TEXT} ({i})", source="https://example.org/a"))
    assert len(small) == 2
    assert shared_reads() is small


def test_one_resolver_serves_every_call_on_the_same_gazetteer(gazetteer) -> None:  # type: ignore[no-untyped-def]
    first = resolver_for(gazetteer)
    assert resolver_for(list(gazetteer)) is first
    assert resolver_for(gazetteer, gazetteer_digest(gazetteer)) is first


def test_a_published_name_gets_a_new_resolver_that_knows_it(gazetteer) -> None:  # type: ignore[no-untyped-def]
    entry = ("Quarrion Minerals", "did:dkg:otp:2043/0xabc/999", "Organization")
    before = resolver_for(gazetteer)
    after = resolver_for([entry, *gazetteer])
    assert after is not before
    assert before.resolve("Quarrion Minerals") is None
    assert after.resolve("Quarrion Minerals") == entry


def test_entity_resolvers_share_the_gazetteer_but_not_their_links(gazetteer) -> None:  # type: ignore[no-untyped-def]
    label, ual, typ = gazetteer[0]
    # A link the label bears out (a word in common, mining/entities.named_alike).
    ours = f"Our {label.split()[0]} work"
    linked = EntityResolver(gazetteer, {ours: ual})
    plain = EntityResolver(list(gazetteer), {})
    assert linked.known(ours) == (label, ual, typ)
    assert plain.known(ours) is None
    assert plain.known(label) == linked.known(label) == (label, ual, typ)
