"""Where a document's layout ends a sentence that has no full stop (a headline, a table
row, a heading), and the newswire dateline read as blank. Texts from domains no labeled
set uses (rail, shipping, publishing, orchestras)."""

from __future__ import annotations

from contracts.tools import SourceDocument
from mining.extraction import read_statements
from mining.nlp import Resolver
from mining.parsing import parse
from mining.sentence_starts import datelines, is_title_line, sentence_starts
from tests.mining.extraction_reading import SRC


def _sentences(text: str) -> list[str]:
    return [s.text.strip() for s in parse(text).sents if s.text.strip()]


def test_a_headline_and_its_dateline_do_not_run_into_the_story() -> None:
    text = (
        "Regulator suspends Kestrel Rail licence over brake failures\n\n"
        "LEEDS, 4 March 2025 (Rail Wire Service) -- The Office of Rail and Road suspended"
        " the licence of Kestrel Rail on Tuesday."
    )
    assert _sentences(text) == [
        "Regulator suspends Kestrel Rail licence over brake failures",
        "The Office of Rail and Road suspended the licence of Kestrel Rail on Tuesday.",
    ]
    assert "LEEDS" not in {t.text for t in parse(text)}


def test_a_dateline_needs_a_date_or_a_wire_so_an_acronym_opening_a_sentence_stays() -> None:
    text = "CAA, the aviation regulator -- and its board -- fined Boreal Air."
    assert datelines(text, sentence_starts(text)) == []
    assert datelines("OSLO (Nordic Wire) -- Fjord Line ...", set()) == [(0, 22)]


def test_a_table_row_is_a_sentence_of_its_own() -> None:
    text = (
        "Port calls by operator\n"
        "Operator Calls 2023 Calls 2024 Change\n"
        "Fjord Line 1,210 1,340 +11%\n"
        "Color Line 2,050 1,980 -3%\n"
        "Fjord Line added a second ship on the Bergen route in the spring of 2024, which"
        " raised its calls on\n"
        "that route by a fifth over the year, while Color Line kept its timetable unchanged."
    )
    starts = sentence_starts(text)
    for row in ("Operator Calls", "Fjord Line 1,210", "Color Line 2,050", "Fjord Line added"):
        assert text.index(row) in starts
    found = _sentences(text)
    assert not any("+11%" in s and "Color" in s for s in found)  # rows never run together
    assert found[-1].startswith("Fjord Line added a second ship")


def test_a_wrapped_line_runs_on_even_before_a_capital() -> None:
    text = (
        "Kestrel Books moved the printing of its crime list from Leeds to a contract press in\n"
        "Gdansk run by Baltic Print, which also binds the paperbacks of two other houses.\n"
    )
    assert sentence_starts(text) == set()
    assert len(_sentences(text)) == 1


def test_a_blank_line_ends_a_paragraph_that_has_no_full_stop() -> None:
    text = "Shipping notes\n\nFjord Line sold the Bergensfjord to Stena."
    starts = sentence_starts(text)
    assert starts == {text.index("Fjord Line")}
    assert _sentences(text) == ["Shipping notes", "Fjord Line sold the Bergensfjord to Stena."]


def test_a_line_ending_mid_sentence_never_starts_a_new_one() -> None:
    text = (
        "Fjord Line, the Norwegian ferry operator,\nSold a ship.\nIt ran to Hirtshals and\nBergen."
    )
    assert sentence_starts(text) == set()


def test_a_dateline_after_a_finished_paragraph_is_blank_too() -> None:
    text = "Kestrel Rail loses its licence.\n\nLEEDS, 4 March 2025 -- The regulator acted."
    assert datelines(text, sentence_starts(text)) == [
        (text.index("LEEDS"), text.index("The regulator"))
    ]


def test_a_heading_or_a_table_row_is_a_title_line_and_prose_is_not() -> None:
    assert is_title_line("Orchestra Touring Grants in Scandinavia")
    assert is_title_line("Venue Season Tickets in Sold")
    assert is_title_line("Grieghallen Bergen 2025 900 no")  # short words may stay small
    assert not is_title_line("Policy note - Nordic Arts Council, Oslo - May 2025")
    assert not is_title_line("Bergen Philharmonic tours Scandinavia")  # a verb in small letters
    assert not is_title_line("Bergen Philharmonic Tours Scandinavia.")  # a full stop: a sentence
    assert not is_title_line("Touring Grants\nin Scandinavia")  # two lines: not one heading
    assert not is_title_line("  ")


def test_a_heading_and_a_table_row_state_no_relation_their_paragraphs_still_do() -> None:
    text = (
        "Orchestra Touring Grants in Scandinavia\n"
        "Policy note - Nordic Arts Council, Oslo - May 2025\n\n"
        "The Bergen Philharmonic receives most of its touring money from the Nordic Arts"
        " Council, and it plays in Stockholm every spring.\n\n"
        "Venue Season Tickets in Sold\n"
        "Konserthuset Stockholm 2025 1,200 yes\n"
    )
    found = read_statements(SourceDocument(text=text, source=SRC), [], Resolver([]))
    said = {(st.subject, st.predicate, st.object) for st in found}
    assert not any(st.sentence.startswith(("Orchestra", "Venue")) for st in found)
    assert ("Nordic Arts Council", "awardsContractTo", "Bergen Philharmonic") in said
