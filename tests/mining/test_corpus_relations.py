"""Extraction over the shipped demo corpus: each relation sentence yields its typed fact."""

from __future__ import annotations

import pytest

from contracts.tools import SourceDocument, Statement
from mining.extraction import read_statements
from mining.names import normalise_name
from mining.nlp import Resolver
from mining.predicates import PREDICATES
from storage.corpus.documents import parse_document
from tests.support.paths import SHIPPED_CORPUS

CORPUS = SHIPPED_CORPUS

# (document, subject, relation, object): what the document states, in canonical direction.
RELATIONS = [
    ("lithium_01_ganfeng_tesla.md", "Ganfeng Lithium", "supplies", "Tesla"),
    ("lithium_01_ganfeng_tesla.md", "Ganfeng Lithium", "operatesIn", "Goulamina mine"),
    ("lithium_02_sqm_codelco.md", "SQM", "operatesIn", "Salar de Atacama"),
    ("lithium_02_sqm_codelco.md", "Codelco", "partnerOf", "SQM"),
    ("lithium_03_tianqi_greenbushes.md", "Tianqi Lithium", "ownsStakeIn", "Greenbushes mine"),
    ("lithium_03_tianqi_greenbushes.md", "Talison Lithium", "operatesIn", "Greenbushes mine"),
    ("lithium_04_chile_royalty.md", "SQM", "affectedBy", "Chile's royalty reform"),
    ("lithium_05_china_export_controls.md", "Tianqi Lithium", "supplies", "CATL"),
    ("lithium_05_china_export_controls.md", "CATL", "affectedBy", "China's export restrictions"),
    ("lithium_06_zimbabwe_ban.md", "Sinomine", "ownsStakeIn", "Bikita mine"),
    ("lithium_06_zimbabwe_ban.md", "Zimbabwe", "restrictsExportsOf", "raw lithium ore"),
    ("lithium_07_drc_manono.md", "Zijin Mining", "partnerOf", "Cominière"),
    ("lithium_08_bolivia_ylb.md", "YLB", "operatesIn", "Salar de Uyuni"),  # "controls" a site
    ("lithium_08_bolivia_ylb.md", "Uranium One Group", "subsidiaryOf", "Rosatom"),
    ("lithium_09_mexico_nationalisation.md", "Mexico", "nationalises", "lithium"),
    ("lithium_10_pilbara_offtakes.md", "Pilbara Minerals", "operatesIn", "Pilgangoora project"),
    ("lithium_10_pilbara_offtakes.md", "Pilbara Minerals", "supplies", "Ganfeng Lithium"),
    ("lithium_11_rio_arcadium.md", "Rio Tinto", "acquired", "Arcadium Lithium"),
    ("lithium_12_australia_hard_rock.md", "Mineral Resources", "operatesIn", "Wodgina mine"),
    ("lithium_13_us_tariffs.md", "SQM", "supplies", "LG Energy Solution"),
    ("lithium_14_argentina_rigi.md", "Eramet", "operatesIn", "Argentina"),
    ("climate_03_atacama_water.md", "SQM", "affectedBy", "Chile megadrought"),
    ("procurement_01_tfl_buses.md", "Transport for London", "awardsContractTo", "Wrightbus"),
    ("procurement_02_dla_lithium.md", "Defense Logistics Agency", "awardsContractTo", "Albemarle"),
    ("procurement_04_gsa_fluence.md", "CATL", "supplies", "Fluence"),
    ("trials_01_clarity_ad.md", "Eisai", "sponsors", "Clarity AD"),
    ("trials_02_surmount.md", "Eli Lilly", "sponsors", "SURMOUNT-1"),
    ("trials_02_surmount.md", "SURMOUNT-1", "studies", "Tirzepatide"),
]  # fmt: skip


def statements(name: str, gazetteer: list[tuple[str, str, str]]) -> list[Statement]:
    doc = parse_document((CORPUS / name).read_text(encoding="utf-8"), name)
    source = SourceDocument(text=doc.content, source=doc.url, title=doc.title, start=0)
    return read_statements(source, gazetteer, Resolver(gazetteer))


def same(name: str, ual: str | None, expected: str, resolver: Resolver) -> bool:
    known = resolver.resolve(expected)
    if known is not None and ual is not None:
        return known[1] == ual
    return normalise_name(name) == normalise_name(expected)


@pytest.mark.parametrize(("document", "subject", "relation", "obj"), RELATIONS)
def test_the_document_states_the_fact(
    gazetteer: list[tuple[str, str, str]], document: str, subject: str, relation: str, obj: str
) -> None:
    resolver = Resolver(gazetteer)
    symmetric = PREDICATES[relation].symmetric
    found = [
        s for s in statements(document, gazetteer)
        if s.predicate == relation and not s.negated and not s.hedged
        and (
            (same(s.subject, s.subjectUal, subject, resolver)
             and same(s.object, s.objectUal, obj, resolver))
            or (symmetric and same(s.subject, s.subjectUal, obj, resolver)
                and same(s.object, s.objectUal, subject, resolver))
        )
    ]  # fmt: skip
    assert found, [(s.subject, s.predicate, s.object) for s in statements(document, gazetteer)]
    # Provenance: the sentence is in the document, at the offsets given.
    text = parse_document((CORPUS / document).read_text(encoding="utf-8"), document).content
    st = found[0]
    assert st.start is not None and st.end is not None
    assert text[st.start : st.end] == st.sentence


def test_negated_facts_are_not_asserted(gazetteer: list[tuple[str, str, str]]) -> None:
    # "Ganfeng Lithium said its projects in Argentina and Mali would not be affected"
    found = statements("lithium_05_china_export_controls.md", gazetteer)
    assert not any(
        s.predicate == "affectedBy" and s.subject.startswith("Ganfeng") and not s.negated
        and "not be affected" in s.sentence
        for s in found
    )  # fmt: skip
