"""Statements from text (mining/extraction.py): mentions, typed relations, provenance."""

from __future__ import annotations

import pytest

from contracts.tools import SourceDocument
from mining.extraction import read_statements
from mining.extraction_patterns import find_mentions, predicate_for
from mining.nlp import Resolver, infer_type, mentions_in
from mining.parsing import parse
from mining.passage_selection import document_names
from tests.mining.extraction_reading import GAZ, SRC, U, read, triples


def test_supplying_a_product_to_a_customer_states_the_supply_not_production() -> None:
    # A supplier or seller may be a trader: the sentence does not say it makes the goods.
    out = read("Ganfeng Lithium supplies lithium hydroxide to Tesla.")
    assert triples(out) == {("Ganfeng Lithium", "supplies", "Tesla")}
    supply = next(s for s in out if s.object == "Tesla")
    assert (supply.subjectUal, supply.objectUal) == (U + "1", U + "2")
    assert supply.sentence == "Ganfeng Lithium supplies lithium hydroxide to Tesla."
    assert supply.source == SRC and supply.method == "dependency"


def test_making_a_product_is_production() -> None:
    out = read("Ganfeng Lithium refines lithium hydroxide at its Xinyu plant.")
    assert ("Ganfeng Lithium", "produces", "lithium hydroxide") in triples(out)
    assert ("Ganfeng Lithium", "produces", "lithium hydroxide") not in triples(
        read("Ganfeng Lithium sells lithium hydroxide.")
    )


def test_buying_from_is_the_same_fact_as_supplying() -> None:
    out = read("CATL buys lithium carbonate from Tianqi Lithium.")
    assert ("Tianqi Lithium", "supplies", "CATL") in triples(out)


def test_a_passive_with_an_agent_puts_the_agent_first() -> None:
    out = read("Arcadium Lithium was acquired by Rio Tinto in 2025.")
    assert triples(out) == {("Rio Tinto", "acquired", "Arcadium Lithium")}


def test_a_noun_can_carry_the_relation() -> None:
    assert triples(read("Tianqi Lithium holds a stake in the Greenbushes mine.")) == {
        ("Tianqi Lithium", "ownsStakeIn", "Greenbushes mine")
    }
    assert triples(read("Transport for London awarded a contract to Wrightbus.")) == {
        ("Transport for London", "awardsContractTo", "Wrightbus")
    }


def test_an_apposition_relates_its_entities_and_nothing_else() -> None:
    out = triples(read("YLB signed an agreement with Uranium One Group, a Rosatom subsidiary."))
    assert ("Uranium One Group", "subsidiaryOf", "Rosatom") in out
    assert ("Uranium One Group", "partnerOf", "YLB") in out  # symmetric: ordered by name
    assert not any("Rosatom" in (s, o) and p == "partnerOf" for s, p, o in out)


def test_a_ban_on_exports_names_the_goods_as_a_concept() -> None:
    out = read("Zimbabwe banned exports of raw lithium ore in December 2022.")
    assert triples(out) == {("Zimbabwe", "restrictsExportsOf", "raw lithium ore")}
    assert out[0].objectUal is None and out[0].objectType == "DefinedTerm"


def test_a_policy_owned_by_a_country_is_what_affects_others() -> None:
    out = triples(read("China's export restrictions affect Ganfeng Lithium and CATL."))
    assert out == {
        ("Ganfeng Lithium", "affectedBy", "China's export restrictions"),
        ("CATL", "affectedBy", "China's export restrictions"),
    }


def test_negated_and_hedged_statements_are_marked() -> None:
    negated = read("Tianqi Lithium does not supply CATL.")
    assert [(s.subject, s.predicate, s.object, s.negated) for s in negated] == [
        ("Tianqi Lithium", "supplies", "CATL", True)
    ]
    hedged = read("Investors expect SQM to keep supplying LG Energy Solution.")
    assert hedged and all(s.hedged for s in hedged)
    assert not any(s.hedged for s in read("SQM supplies LG Energy Solution."))


