"""A name the question's facts read as a place is no customer or parent
(`mining/place_readings.py`). Textile mills and their towns: a domain no labeled set uses."""

from __future__ import annotations

from contracts.tools import EvidenceItem, Statement
from mining.entities import EntityRef
from mining.facts import Fact
from mining.place_readings import without_place_misreads

SOURCE = "https://mills.example/report"


def fact(subject: EntityRef, predicate: str, obj: EntityRef) -> Fact:
    line = f"{subject.name} {predicate} {obj.name}."
    f = Fact(predicate, subject, obj)
    f.statements.append(
        Statement(
            subject=subject.name, predicate=predicate, object=obj.name, sentence=line, source=SOURCE
        )
    )
    f.evidence.append(EvidenceItem(source=SOURCE, snippet=line, score=0.6))
    return f


def org(name: str, ual: str | None = None) -> EntityRef:
    return EntityRef(name, "Organization", ual=ual)


def place(name: str) -> EntityRef:
    return EntityRef(name, "Place")


def test_a_town_read_as_a_customer_once_is_no_customer() -> None:
    looms, dyers, fibres = org("Tessmer Looms"), org("Harlow Dye Works"), org("Corvin Fibres")
    sells = fact(looms, "supplies", dyers)
    mill = fact(looms, "operatesIn", place("Skarvik"))
    town_as_customer = fact(fibres, "supplies", org("Skarvik"))  # the town, typed by its slot
    town_in_words = fact(fibres, "ship yarn to mill in", place("Skarvik"))
    kept = without_place_misreads([sells, mill, town_as_customer, town_in_words])
    assert kept == [sells, mill, town_in_words]


def test_the_dkg_type_and_a_name_related_to_itself_outweigh_a_place_reading() -> None:
    looms = org("Tessmer Looms")
    # The DKG knows Brenna Water as a company, whatever one sentence's reading.
    utility = org("Brenna Water", ual="did:dkg:otp:1/0x2/5")
    serves = fact(utility, "supplies", looms)
    read_as_place = fact(looms, "operatesIn", place("Brenna Water"))
    # "Lune Spinning operates in Lune Spinning": says nothing of what the name is.
    spinner = org("Lune Spinning")
    itself = fact(spinner, "operatesIn", place("Lune Spinning"))
    sells = fact(spinner, "supplies", looms)
    facts = [serves, read_as_place, itself, sells]
    assert without_place_misreads(facts) == facts
