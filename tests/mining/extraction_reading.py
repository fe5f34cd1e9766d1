"""What the extraction tests read with: a gazetteer of demo-like names, one of invented
countries and companies for events and one of a clinical trial, and the readers of a
document over each (mining/extraction.py's read_statements)."""

from __future__ import annotations

from contracts.tools import SourceDocument, Statement
from mining.extraction import read_statements
from mining.nlp import Resolver

U = "did:dkg:otp:20430/0xcdb/"
GAZ: list[tuple[str, str, str]] = [
    ("Ganfeng Lithium Co., Ltd.", U + "1", "Corporation"),
    ("Ganfeng Lithium", U + "1", "Corporation"),
    ("Tesla", U + "2", "Corporation"),
    ("lithium hydroxide", U + "3", "Product"),
    ("Tianqi Lithium", U + "4", "Corporation"),
    ("CATL", U + "5", "Corporation"),
    ("Zimbabwe", U + "6", "Country"),
    ("China", U + "7", "Country"),
    ("YLB", U + "8", "GovernmentOrganization"),
    ("Uranium One Group", U + "9", "Corporation"),
    ("Rosatom", U + "10", "GovernmentOrganization"),
    ("Greenbushes mine", U + "11", "Landform"),
    ("Transport for London", U + "12", "GovernmentOrganization"),
    ("Wrightbus", U + "13", "Corporation"),
    ("Rio Tinto", U + "14", "Corporation"),
    ("Arcadium Lithium", U + "15", "Corporation"),
    ("Lecanemab", U + "16", "Drug"),
    ("Alzheimer's disease", U + "17", "MedicalCondition"),
    ("SQM", U + "18", "Corporation"),
    ("Salar de Atacama", U + "19", "Landform"),
    ("LG Energy Solution", U + "20", "Corporation"),
]
SRC = "https://news.example.org/a"


def read(text: str, **doc: object) -> list[Statement]:
    return read_statements(SourceDocument(text=text, source=SRC, **doc), GAZ, Resolver(GAZ))


def triples(statements: list[Statement]) -> set[tuple[str, str, str]]:
    return {(s.subject, s.predicate, s.object) for s in statements if not s.negated}


# Events and references across sentences: the world's words, not the demo's (invented
# names, so no rule can be tuned to the shipped documents).
EV_GAZ: list[tuple[str, str, str]] = [
    ("Freedonia", U + "101", "Country"),
    ("Sylvania", U + "102", "Country"),
    ("Osterra Mining", U + "103", "Corporation"),
    ("Kalvik Metals", U + "104", "Corporation"),
    ("Brannock Foods", U + "105", "Corporation"),
]


def read_events(text: str, **doc: object) -> set[tuple[str, str, str]]:
    found = read_statements(
        SourceDocument(text=text, source=SRC, **doc), EV_GAZ, Resolver(EV_GAZ)
    )
    return triples(found)


TRIAL_GAZ: list[tuple[str, str, str]] = [
    ("Orvane Bio", U + "201", "Corporation"),
    ("Halden Pharma", U + "202", "Corporation"),
    ("ARBOR-3", U + "203", "MedicalStudy"),
    ("Velostat", U + "204", "Drug"),
    ("Quorelin", U + "205", "Drug"),
    ("Psoriasis", U + "206", "MedicalCondition"),
]


def read_trials(text: str) -> list[Statement]:
    return read_statements(SourceDocument(text=text, source=SRC), TRIAL_GAZ, Resolver(TRIAL_GAZ))
