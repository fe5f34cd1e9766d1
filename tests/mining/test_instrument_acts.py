"""What a party's instrument does, the party does: "A adopted D, which banned B" says A
banned B (mining/instrument_acts.py). Invented libraries, orchards and ferries."""

from __future__ import annotations

from contracts.tools import SourceDocument
from mining.extraction import read_statements
from mining.nlp import Resolver

U = "did:dkg:otp:20430/0xabc/"
GAZ: list[tuple[str, str, str]] = [
    ("Harbourside Library Board", U + "1", "GovernmentOrganization"),
    ("Bylaw 7", U + "2", "Legislation"),
    ("Quillon Press", U + "3", "Corporation"),
    ("Ferrow Orchards", U + "4", "Corporation"),
    ("Pippin Report", U + "5", "CreativeWork"),
    ("Marlet Ferries", U + "6", "Corporation"),
]


def _pairs(text: str) -> set[tuple[str, str]]:
    found = read_statements(
        SourceDocument(text=text, source="https://news.example.org/b"), GAZ, Resolver(GAZ)
    )
    return {(s.subject, s.object) for s in found if not s.negated}


def test_what_an_adopted_bylaw_bans_its_board_bans() -> None:
    text = "The Harbourside Library Board adopted Bylaw 7, which banned Quillon Press last May."
    assert ("Harbourside Library Board", "Quillon Press") in _pairs(text)


def test_what_a_published_report_criticised_its_publisher_criticised() -> None:
    text = "Ferrow Orchards published the Pippin Report, which criticised Marlet Ferries."
    assert ("Ferrow Orchards", "Marlet Ferries") in _pairs(text)


def test_a_party_that_did_not_adopt_the_bylaw_did_not_ban_anyone() -> None:
    text = "The Harbourside Library Board never adopted Bylaw 7, which banned Quillon Press."
    assert ("Harbourside Library Board", "Quillon Press") not in _pairs(text)


def test_an_actor_on_the_other_end_acts_for_itself() -> None:
    # Marlet Ferries is a company, not an instrument: what it did is its own.
    text = "Ferrow Orchards hired Marlet Ferries, which criticised Quillon Press."
    assert ("Ferrow Orchards", "Quillon Press") not in _pairs(text)
