"""A relation in its source's own words that holds a number or a word twice running is a
misreading (`mining/facts.py` `is_malformed`): it waits until every well-formed relation
had its place among the proposals. Orchards and cider presses: a domain no labeled set
uses."""

from __future__ import annotations

from typing import Any

from contracts.tools import Statement
from mining.facts import is_malformed

SOURCE = "https://orchards.example/harvest"
QUESTION = "Which presses take apples from Halloway Orchards?"


def said(subject: str, predicate: str, obj: str, relevance: float) -> Statement:
    return Statement(subject=subject, subjectType="Organization", predicate=predicate,
                     object=obj, objectType="Organization",
                     sentence=f"{subject} {predicate} {obj}.", source=SOURCE,
                     relevance=relevance)  # fmt: skip


def claims(statements: list[Statement], room: int) -> list[str]:
    from activities.enrichment import EnrichmentActivities
    from contracts.tools import ProposeArgs
    from storage.dkg.embedded import EmbeddedDkg

    rows: list[dict[str, Any]] = EnrichmentActivities(EmbeddedDkg(None), None, None).propose(  # type: ignore[arg-type]
        ProposeArgs(statements=statements, query=QUESTION, maxCandidates=room),
        "2026-11-28T00:00:00",
    )
    return [r["asset"]["name"] for r in rows if r["kind"] == "claim"]


def test_a_number_or_a_doubled_word_makes_a_relation_malformed() -> None:
    # "Kestrel Cider took in the apples in 2024 batch 7": the figure belongs to an end.
    assert is_malformed("take in 2024")
    # "took in the apples in Halloway's yard" read as one relation: two attachments.
    assert is_malformed("take in in")
    assert not is_malformed("take in apple from")
    assert not is_malformed("press")


def test_a_malformed_relation_gives_its_place_to_a_well_formed_one() -> None:
    statements = [
        said("Kestrel Cider", "take in in", "Halloway Yard", 0.9),
        said("Brambling Press", "ship in 2.4", "Halloway Orchards", 0.88),
        said("Kestrel Cider", "buy apple from", "Halloway Orchards", 0.8),
        said("Brambling Press", "press apple of", "Halloway Orchards", 0.78),
    ]
    names = claims(statements, room=2)
    assert "Kestrel Cider buy apple from Halloway Orchards" in names
    assert "Brambling Press press apple of Halloway Orchards" in names
