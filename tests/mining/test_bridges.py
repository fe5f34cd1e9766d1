"""A typed fact less like the question than its best one still answers when it ties
together what the answer already names (`mining/bridges.py`). Rail depots and ferries:
a domain no labeled set uses."""

from __future__ import annotations

from typing import Any

from contracts.tools import EvidenceItem, Statement
from mining.bridges import after_near, bridging
from mining.entities import EntityRef
from mining.facts import Fact

SOURCE = "https://rail.example/depots"
QUESTION = "Which operators buy carriages from Nordvik Rail, and how are they serviced?"


def said(
    subject: str, predicate: str, obj: str, obj_type: str, relevance: float,
    subject_type: str = "Organization",
) -> Statement:  # fmt: skip
    return Statement(subject=subject, subjectType=subject_type, predicate=predicate,
                     object=obj, objectType=obj_type, sentence=f"{subject} {predicate} {obj}.",
                     source=SOURCE, relevance=relevance)  # fmt: skip


def claims(statements: list[Statement], query: str, room: int) -> list[str]:
    from activities.enrichment import EnrichmentActivities
    from contracts.tools import ProposeArgs
    from storage.dkg.embedded import EmbeddedDkg

    rows: list[dict[str, Any]] = EnrichmentActivities(EmbeddedDkg(None), None, None).propose(  # type: ignore[arg-type]
        ProposeArgs(statements=statements, query=query, maxCandidates=room),
        "2026-11-28T00:00:00",
    )
    return [r["asset"]["name"] for r in rows if r["kind"] == "claim"]


STATEMENTS = [
    # The best typed fact, and what the answer says in its sources' own words.
    said("Nordvik Rail", "supplies", "Harbourline Ferries", "Organization", 0.9),
    said("Harbourline Ferries", "service carriage at", "Kestrel Depot", "Place", 0.85),
    said("Nordvik Rail", "build carriage in", "Narvik", "Place", 0.8),
    # Beyond the margin (0.18) of the best typed fact:
    # ... a tie between two things the answer names;
    said("Harbourline Ferries", "operatesIn", "Kestrel Depot", "Place", 0.6),
    # ... a place the answer never names;
    said("Harbourline Ferries", "operatesIn", "Tromso", "Place", 0.6),
    # ... where one place of the answer lies in another.
    said("Kestrel Depot", "locatedIn", "Narvik", "Place", 0.6, subject_type="Place"),
]


def test_a_typed_fact_beyond_the_margin_between_two_ends_of_the_answer_is_proposed() -> None:
    names = claims(STATEMENTS, QUESTION, room=8)
    assert "Harbourline Ferries operates in Kestrel Depot" in names
    assert "Harbourline Ferries operates in Tromso" not in names
    # A place within a place is background, unless the question asks where.
    assert "Kestrel Depot is located in Narvik" not in names
    where = "Where are the carriages Nordvik Rail sells to ferry operators serviced?"
    assert "Kestrel Depot is located in Narvik" in claims(STATEMENTS, where, room=8)


def test_a_tie_between_ends_of_the_answer_never_takes_a_slot_within_the_margin() -> None:
    # Typed room is half the room: one slot, the best typed fact's.
    names = claims(STATEMENTS, QUESTION, room=2)
    assert "Nordvik Rail supplies Harbourline Ferries" in names
    assert "Harbourline Ferries operates in Kestrel Depot" not in names


def fact(predicate: str, subject: str, obj: str, score: float) -> Fact:
    f = Fact(predicate, EntityRef(subject, "Organization"), EntityRef(obj, "Place"))
    line = f"{subject} {predicate} {obj}."
    f.statements.append(
        Statement(subject=subject, predicate=predicate, object=obj, sentence=line, source=SOURCE)
    )
    f.evidence.append(EvidenceItem(source=SOURCE, snippet=line, score=score))
    return f


def test_ties_come_after_every_fact_within_the_margin_whatever_their_rank() -> None:
    near = fact("operatesIn", "Harbourline Ferries", "Narvik", 0.9)
    known = fact("operatesIn", "Nordvik Rail", "Kestrel Depot", 0.85)
    known.known_in = ["did:dkg:otp:1/0x1/7"]  # ranked late: the DKG states it already
    tie = fact("operatesIn", "Nordvik Rail", "Narvik", 0.5)
    assert bridging([near, known], [near, known, tie], QUESTION) == [tie]
    assert after_near([near, tie, known], [tie]) == [near, known, tie]