def test_a_name_the_dkg_lacks_is_typed_by_its_words() -> None:
    out = read("Quarrion Minerals supplies spodumene concentrate to Tesla.")
    new = next(s for s in out if s.object == "Tesla")
    assert new.subject == "Quarrion Minerals" and new.subjectUal is None
    assert new.subjectType == "Organization"
    assert infer_type("Bikita mine", "PERSON") == ("place", "Place")
    assert infer_type("Huayou Cobalt", "PERSON") == ("organization", "Organization")
    assert infer_type("Zorbia", "GPE") == ("place", "Place")


def test_relations_must_fit_the_types_of_their_ends() -> None:
    # "in" between a drug and a disease is not a location.
    assert not triples(read("Lecanemab in Alzheimer's disease slowed decline."))


def test_offsets_point_at_the_sentence_in_the_source_document() -> None:
    body = "Prices fell. Ganfeng Lithium supplies lithium hydroxide to Tesla. More later."
    out = read(body, start=1000, passageId="abc:3")
    supply = next(s for s in out if s.object == "Tesla")
    assert supply.start is not None and supply.end is not None
    assert body[supply.start - 1000 : supply.end - 1000] == supply.sentence
    assert supply.passageId == "abc:3"


def test_a_dkg_description_is_read_as_a_sentence_about_its_asset() -> None:
    out = read(
        "Chilean producer of lithium carbonate that operates in the Salar de Atacama.",
        subject="SQM",
    )
    assert ("SQM", "operatesIn", "Salar de Atacama") in triples(out)
    assert all(s.start is None for s in out)  # a description has no document offsets


def test_same_text_same_statements() -> None:
    text = "CATL buys lithium carbonate from Tianqi Lithium. Zimbabwe banned exports of ore."
    assert read(text) == read(text)


def test_gazetteer_mentions_prefer_the_longest_label() -> None:
    found = find_mentions("Ganfeng Lithium Co., Ltd. and Ganfeng Lithium", GAZ)
    assert [f[0] for f in found] == ["Ganfeng Lithium Co., Ltd.", "Ganfeng Lithium"]
    assert all(f[1] == U + "1" for f in found)
    assert find_mentions("ganfeng\nlithium", GAZ)[0][0] == "Ganfeng Lithium"
    assert find_mentions("Teslas", GAZ) == []  # whole words only


@pytest.mark.parametrize(
    ("gap", "expected"),
    [
        (" signed a supply agreement with ", ("supplies", False)),
        (" 's supplier ", ("supplies", True)),
        (" is supplied by ", ("supplies", True)),
        (" threatens ", ("affectedBy", True)),
        (" is affected by ", ("affectedBy", False)),
        (" banned exports of ", ("restrictsExportsOf", False)),
        (" a subsidiary of ", ("subsidiaryOf", False)),
        (" partners with ", ("partnerOf", False)),
        (" and ", None),
        (" , while ", None),
        (" went on at length about many things over several long years with ", None),
    ],
)  # fmt: skip
def test_the_words_between_two_names(gap: str, expected: tuple[str, bool] | None) -> None:
    assert predicate_for(gap) == expected


def test_goods_coordinated_at_the_head_are_one_fact_each() -> None:
    out = triples(read("China restricted exports of gallium and germanium in 2023."))
    assert {("China", "restrictsExportsOf", "gallium"),
            ("China", "restrictsExportsOf", "germanium")} <= out  # fmt: skip
    assert not any(o == "gallium and germanium" for _, _, o in out)


def test_coordinated_modifiers_of_one_plural_head_stay_one_phrase() -> None:
    out = triples(read("China added lithium extraction, refining and cathode technologies "
                       "to its export restriction catalogue."))  # fmt: skip
    objects = {o for _, p, o in out if p == "restrictsExportsOf"}
    assert objects == {"lithium extraction, refining and cathode technologies"}


def test_the_goods_can_be_compounded_into_the_export_noun() -> None:
    out = triples(read("Earlier this year Indonesia suspended cobalt exports for four months."))
    assert ("Indonesia", "restrictsExportsOf", "cobalt") in out
    assert not any(p == "restrictsExportsOf" for _, p, _ in triples(
        read("Indonesia reported cobalt exports for four months.")))  # fmt: skip


