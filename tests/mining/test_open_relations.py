"""Open relations from the parse, on sentences of domains no labeled set uses (aviation,
publishing, hospitals, shipping, universities): every construction for any verb."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mining.neighbour_relations import neighbour_relations, relations_in_sentence
from mining.parsing import parse
from tests.support.paths import ROOT


def relations(text: str, names: list[str]) -> set[tuple[str, str, str]]:
    """(subject, predicate, object) between the named mentions of a one-sentence text."""
    doc = parse(text)
    spans = []
    for name in names:
        start = text.index(name)
        span = doc.char_span(start, start + len(name), alignment_mode="expand")
        spans.append((span.start, span.end))
    order = sorted(range(len(names)), key=lambda n: spans[n][0])
    spans = [spans[n] for n in order]
    ordered = [names[n] for n in order]
    sent = next(iter(doc.sents))
    found = relations_in_sentence(doc, spans, sent.start, sent.end)
    return {(ordered[r.subject], r.predicate, ordered[r.object]) for r in found}


def test_a_verb_no_list_names_relates_its_subject_and_object() -> None:
    found = relations("Kestrel Air grounded Boreal Jet in March.", ["Kestrel Air", "Boreal Jet"])
    assert ("Kestrel Air", "ground", "Boreal Jet") in found


def test_the_clause_words_name_the_relation_not_the_last_noun() -> None:
    text = "Vireo Health halted production of insulin pens at Marlow Devices."
    found = relations(text, ["Vireo Health", "Marlow Devices"])
    assert [p for s, p, o in found if (s, o) == ("Vireo Health", "Marlow Devices")] == [
        "halt production at"
    ]


def test_each_coordinated_object_gets_the_relation_and_siblings_none() -> None:
    text = "Aerion delivered jets to Qantas, Emirates and Lufthansa."
    found = relations(text, ["Aerion", "Qantas", "Emirates", "Lufthansa"])
    for airline in ("Qantas", "Emirates", "Lufthansa"):
        assert ("Aerion", "deliver to", airline) in found
    assert not any({s, o} <= {"Qantas", "Emirates", "Lufthansa"} for s, _, o in found)


def test_an_apposition_with_a_participle_says_where_the_head_is() -> None:
    text = "Nordlys Avionics, a sensor maker based in Tromso, sells gyroscopes."
    found = relations(text, ["Nordlys Avionics", "Tromso"])
    assert ("Nordlys Avionics", "be based in", "Tromso") in found


def test_an_apposition_noun_phrase_is_the_relation() -> None:
    text = "Harbor Press, the publishing arm of Penrose Books, printed the atlas."
    found = relations(text, ["Harbor Press", "Penrose Books"])
    assert ("Harbor Press", "be arm of", "Penrose Books") in found


def test_a_relative_clause_acts_for_its_head() -> None:
    text = "Penrose Books, which owns Harbor Press, cut its list."
    assert ("Penrose Books", "own", "Harbor Press") in relations(
        text, ["Penrose Books", "Harbor Press"]
    )


def test_a_relative_clause_with_its_own_subject_acts_on_the_head() -> None:
    text = "Quayside Cleaning, the contractor that St Brigid Hospital hired in May, left."
    found = relations(text, ["Quayside Cleaning", "St Brigid Hospital"])
    assert ("St Brigid Hospital", "hire", "Quayside Cleaning") in found


def test_a_passive_agent_is_the_subject() -> None:
    text = "Orbital Freight was acquired by Halvorsen Shipping in 2021."
    found = relations(text, ["Orbital Freight", "Halvorsen Shipping"])
    assert ("Halvorsen Shipping", "acquire", "Orbital Freight") in found


def test_a_possessive_noun_frame_is_a_relation() -> None:
    text = "Kestrel Air's partnership with Boreal Jet ended."
    found = relations(text, ["Kestrel Air", "Boreal Jet"])
    assert ("Kestrel Air", "partnership with", "Boreal Jet") in found


def test_negation_and_modality_are_flags_not_other_relations() -> None:
    doc = parse("Aerion did not supply Qantas. Aerion could supply Emirates.")
    first, second = list(doc.sents)
    neg = relations_in_sentence(doc, [(0, 1), (4, 5)], first.start, first.end)
    assert [(r.predicate, r.negated, r.hedged) for r in neg] == [("supply", True, False)]
    modal = relations_in_sentence(doc, [(6, 7), (9, 10)], second.start, second.end)
    assert [(r.predicate, r.negated, r.hedged) for r in modal] == [("supply", False, True)]


def test_an_inner_clause_with_its_own_subject_is_another_fact() -> None:
    text = "Aerion expanded its plant, and Boreal Jet doubled output."
    assert relations(text, ["Aerion", "Boreal Jet"]) == set()


def test_words_between_neighbours_repair_a_misread_verb() -> None:
    doc = parse("The Harbor Authority cross-debarred Quayside Logistics for two years.")
    start = doc.text.index("Harbor Authority")
    a = doc.char_span(start, start + len("Harbor Authority"))
    b_at = doc.text.index("Quayside Logistics")
    b = doc.char_span(b_at, b_at + len("Quayside Logistics"))
    found = neighbour_relations(doc, [(a.start, a.end), (b.start, b.end)], 0, len(doc))
    assert [(r.subject, r.predicate, r.object) for r in found] == [(0, "debarred", 1)]


def test_a_passive_between_neighbours_turns_round() -> None:
    doc = parse("Orbital Freight was fined by Customs.")
    found = neighbour_relations(doc, [(0, 2), (5, 6)], 0, len(doc))
    assert [(r.subject, r.object) for r in found] == [(1, 0)]


def test_the_sentence_that_hung_a_worker_is_read_at_once() -> None:
    started = time.monotonic()
    relations("Alpine Linux had 5.6.1 only in its edge branch.", ["Alpine Linux"])
    assert time.monotonic() - started < 2


WORDS = st.sampled_from(
    "the a of to in by which that it its and or not Quayside Harbor Kestrel Orbital "
    "supplied owns was acquired based near , ( ) - ; 5.6.1 CVE-2024-1 10 % had only "
    "edge branch Board Council said would its their".split()
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(WORDS, min_size=1, max_size=40))
def test_any_sentence_is_read_within_its_time_limit(words: list[str]) -> None:
    text = " ".join(words) + "."
    doc = parse(text)
    names = [(m.start(), m.end()) for m in re.finditer(r"\b[A-Z][a-z]+\b", text)]
    spans = [(s.start, s.end) for a, b in names if (s := doc.char_span(a, b)) is not None]
    spans = sorted(set(spans))
    started = time.monotonic()
    for sent in doc.sents:
        inside = [sp for sp in spans if sent.start <= sp[0] and sp[1] <= sent.end]
        relations_in_sentence(doc, inside, sent.start, sent.end)
    assert time.monotonic() - started < 1.0


@pytest.mark.parametrize("hang", ["Alpine Linux had 5.6.1 only in its edge branch."])
def test_extraction_of_a_whole_text_ends(hang: str) -> None:
    from contracts.tools import SourceDocument
    from mining.extraction import read_statements
    from mining.nlp import resolver_for

    started = time.monotonic()
    gazetteer = [("Alpine Linux", "did:dkg:x/1", "SoftwareApplication")]
    doc = SourceDocument(text=hang, source="https://x.example.com/a")
    read_statements(doc, gazetteer, resolver_for(gazetteer))
    assert time.monotonic() - started < 5


def test_a_text_over_its_reading_budget_is_skipped_reported_and_not_read_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from contracts.tools import SourceDocument
    from mining import extraction
    from mining.nlp import resolver_for
    from mining.statement_reads import StatementReader

    calls = []
    real = extraction.read_statements

    def counted(*args: object, **kw: object) -> object:
        calls.append(1)
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr("mining.statement_reads.read_statements", counted)
    monkeypatch.setattr(extraction, "READING_BUDGET_S", -1.0)
    gazetteer = [("Kestrel Air", "did:dkg:x/7", "Organization")]
    doc = SourceDocument(text="Kestrel Air grounded Boreal Jet. It flies again.",
                         source="https://budget.example.com/a", passageId="abc:0")  # fmt: skip
    for _ in range(3):
        reader = StatementReader(gazetteer, resolver_for(gazetteer))
        assert reader.read(doc) == []
        assert reader.skipped == ["https://budget.example.com/a#abc:0"]
    assert len(calls) == 1  # read once, remembered as skipped


SHARED_SETS = ROOT.parent / "shared" / "quality-sets"


@pytest.mark.skipif(not SHARED_SETS.is_dir(), reason="no ../shared/quality-sets beside the project")
def test_every_document_of_every_shared_set_is_read_within_budget(tmp_path: Path) -> None:
    from contracts.tools import SourceDocument
    from mining.extraction import READING_BUDGET_S, read_statements
    from mining.nlp import resolver_for
    from storage.corpus.index import CorpusIndex

    resolver = resolver_for([])
    for set_dir in sorted(p for p in SHARED_SETS.iterdir() if (p / "docs").is_dir()):
        index = CorpusIndex(tmp_path / f"{set_dir.name}.db", tmp_path / "none")
        index.add(sorted((set_dir / "docs").iterdir()))
        for info in index.documents():
            for passage in index.document_passages(info.id):
                doc = SourceDocument(text=passage.content, source=passage.url,
                                     passageId=passage.passageId)  # fmt: skip
                started = time.monotonic()
                read_statements(doc, [], resolver)  # raises ReadingOverBudget past it
                assert time.monotonic() - started < READING_BUDGET_S


def test_a_reported_clause_relates_the_speaker_to_its_subject() -> None:
    text = "Halvorsen Shipping warned that Orbital Freight and Nordic Tugs had lost their permits."
    found = relations(text, ["Halvorsen Shipping", "Orbital Freight", "Nordic Tugs"])
    assert ("Halvorsen Shipping", "warn that lose", "Orbital Freight") in found
    assert ("Halvorsen Shipping", "warn that lose", "Nordic Tugs") in found


def test_a_reported_clause_does_not_make_its_subject_the_speakers_act() -> None:
    text = "Penrose Books said Harbor Press was sold to Vellum House."
    found = relations(text, ["Penrose Books", "Harbor Press", "Vellum House"])
    assert ("Penrose Books", "say be sold", "Harbor Press") in found
    assert not any(s == "Penrose Books" and o == "Vellum House" for s, _, o in found)


def test_an_infinitive_done_by_the_object_keeps_the_verb_that_asks_for_it() -> None:
    text = "St Brigid Hospital told nurses to stop using Quayside Cleaning."
    found = relations(text, ["St Brigid Hospital", "Quayside Cleaning"])
    assert [p for s, p, o in found if s == "St Brigid Hospital"] == ["tell to stop use"]


def test_a_clause_opened_by_where_says_where_its_subject_acts() -> None:
    text = "The ferries call at Tromso, where Nordic Tugs runs a repair yard."
    found = relations(text, ["Tromso", "Nordic Tugs"])
    assert ("Nordic Tugs", "run at", "Tromso") in found
    assert not any(p == "run" for _, p, _ in found)


def test_a_where_clause_after_a_place_within_a_place_says_where_the_head_is() -> None:
    # The parser hangs the clause on Lapland; it says where Kemi is used too.
    text = (
        "Much of the paper is to come from Kemi in Lapland, where Arctic Pulp runs its"
        " largest mill."
    )
    found = relations(text, ["Kemi", "Lapland", "Arctic Pulp"])
    assert ("Arctic Pulp", "run at", "Kemi") in found
    assert ("Kemi", "in", "Lapland") in found


def test_an_apposition_after_a_place_within_a_place_describes_the_head() -> None:
    # "a harbour that ..." hangs on Orkney; the harbour is Stromness.
    text = "The ferries berth at Stromness in Orkney, a harbour that Kirkwall Marine has run."
    found = relations(text, ["Stromness", "Orkney", "Kirkwall Marine"])
    assert ("Kirkwall Marine", "run", "Stromness") in found
    # Without a clause of its own the apposition relates no third party.
    found = relations("Kirkwall Marine ferries berth at Stromness in Orkney, a deep harbour.",
                      ["Stromness", "Orkney", "Kirkwall Marine"])  # fmt: skip
    assert ("Kirkwall Marine", "run", "Stromness") not in found


def test_what_a_whose_clause_says_of_its_thing_relates_the_noun_it_describes() -> None:
    text = "Inspectors blamed Norvik Rail, the operator whose freight train blocked Kelso Junction."
    found = relations(text, ["Norvik Rail", "Kelso Junction"])
    assert found == {("Norvik Rail", "train block", "Kelso Junction")}
    # A relative clause with a subject of its own ("that Y hired") is still Y's act.
    hired = relations(
        "Inspectors blamed Norvik Rail, the operator that Kelso Junction hired.",
        ["Norvik Rail", "Kelso Junction"],
    )
    assert all(r[0] == "Kelso Junction" for r in hired)


def test_an_owner_acts_through_the_thing_it_owns_but_not_through_an_event_it_owns() -> None:
    deal = "Heron Books's distribution deal with Calder Print will bring atlases to Lisbon."
    assert ("Heron Books", "deal bring to", "Lisbon") in relations(deal, ["Heron Books", "Lisbon"])
    # A ban is an event of its own (read as one elsewhere), not its owner acting.
    ban = "Sylvania's export ban hit Kalvik Metals in March."
    assert relations(ban, ["Sylvania", "Kalvik Metals"]) == set()


def test_the_party_an_act_goes_through_carries_it_to_what_the_act_reaches() -> None:
    text = (
        "Orkney Ferries sold tickets to Hoy Shipping through Kirkwall Marine after a request"
        " from Stromness Tours."
    )
    parties = ["Orkney Ferries", "Hoy Shipping", "Kirkwall Marine", "Stromness Tours"]
    found = relations(text, parties)
    assert ("Kirkwall Marine", "sell through to", "Hoy Shipping") in found
    # Not to what only says when or why the act happened.
    assert not any(a == "Kirkwall Marine" and b == "Stromness Tours" for a, _, b in found)


def test_the_subject_of_a_relative_clause_acts_through_the_noun_it_describes() -> None:
    # "that X retired" describes the ferries the main clause is about: X retired them, and
    # what is said of them (they sail for Y) relates X to Y in the clause's own words.
    text = "The ferries that Stena Line retired last year now sail for Baltic Seaways."
    found = relations(text, ["Stena Line", "Baltic Seaways"])
    assert found == {("Stena Line", "retire ferry sail for", "Baltic Seaways")}
    # A quantity of the noun ("several of the ferries") is the same noun.
    counted = "Several of the ferries that Stena Line retired in March now sail for Baltic Seaways."
    found = relations(counted, ["Stena Line", "Baltic Seaways"])
    assert ("Stena Line", "retire ferry sail for", "Baltic Seaways") in found
    # A verb particle belongs to what the actor did ("gave up").
    gave_up = "The routes that Arriva Rail gave up now belong to Go-Ahead Group."
    found = relations(gave_up, ["Arriva Rail", "Go-Ahead Group"])
    assert ("Arriva Rail", "give up route belong to", "Go-Ahead Group") in found


def test_a_relative_clause_relates_its_subject_only_through_the_noun_itself() -> None:
    # The name is no actor when the clause's own subject is its relative pronoun ...
    sailed = "The ferries that sailed for Stena Line now belong to Baltic Seaways."
    assert not relations(sailed, ["Stena Line", "Baltic Seaways"])
    # ... nor through a noun the described thing is part of (the captain is a person).
    captain = (
        "The captain of the ferries that Stena Line retired last spring spoke to Baltic Seaways."
    )
    assert not relations(captain, ["Stena Line", "Baltic Seaways"])
    # An event or policy acts for itself, as an owned one does ("X's ban hit Y").
    ban = "The export ban that Sylvania imposed in March hit Kalvik Metals."
    assert not relations(ban, ["Sylvania", "Kalvik Metals"])


def test_a_clause_on_an_unnamed_noun_inside_the_heads_phrase_says_nothing_of_the_head() -> None:
    # "based in Bergen" says where the conservatory is, not the piano.
    text = "Critics heard it on the Steinway of a student of a school based in Bergen."
    assert not relations(text, ["Steinway", "Bergen"])
    # Its apposition's clause still describes the head.
    text = "Tallis Orchestra, an ensemble based in Leeds, toured Norway."
    found = relations(text, ["Tallis Orchestra", "Leeds"])
    assert ("Tallis Orchestra", "be based in", "Leeds") in found
