"""A name the question's relevant facts read as a place is no party to a relation that
takes no place.

The small NER model, and a relation's slot where it has no guess, type one mention of a
name at a time: the town a fab stands in ("Bergen Wafer ships argon to Tanager's fab in
Skarvik") is read a place by most sentences and an organisation by the one whose
relation expects a customer ("Nordgas supplies Skarvik"). The predicates' own kinds
(`mining/predicates.py`) say which slot takes a place; a new name that other facts
read as a place, in a slot that takes none, makes the typed fact a misreading, not a
claim. A DKG asset keeps the type the DKG gives it, and a fact relating a name to a
longer form of itself ("Skarvik Works operates in Skarvik Works") says nothing of
what the name is.
"""

from __future__ import annotations

from mining.facts import Fact
from mining.names import normalise_label
from mining.predicates import PREDICATES, is_typed


def _read_as_places(facts: list[Fact]) -> set[str]:
    """The names some fact between two different names reads as a place."""
    places: set[str] = set()
    for f in facts:
        if normalise_label(f.subject.name) == normalise_label(f.object.name):
            continue
        places.update(normalise_label(e.name) for e in (f.subject, f.object) if e.family == "place")
    return places


def without_place_misreads(facts: list[Fact]) -> list[Fact]:
    """`facts` less the typed ones with a new end, not read as a place here, that other
    facts read as a place, in a slot whose kinds include no place."""
    places = _read_as_places(facts)

    def misread(f: Fact) -> bool:
        if not is_typed(f.predicate):
            return False
        spec = PREDICATES[f.predicate]
        slots = ((f.subject, spec.subject_kinds), (f.object, spec.object_kinds))
        return any(
            kinds and "place" not in kinds and not end.ual and end.family != "place"
            and normalise_label(end.name) in places
            for end, kinds in slots
        )  # fmt: skip

    return [f for f in facts if not misread(f)]


__all__ = ["without_place_misreads"]