def test_a_longer_place_name_around_a_dkg_label_is_its_own_entity() -> None:
    gaz = [*GAZ, ("Australia", U + "30", "Country"), ("Talison Lithium", U + "31", "Corporation")]
    text = "Talison Lithium operates the Greenbushes mine in Western Australia."
    names = {(m.name, m.ual) for m in mentions_in(parse(text), gaz, Resolver(gaz))}
    assert ("Western Australia", None) in names
    assert ("Australia", U + "30") not in names
    # The label itself, or with a possessive, is still the DKG asset.
    said = "Australia's miners ship spodumene to China."
    assert ("Australia", U + "30") in {
        (m.name, m.ual) for m in mentions_in(parse(said), gaz, Resolver(gaz))
    }


def test_a_clause_after_a_preposition_keeps_the_main_subject() -> None:
    out = triples(read("China added the technologies to its list after raising tariffs on "
                       "imported lithium-ion batteries."))  # fmt: skip
    assert ("China", "imposesTariffsOn", "imported lithium-ion batteries") in out


def test_a_participle_with_an_agent_names_who_acts() -> None:
    gaz = [*GAZ, ("EDGAR emissions database", U + "44", "Dataset")]
    text = "Analysts used the EDGAR emissions database maintained by Rosatom."
    out = read_statements(SourceDocument(text=text, source=SRC), gaz, Resolver(gaz))
    assert ("Rosatom", "produces", "EDGAR emissions database") in triples(out)


def test_an_event_held_in_a_place_is_located_there_but_holding_a_stake_is_not() -> None:
    gaz = [*GAZ, ("COP28", U + "40", "Event"), ("Mali", U + "41", "Country")]
    said = read_statements(SourceDocument(text="COP28 was held in Mali.", source=SRC), gaz,
                           Resolver(gaz))  # fmt: skip
    assert ("COP28", "locatedIn", "Mali") in triples(said)
    held = read_statements(SourceDocument(text="Tesla holds a plant in Mali.", source=SRC), gaz,
                           Resolver(gaz))  # fmt: skip
    assert not any(p == "locatedIn" and s == "Tesla" for s, p, _ in triples(held))


def test_a_trial_tested_a_drug_in_a_condition() -> None:
    gaz = [*GAZ, ("ORCA-3", U + "42", "MedicalStudy"), ("Obesity", U + "43", "MedicalCondition")]
    text = "ORCA-3 tested Lecanemab in Obesity."
    out = read_statements(SourceDocument(text=text, source=SRC), gaz, Resolver(gaz))
    assert {("ORCA-3", "studies", "Lecanemab"), ("ORCA-3", "studies", "Obesity")} <= triples(out)


def test_no_untyped_fallback_beside_a_typed_object() -> None:
    out = triples(read("China raised Rosatom tariffs on imported lithium-ion batteries."))
    assert not any(p == "relatedTo" for _, p, _ in out)


def test_an_organisation_operates_the_site_it_calls_its_own() -> None:
    out = triples(read("Rio Tinto ships concentrate to Tesla from its new Kathleen Valley mine."))
    assert ("Rio Tinto", "operatesIn", "Kathleen Valley") in out
    said = triples(read("Rio Tinto said its shares rose in Germany."))
    assert not any(p == "operatesIn" for _, p, _ in said)


def test_an_agent_noun_names_what_its_holder_makes() -> None:
    out = triples(read("Tesla, a lithium refiner based in Texas, supplies CATL."))
    assert ("Tesla", "produces", "lithium") in out
    assert not any(
        p == "produces" for _, p, _ in triples(read("Tesla, a lithium buyer, pays CATL."))
    )


def test_a_short_form_is_the_full_name_another_passage_introduced() -> None:
    passage = "Meridian, which fills heparin in Ohio, buys its crude heparin from Tesla."
    alone = triples(read(passage))
    assert ("Tesla", "supplies", "Meridian Sterile Products") not in alone
    named = triples(read(passage, names=["Meridian Sterile Products", "Great Lakes Health"]))
    assert ("Tesla", "supplies", "Meridian Sterile Products") in named


def test_document_names_are_multiword_runs_of_the_body() -> None:
    text = (
        "# Heparin Supply Tightens\n"
        "The U.S. Food and Drug Administration said Changzhou Huarun\n"
        "Biochemical cut deliveries. A Meridian Sterile Products plant waits."
    )
    assert document_names(text) == ["Changzhou Huarun Biochemical", "Meridian Sterile Products"]
