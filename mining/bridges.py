"""Typed facts that connect what an answer already names, though they sound less like the
question than its best fact.

A question of several parts ("which utilities signed contracts, and at which terminals
will the cargoes land?") is matched best by the sentences of one part; a typed fact
answering another part ("Harbourline operates in Kestrel Quay") falls outside
`RELEVANCE_MARGIN` of that best fact (`near_best`) however well it answers its own part.
Letting every such fact compete for the room lowers precision (measured: demo 0.848 ->
0.739). What singles out the ones worth their slot is the answer itself: a typed relation
between two things that facts within the margin already name, typed or in their own
words, adds how they are tied together, not a new topic. Those facts join the candidates,
ranked after every fact within the margin (`after_near`), so they only take typed room
those leave.
"""

from __future__ import annotations

from mining.facts import WHERE, Fact, by_relevance, is_geography
from mining.predicates import is_typed


def bridging(near: list[Fact], facts: list[Fact], query: str) -> list[Fact]:
    """The typed facts of `facts` outside `near` whose subject and object are both ends of
    facts in `near`, most relevant first. A place within a place stays out unless the
    question asks where: it is background to the answer (`rank`), not a tie within it."""
    ends = {e.key for f in near for e in (f.subject, f.object)}
    taken = {f.key for f in near}
    asks_where = bool(WHERE.search(query))
    found = [
        f for f in facts
        if is_typed(f.predicate) and f.key not in taken
        and f.subject.key in ends and f.object.key in ends
        and (asks_where or not is_geography(f))
    ]  # fmt: skip
    return by_relevance(found)


def after_near(ranked: list[Fact], bridges: list[Fact]) -> list[Fact]:
    """`ranked` with the bridging facts moved after the rest, each part in its order: a
    fact within the margin answers the question more surely than one that only ties two
    of its ends, so a bridge never takes its slot."""
    bridged = {id(f) for f in bridges}
    return [f for f in ranked if id(f) not in bridged] + [f for f in ranked if id(f) in bridged]


__all__ = ["after_near", "bridging"]
