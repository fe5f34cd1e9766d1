"""A passive that names no agent takes the actor of the same act named earlier in the
text: invented companies and countries (tests/mining/extraction_reading.py), no verb
listed anywhere."""

from __future__ import annotations

from contracts.tools import SourceDocument
from mining.extraction import read_statements
from mining.nlp import Resolver
from tests.mining.extraction_reading import read_events

LEAD = "The Freedonian regulator, Sylvania, has fined three miners for rigging bids."


def test_a_passive_without_agent_takes_the_actor_of_the_same_earlier_act() -> None:
    found = read_events(f"{LEAD} Osterra Mining was fined 9 million euros.")
    # The relation is named by the act's lemma (the small model's lemmatizer gives "fin").
    assert {(s, o) for s, _, o in found} == {("Sylvania", "Osterra Mining")}


def test_the_act_may_be_named_in_another_form_of_the_verb() -> None:
    text = "Freedonia suspends Kalvik Metals. Osterra Mining was suspended in May too."
    assert ("Freedonia", "suspend", "Osterra Mining") in read_events(text)


def test_a_passive_of_another_verb_takes_no_actor() -> None:
    found = read_events(f"{LEAD} Osterra Mining was acquired in 2020.")
    assert not any(o == "Osterra Mining" and s == "Sylvania" for s, _, o in found)


def test_a_passive_with_its_own_agent_keeps_it() -> None:
    found = read_events(f"{LEAD} Osterra Mining was fined by Freedonia in May.")
    assert not any(s == "Sylvania" and o == "Osterra Mining" for s, _, o in found)


def test_an_act_named_only_later_explains_no_earlier_passive() -> None:
    found = read_events(f"Osterra Mining was fined 9 million euros. {LEAD}")
    assert not any(s == "Sylvania" and o == "Osterra Mining" for s, _, o in found)


def test_a_denied_act_names_no_actor() -> None:
    text = "Freedonia did not suspend Kalvik Metals. Osterra Mining was suspended in May."
    assert not any(s == "Freedonia" and o == "Osterra Mining" for s, _, o in read_events(text))


def test_the_subjects_of_gapped_clauses_share_the_act_and_are_not_related_to_each_other() -> None:
    text = (
        f"{LEAD} Osterra Mining was fined 9 million euros, Kalvik Metals 7 million euros"
        " and Brannock Foods 2 million euros."
    )
    found = read_events(text)
    assert {o for s, _, o in found if s == "Sylvania"} == {
        "Osterra Mining",
        "Kalvik Metals",
        "Brannock Foods",
    }
    parallel = {"Osterra Mining", "Kalvik Metals", "Brannock Foods"}
    assert not any(s in parallel and o in parallel for s, _, o in found)


def test_a_later_clause_with_its_own_verb_is_no_gap() -> None:
    found = read_events(
        f"{LEAD} Osterra Mining was fined 9 million euros, and Kalvik Metals paid 7 million euros."
    )
    assert ("Sylvania", "Kalvik Metals") not in {(s, o) for s, _, o in found}


# "Z followed", "Z did the same": English leaves the act out when a second party does it.
def _pairs(text: str) -> set[tuple[str, str, bool]]:
    found = read_statements(SourceDocument(text=text, source="https://x.org/a"), [], Resolver([]))
    return {(s.subject, s.object, s.negated) for s in found}


def test_a_party_that_followed_did_the_same_act_to_the_same_party() -> None:
    found = _pairs("The Swedish Transport Agency fined Baltic Ferry Lines on 3 May, and the "
                   "Danish Maritime Authority followed on 9 June.")  # fmt: skip
    assert ("Danish Maritime Authority", "Baltic Ferry Lines", False) in found


def test_did_the_same_repeats_the_act_in_whichever_slot_the_first_party_had() -> None:
    found = _pairs("The British Library bought papers from Penguin Books, and the Bodleian "
                   "Library did the same.")  # fmt: skip
    assert ("Penguin Books", "Bodleian Library", False) in found


def test_a_party_that_did_not_follow_is_said_not_to_have_done_it() -> None:
    found = _pairs("The British Library sued Penguin Books, and the Bodleian Library did "
                   "not follow.")  # fmt: skip
    assert ("Bodleian Library", "Penguin Books", True) in found


def test_following_with_an_act_of_its_own_or_following_someone_repeats_nothing() -> None:
    found = _pairs("The British Library bought papers from Penguin Books, and the Bodleian "
                   "Library followed with a purchase from Faber.")  # fmt: skip
    assert not {p for p in found if "Bodleian Library" in p[:2] and "Penguin Books" in p[:2]}
    found = _pairs("Nordic Rail sued Baltic Freight Lines, and Oresund Trains followed "
                   "Nordic Rail into the market.")  # fmt: skip
    assert ("Oresund Trains", "Baltic Freight Lines", False) not in found


def test_a_follower_in_a_clause_closed_by_a_semicolon_did_the_same() -> None:
    found = _pairs("The Swedish Transport Agency fined Baltic Ferry Lines on 3 May, and the "
                   "Danish Maritime Authority followed on 9 June; both cited safety.")  # fmt: skip
    assert ("Danish Maritime Authority", "Baltic Ferry Lines", False) in found
