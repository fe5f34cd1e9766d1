"""The answer answers what the question asks for: its organisations, its places."""

from __future__ import annotations

from contracts.tools import AnswerArgs
from mining.answer import compose_answer
from mining.question import asked_families


def claim(cid: str, subject: tuple[str, str], obj: tuple[str, str], relevance: float) -> dict:
    """A proposed claim 'subject <relation> object' with the schema types of its ends."""
    asset = {
        "name": f"{subject[0]} restricts exports of {obj[0]}",
        "about": {"@type": subject[1], "name": subject[0],
                  "dkg:restrictsExportsOf": {"@type": obj[1], "name": obj[0]}},
        "additionalProperty": {"name": "predicate", "value": "restrictsExportsOf"},
        "provenance": {"sources": [f"https://{cid}.example.org/a"]},
        "trustSignals": {"confidence": 0.5, "relevance": relevance, "proposed": True,
                         "support": "one source"},
    }  # fmt: skip
    return {"candidateId": cid, "kind": "claim", "asset": asset, "accepted": False,
            "status": "pending"}  # fmt: skip


def test_what_kind_of_entity_a_question_asks_for() -> None:
    assert asked_families("Which ferry operators cut sailings to Orkney?") == {"organization"}
    assert asked_families("Who insures the Kirkwall quay?") == {"organization", "person"}
    assert asked_families("Where do the island's hospitals buy oxygen?") == {"place"}
    assert asked_families("Which ports closed in the storm?") == {"place"}
    assert asked_families("How far did sailings fall in May?") == frozenset()


def test_a_which_companies_question_is_answered_by_companies_first() -> None:
    country = claim("c1", ("Norway", "Country"), ("salmon feed", "Product"), 0.9)
    company = claim("c2", ("Saltmarsh Carrier", "Organization"), ("Orkney", "Place"), 0.6)
    both = [country, company]
    answer = compose_answer(
        AnswerArgs(query="Which ferry operators face curbs?", candidates=both, sourcesSearched=4)
    )
    assert [s.candidateIds for s in answer.sentences] == [["c2"], ["c1"]]
    # Without a kind asked, relevance alone orders them.
    plain = compose_answer(
        AnswerArgs(query="How did fuel curbs spread?", candidates=both, sourcesSearched=4)
    )
    assert [s.candidateIds for s in plain.sentences] == [["c1"], ["c2"]]
