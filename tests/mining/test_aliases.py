"""One entity under two names in one text (mining/aliases.py), on sentences of domains
no labeled set uses (forestry, rail, broadcasting)."""

from __future__ import annotations

from contracts.tools import SourceDocument
from mining.extraction import read_statements
from mining.nlp import Resolver, mentions_in
from mining.parsing import parse

SRC = "https://news.example.org/a"


def named(text: str, gazetteer: list[tuple[str, str, str]] | None = None) -> dict[str, str]:
    """Each mention's words -> the entity name they are read as."""
    g = gazetteer or []
    return {m.text: m.name for m in mentions_in(parse(text), g, Resolver(g))}


def test_an_abbreviation_after_or_is_the_same_entity() -> None:
    found = named("The Nordic Timber Association, or NTF, cut its harvest forecast.")
    assert found["NTF"] == "Nordic Timber Association"


def test_known_as_names_the_same_entity_in_any_shape() -> None:
    found = named("the Latvian Rail Authority, known as Railwatch, fined Baltic Freight Lines.")
    assert found.get("Railwatch") not in (None, "Railwatch")


def test_an_apposed_abbreviation_is_read_as_the_dkg_asset() -> None:
    gazetteer = [("BBRA", "did:dkg:test/7", "GovernmentOrganization")]
    found = named("BBRA, the Baltic Broadcasting Regulatory Authority, fined Radio Kurzeme.",
                  gazetteer)  # fmt: skip
    assert found["Baltic Broadcasting Regulatory Authority"] == "BBRA"


def test_two_names_of_one_entity_are_never_related_and_later_uses_carry_the_name() -> None:
    text = ("The Nordic Timber Association, or NTF, opened an office in Riga, and it has since "
            "hired Kalns Consulting. The NTF later sued Kalns Consulting.")  # fmt: skip
    found = read_statements(SourceDocument(text=text, source=SRC), [], Resolver([]))
    pairs = {(s.subject, s.object) for s in found}
    assert ("Nordic Timber Association", "NTF") not in pairs
    assert ("NTF", "Nordic Timber Association") not in pairs
    sued = [s for s in found if s.object == "Kalns Consulting" and "sue" in s.predicate]
    assert [(s.subject, s.subjectText) for s in sued] == [("Nordic Timber Association", "NTF")]


def test_two_different_names_set_side_by_side_stay_two() -> None:
    found = named("Kalns Consulting, or Vidzeme Audit, will review the accounts.")
    assert found["Vidzeme Audit"] == "Vidzeme Audit"


def test_every_statement_about_the_entity_carries_the_name_the_text_gave_it() -> None:
    text = "The Nordic Timber Association (NTA) sued Kalns Consulting in Riga."
    found = read_statements(SourceDocument(text=text, source=SRC), [], Resolver([]))
    sued = [s for s in found if s.object == "Kalns Consulting"]
    assert sued and all(s.subjectText == "NTA" for s in sued)


def test_an_abbreviation_spelled_by_a_name_s_initials_is_that_name_later_in_the_text() -> None:
    found = named(
        "The Baltic Rail Safety Board fined Kurzeme Freight in May. "
        "The BRSB's report listed seven faults."
    )
    assert found["BRSB"] == "Baltic Rail Safety Board"


def test_capitals_that_spell_no_earlier_name_s_initials_stay_a_name_of_their_own() -> None:
    found = named(
        "The Baltic Rail Safety Board fined Kurzeme Freight in May. The BRS report followed."
    )
    assert found.get("BRS", "BRS") == "BRS"
    found = named("The Baltic Rail Safety Board fined Kurzeme Freight. Brsb Oy said nothing.")
    assert found.get("Brsb Oy", "Brsb Oy") == "Brsb Oy"


def test_a_name_of_its_own_words_is_carried_over_a_piece_of_the_full_name() -> None:
    # The document calls the board "Norway's Dairy Board"; this passage shortens it to
    # "Dairy Board" and gives it a name of its own: that name is what the claim carries.
    text = "Norway's Dairy Board, known as TINEMELK, buys milk from Fjordland Farms."
    doc = SourceDocument(text=text, source=SRC, names=["Norway's Dairy Board"])
    found = read_statements(doc, [], Resolver([]))
    board = [s for s in found if s.subject == "Norway's Dairy Board"]
    board += [s for s in found if s.object == "Norway's Dairy Board"]
    texts = {s.subjectText if s.subject == "Norway's Dairy Board" else s.objectText
             for s in board}  # fmt: skip
    assert board and texts == {"TINEMELK"}


def test_a_shortened_name_is_still_carried_when_the_text_gives_no_other() -> None:
    text = "The Dairy Board buys milk from Fjordland Farms."
    doc = SourceDocument(text=text, source=SRC, names=["Norway's Dairy Board"])
    found = read_statements(doc, [], Resolver([]))
    bought = [s for s in found if "Fjordland Farms" in (s.subject, s.object)]
    assert bought and all("Dairy Board" in (s.subjectText, s.objectText) for s in bought)
