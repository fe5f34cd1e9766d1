"""Statements from text (mining/extraction.py): mentions, typed relations, provenance."""

from __future__ import annotations

import pytest

from activities.search import context_before, document_names
from contracts.tools import SourceDocument, Statement
from mining.extraction import read_statements
from mining.extraction_patterns import find_mentions, predicate_for
from mining.nlp import Resolver, infer_type, mentions_in
from mining.parsing import parse

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


def test_a_bare_definite_event_refers_back_to_the_event_named_before() -> None:
    text = (
        "An outbreak of avian flu in Lower Vorn has cut poultry flocks by a fifth. "
        "The outbreak has hit Brannock Foods, the largest processor in the region."
    )
    assert ("Brannock Foods", "affectedBy", "outbreak of avian flu in Lower Vorn") in (
        read_events(text)
    )


def test_the_controls_refer_back_to_a_restriction_of_another_name() -> None:
    text = (
        "Sylvania has tightened export licensing for tungsten this month. "
        "The controls have hit Kalvik Metals, a maker of drill bits."
    )
    assert ("Kalvik Metals", "affectedBy", "export licensing for tungsten") in read_events(text)


def test_a_bare_event_with_nothing_said_before_names_no_cause() -> None:
    out = read_events("The outbreak has hit Brannock Foods.")
    assert not any(p == "affectedBy" for _, p, _ in out)


def test_the_sentences_before_a_passage_resolve_its_references_but_yield_nothing() -> None:
    context = "An outbreak of avian flu in Lower Vorn has cut poultry flocks by a fifth."
    passage = "The outbreak has hit Brannock Foods, the largest processor in the region."
    found = read_statements(
        SourceDocument(text=passage, source=SRC, context=context, start=500),
        EV_GAZ,
        Resolver(EV_GAZ),
    )
    assert triples(found) == {
        ("Brannock Foods", "affectedBy", "outbreak of avian flu in Lower Vorn")
    }
    # Provenance stays on the passage: its own sentence and offsets.
    assert found[0].sentence == passage and found[0].start == 500
    assert read_events(passage) == set()


def test_the_government_is_the_country_the_text_is_about() -> None:
    text = (
        "Freedonia depends on copper for half of its exports. "
        "Last year the government suspended cobalt exports for two months."
    )
    assert ("Freedonia", "restrictsExportsOf", "cobalt") in read_events(text)
    # With no country named before it, "the government" stays unresolved.
    assert read_events("The government suspended cobalt exports.") == set()


def test_a_harming_participle_names_the_clause_event_as_the_cause() -> None:
    text = (
        "Freedonia depends on copper. Earlier this year the government suspended cobalt "
        "exports for four months, hitting Osterra Mining and Kalvik Metals."
    )
    out = read_events(text)
    cause = "Freedonia cobalt export suspension"
    assert ("Osterra Mining", "affectedBy", cause) in out
    assert ("Kalvik Metals", "affectedBy", cause) in out
    # The country did not "affect" them itself: the suspension did.
    assert ("Osterra Mining", "affectedBy", "Freedonia") not in out


def test_taking_away_what_an_entity_holds_affects_the_holder() -> None:
    out = read_events("Sylvania revoked Osterra Mining's permits in 2023 after protests.")
    cause = "Sylvania's revocation of Osterra Mining's permits"
    # The holder is affected by the event; the clause itself also says who revoked what,
    # in its own words.
    assert out == {("Osterra Mining", "affectedBy", cause),
                   ("Sylvania", "revoke permit", "Osterra Mining")}  # fmt: skip
    held = read_events(
        "In May the mining office cancelled the Vorn concessions held by subsidiaries of "
        "Kalvik Metals."
    )
    assert held == {("Kalvik Metals", "affectedBy", "cancellation of Vorn concessions")}


def test_a_company_put_on_a_named_list_is_affected_by_the_list() -> None:
    out = read_events("Sylvania added Kalvik Metals to the Section 88 list of restricted firms.")
    assert ("Kalvik Metals", "affectedBy", "Section 88 list") in out
    # Being listed says nothing about regulation: no "regulates" reading.
    assert not any(p == "regulates" for _, p, _ in out)
    exports = read_events("Freedonia added graphite to its export control list.")
    assert ("Freedonia", "restrictsExportsOf", "graphite") in exports


def test_a_cooperative_is_an_organisation_whatever_the_tagger_says() -> None:
    assert infer_type("Cooperativa Serra Alta", "PRODUCT")[0] == "organization"
    assert infer_type("Valley Growers Cooperative", "PERSON")[0] == "organization"


def test_a_passage_carries_the_whole_sentences_before_it_as_context() -> None:
    body = "# Title\n\nFirst sentence here. Second one is longer.\n\nThe passage starts here."
    start = body.index("The passage")
    assert context_before(body, start) == "First sentence here. Second one is longer."
    # A limit that cuts a sentence keeps only the whole ones after the cut.
    assert context_before(body, start, limit=30) == "Second one is longer."
    assert context_before(body, 0) == "" and context_before(body, None) == ""


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


def test_whoever_runs_a_trial_sponsors_it() -> None:
    out = triples(read_trials("Orvane Bio is also running ARBOR-3 to test skin outcomes."))
    assert ("Orvane Bio", "sponsors", "ARBOR-3") in out


def test_a_trial_that_compares_two_drugs_studies_both() -> None:
    out = triples(read_trials("ARBOR-3 will compare Velostat with Quorelin from Halden Pharma."))
    assert {("ARBOR-3", "studies", "Velostat"), ("ARBOR-3", "studies", "Quorelin")} <= out


def test_the_patients_a_trial_enrols_name_the_condition_it_studies() -> None:
    text = "Orvane Bio sponsors ARBOR-3, which tested Velostat in patients with severe Psoriasis."
    assert ("ARBOR-3", "studies", "Psoriasis") in triples(read_trials(text))


def test_a_trial_noun_named_by_a_study_studies_its_of_and_in_phrases() -> None:
    text = "Orvane Bio sponsors the ARBOR-3 trial of Velostat in Psoriasis."
    out = triples(read_trials(text))
    assert {("ARBOR-3", "studies", "Velostat"), ("ARBOR-3", "studies", "Psoriasis")} <= out


def test_the_study_refers_back_to_the_trial_named_before() -> None:
    text = "ARBOR-3 enrolled 900 adults. Halden Pharma funds the study."
    assert ("Halden Pharma", "sponsors", "ARBOR-3") in triples(read_trials(text))


def test_a_plan_is_not_a_fact_even_when_only_the_words_between_names_say_it() -> None:
    out = read_trials("The phase 3 trial has started, and Orvane Bio plans studies in Psoriasis.")
    plans = [s for s in out if (s.subject, s.object) == ("Orvane Bio", "Psoriasis")]
    assert plans and all(s.hedged for s in plans)


def test_a_state_action_by_a_countrys_own_body_is_the_countrys() -> None:
    text = "Sylvania's Ministry of Trade has tightened export licensing for tungsten and cobalt."
    out = read_events(text)
    assert {("Sylvania", "restrictsExportsOf", "tungsten"),
            ("Sylvania", "restrictsExportsOf", "cobalt")} <= out  # fmt: skip
    assert not any(s == "Ministry of Trade" for s, _, _ in out)


def test_whoever_had_to_stop_after_an_event_is_affected_by_it() -> None:
    text = (
        "Osterra Mining has stopped shipping ore through the port after attacks on trucks "
        "in the border region."
    )
    assert ("Osterra Mining", "affectedBy", "attacks on trucks in the border region") in (
        read_events(text)
    )
    # A reason that is no event is no cause.
    assert read_events("Osterra Mining stopped shipping ore after the first quarter.") == set()


def test_a_cause_no_entity_stands_behind_is_named_by_its_phrase() -> None:
    text = "Brannock Foods said it had also been affected by the licensing delays."
    assert ("Brannock Foods", "affectedBy", "licensing delays") in read_events(text)


def test_running_a_site_somewhere_is_operating_there() -> None:
    gaz = [("Orvane Bio", U + "201", "Corporation"), ("Lower Vorn", U + "301", "City")]
    text = "Orvane Bio, which runs a 200-litre fermentation plant in Lower Vorn, sells enzymes."
    out = triples(read_statements(SourceDocument(text=text, source=SRC), gaz, Resolver(gaz)))
    assert ("Orvane Bio", "operatesIn", "Lower Vorn") in out
    # A place after a common noun that is no site says nothing of where the firm operates.
    other = "Orvane Bio runs a campaign in Lower Vorn."
    out = triples(read_statements(SourceDocument(text=other, source=SRC), gaz, Resolver(gaz)))
    assert ("Orvane Bio", "operatesIn", "Lower Vorn") not in out


def test_controlling_a_site_is_running_it_and_controlling_a_company_is_owning_it() -> None:
    gaz = [("Orvane Bio", U + "201", "Corporation"), ("Halden Pharma", U + "202", "Corporation"),
           ("Salar de Vorn", U + "302", "Landform")]  # fmt: skip
    site = "Orvane Bio controls the Salar de Vorn, the largest salt flat in the region."
    company = "Orvane Bio controls Halden Pharma."
    read_gaz = lambda t: triples(  # noqa: E731
        read_statements(SourceDocument(text=t, source=SRC), gaz, Resolver(gaz))
    )
    assert ("Orvane Bio", "operatesIn", "Salar de Vorn") in read_gaz(site)
    assert ("Orvane Bio", "ownsStakeIn", "Salar de Vorn") not in read_gaz(site)
    assert ("Orvane Bio", "ownsStakeIn", "Halden Pharma") in read_gaz(company)


def test_an_attempt_is_not_the_deed() -> None:
    out = read("YLB has struggled for a decade to produce lithium hydroxide at scale.")
    assert out and all(s.hedged for s in out if s.predicate == "produces")


def test_a_label_two_assets_share_means_the_one_the_relation_expects() -> None:
    # The same words name a drug and a battery chemical: a trial tests the drug, a
    # company produces the chemical.
    gaz = [*GAZ, ("Sodium carbonate", U + "30", "Product"), ("Sodium carbonate", U + "31", "Drug"),
           ("ARBOR-3", U + "32", "MedicalStudy")]  # fmt: skip
    doc = SourceDocument(text="The ARBOR-3 trial tests low-dose Sodium carbonate.", source=SRC)
    tested = [s for s in read_statements(doc, gaz, Resolver(gaz)) if s.predicate == "studies"]
    assert [s.objectUal for s in tested] == [U + "31"]
    doc = SourceDocument(text="Tianqi Lithium produces sodium carbonate.", source=SRC)
    made = [s for s in read_statements(doc, gaz, Resolver(gaz)) if s.predicate == "produces"]
    assert [s.objectUal for s in made] == [U + "30"]


def test_a_company_relied_on_is_a_supplier() -> None:
    out = read("Tesla depends on Tianqi Lithium for lithium hydroxide.")
    assert ("Tianqi Lithium", "supplies", "Tesla") in triples(out)
    # A country relied on is no supplier; the sentence still says Tesla relies on China.
    relied = triples(read("Tesla relies on China for lithium hydroxide."))
    assert not any(p == "supplies" for _, p, _ in relied)
    assert ("Tesla", "rely on", "China") in relied


def test_a_cue_does_not_reach_across_a_comma_into_another_clause() -> None:
    assert predicate_for("'s largest suppliers of cobalt, depends on") is None
    assert predicate_for(" coffee trader, which buys robusta from") is None
    assert predicate_for(", a subsidiary of") == ("subsidiaryOf", False)


def test_an_apposition_names_the_noun_it_follows() -> None:
    # "Tesla's new source, Tianqi Lithium" is Tianqi: Tesla buys nothing here.
    out = read("Tesla's new source, Tianqi Lithium, itself buys spodumene from Rio Tinto.")
    assert triples(out) == {("Rio Tinto", "supplies", "Tianqi Lithium")}


def test_which_after_a_describing_apposition_is_the_entity_described() -> None:
    # Not the place that describes it, and not by the words between YLB and Zimbabwe.
    out = read("Export curbs hit SQM, the Zimbabwe lithium trader, which buys brine from YLB.")
    assert ("YLB", "supplies", "SQM") in triples(out)
    assert not any("Zimbabwe" in (s, o) for s, p, o in triples(out) if p != "locatedIn")


def test_stranding_a_company_affects_it() -> None:
    out = read("China's export ban has stranded Tianqi Lithium.")
    assert any(s.subject == "Tianqi Lithium" and s.predicate == "affectedBy" for s in out)


def test_a_heading_line_is_not_part_of_the_name_below_it() -> None:
    text = ("1. Lithium\nTianqi Lithium buys spodumene from Rio Tinto under a contract that runs "
            "until the end of the decade, the company said.")  # fmt: skip
    assert ("Rio Tinto", "supplies", "Tianqi Lithium") in triples(read(text))
    # Hard-wrapped prose breaks a name over two lines and it stays one name.
    wrapped = "Tesla buys large volumes of lithium hydroxide from Tianqi\nLithium."
    assert ("Tianqi Lithium", "supplies", "Tesla") in triples(read(wrapped))


def test_a_hyphenated_owner_adjective_is_not_ownership() -> None:
    assert predicate_for(", a family-owned roaster in") is None
    assert predicate_for(", a state-controlled miner near") is None
    assert predicate_for(" owns a stake in ") == ("ownsStakeIn", False)


def test_an_organisation_described_as_somewhere_is_located_there() -> None:
    out = read("Tianqi Lithium, a refiner in Zimbabwe, buys spodumene from Rio Tinto.")
    assert ("Tianqi Lithium", "locatedIn", "Zimbabwe") in triples(out)
    out = read("Export curbs hit SQM, the Zimbabwe coffee trader, last year.")
    assert ("SQM", "locatedIn", "Zimbabwe") in triples(out)


def test_a_restriction_on_goods_hung_on_the_verb_still_restricts_them() -> None:
    assert ("China", "restrictsExportsOf", "graphite") in triples(
        read("China introduced export controls on graphite in 2023.")
    )
    sanctions = read("China imposed sanctions against Rosatom.")
    assert ("China", "sanctions", "Rosatom") in triples(sanctions)


def test_goods_compounded_into_an_imposed_export_restriction_are_restricted() -> None:
    assert ("Zimbabwe", "restrictsExportsOf", "graphite") in triples(
        read("Zimbabwe imposed graphite export controls last year.")
    )


def test_the_noun_a_relative_clause_hangs_on_is_its_object() -> None:
    # "the controls that China introduced" = China introduced the controls; so did it the
    # controls coordinated with them.
    out = read("The move follows the graphite export controls that China introduced in 2023 "
               "and the controls on gallium and germanium.")  # fmt: skip
    assert {("China", "restrictsExportsOf", g) for g in ("graphite", "gallium", "germanium")} <= (
        triples(out)
    )


def test_the_remaining_stake_is_of_what_the_stake_before_it_was() -> None:
    out = read("Tesla owns 51% of Tianqi Lithium, and CATL holds the remaining 49%.")
    owners = {s for s, p, o in triples(out) if (p, o) == ("ownsStakeIn", "Tianqi Lithium")}
    assert owners == {"Tesla", "CATL"}
    assert not triples(read("CATL holds the remaining 49%."))


def test_in_narrow_columns_a_name_broken_over_two_short_lines_stays_one_name() -> None:
    column = "Tesla buys lithium\nhydroxide from Osterra\nMining Corporation\nunder a contract."
    assert ("Osterra Mining Corporation", "supplies", "Tesla") in triples(read(column))


def test_a_one_word_name_read_as_a_nationality_is_a_party_when_a_verb_acts_on_it() -> None:
    out = read("The European Union and the United States sanctioned Belaruskali in 2021.")
    assert ("United States", "sanctions", "Belaruskali") in triples(out)
    # The adjective stays an adjective: "Chinese" is nobody.
    assert not any("Chinese" in (s, o) for s, _, o in triples(read("Chinese firms supply CATL.")))


def test_a_name_guessed_a_person_in_a_companys_slot_is_an_organisation() -> None:
    out = read("Ganfeng Lithium supplies lithium hydroxide to Brekke Kaffe.")
    supply = next(s for s in out if s.predicate == "supplies")
    assert (supply.object, supply.objectType) == ("Brekke Kaffe", "Organization")


def test_a_place_set_off_after_a_place_is_where_it_lies() -> None:
    out = read("Tesla operates a fermentation plant in Lindau, Austria.")
    assert ("Lindau", "locatedIn", "Austria") in triples(out)
    assert ("Tesla", "operatesIn", "Lindau") in triples(out)
    # A list of places coordinates them: none lies in another.
    listed = read("Tesla operates plants in Lindau, Graz and Linz.")
    assert not {t for t in triples(listed) if t[1] == "locatedIn"}


def test_a_name_after_a_site_and_in_is_a_place() -> None:
    out = read("Tesla runs a fermentation plant in Kundl.")
    plant = next(s for s in out if s.object == "Kundl")
    assert (plant.predicate, plant.objectType) == ("operatesIn", "Place")


def test_a_company_operates_where_its_own_site_is() -> None:
    out = read("Tesla acquired Brekke Kaffe in 2021 and has since moved the final assembly "
               "to its plant in Gothenburg.")  # fmt: skip
    assert ("Tesla", "operatesIn", "Gothenburg") in triples(out)
    # What is bought for "its" site is the buyer's site, not the seller's.
    bought = read("Ganfeng Lithium also sells lithium hydroxide to Tesla for its battery plant "
                  "in Austin, Texas, according to people familiar with it.")  # fmt: skip
    assert ("Tesla", "operatesIn", "Austin") in triples(bought)
    assert ("Ganfeng Lithium", "operatesIn", "Austin") not in triples(bought)


def test_a_named_project_in_a_place_lies_there() -> None:
    out = read("Rio Tinto is building the Jadar project in Serbia with a loan.")
    assert ("Jadar", "locatedIn", "Serbia") in triples(out)
    assert ("Jadar", "operatesIn", "Serbia") not in triples(out)


def test_a_short_form_the_tagger_reads_as_a_common_noun_is_still_the_name() -> None:
    out = read("The outbreak has hit Changzhou Huarun Biochemical, the largest processor. "
               "Huarun supplies crude heparin to Tesla.")  # fmt: skip
    assert ("Changzhou Huarun Biochemical", "supplies", "Tesla") in triples(out)


def test_a_coordinated_to_names_another_recipient() -> None:
    out = read("Osterra Minerals supplies crude heparin to Brann Sterile Products, a US maker "
               "of heparin injections, and to Quell Pharma in Italy.")  # fmt: skip
    assert {("Osterra Minerals", "supplies", "Brann Sterile Products"),
            ("Osterra Minerals", "supplies", "Quell Pharma")} <= triples(out)  # fmt: skip


def test_and_inside_an_organisations_name_does_not_split_it() -> None:
    one = read("The Sylvanian Food and Drug Administration regulates lithium hydroxide.")
    assert {s.subject for s in one} == {"Sylvanian Food and Drug Administration"}
    cut = read("The Northern Health Emergency Preparedness and Response Authority awarded "
               "a contract to Wrightbus.")  # fmt: skip
    assert {s.subject for s in cut} == {"Northern Health Emergency Preparedness and Response "
                                        "Authority"}  # fmt: skip
    # Two companies stay two.
    two = triples(read("Osterra Minerals and Brann Resources supply Tesla."))
    assert ("Osterra Minerals and Brann Resources", "supplies", "Tesla") not in two


def test_a_heading_line_is_not_part_of_the_document_name_below_it() -> None:
    text = (
        "Summary of the year.\n1. Neon\nVeltrix Semiconductor buys most of its neon "
        "from Cryon Gas Technologies in Odesa, with Lindqvist\nIndustrial Gases second."
    )
    assert document_names(text) == ["Veltrix Semiconductor", "Cryon Gas Technologies",
                                     "Lindqvist Industrial Gases"]  # fmt: skip


def test_a_place_describing_an_event_says_where_it_is() -> None:
    gaz = [*GAZ, ("COP41", U + "90", "Event")]
    out = read_statements(SourceDocument(text="COP41 is a summit in Varrow, Brazil.", source=SRC),
                          gaz, Resolver(gaz))  # fmt: skip
    assert {("COP41", "locatedIn", "Varrow"), ("Varrow", "locatedIn", "Brazil")} <= triples(out)


def test_whose_site_it_is_does_not_say_where_the_owner_is() -> None:
    out = triples(read("Greenbushes mine is Tesla's operation in Western Australia."))
    assert ("Tesla", "locatedIn", "Western Australia") not in out


def test_a_supply_says_what_is_supplied() -> None:
    sold = read("Ganfeng Lithium supplies lithium hydroxide to Tesla.")
    supply = next(s for s in sold if s.predicate == "supplies")
    assert (supply.goods, supply.goodsUal) == ("lithium hydroxide", U + "3")
    bought = read("Tesla buys green arabica from Osterra Minerals.")
    supply = next(s for s in bought if s.predicate == "supplies")
    assert (supply.subject, supply.object, supply.goods) == (
        "Osterra Minerals", "Tesla", "green arabica"
    )
    # A share of the goods is still those goods; an amount of nothing named is none.
    share = read("Tesla sources the bulk of its lithium hydroxide from Ganfeng Lithium.")
    assert next(s for s in share if s.predicate == "supplies").goods == "lithium hydroxide"
    assert next(s for s in read("Tesla buys most of it from Ganfeng Lithium.")).goods is None
    # No object, no goods; and goods belong to supplies only.
    assert next(s for s in read("Ganfeng Lithium supplies Tesla.")).goods is None
    assert all(s.goods is None for s in read("Rio Tinto acquired Arcadium Lithium."))


def test_a_contract_says_what_it_is_for() -> None:
    out = read("Transport for London awarded a contract to Wrightbus for a second batch of "
               "electric buses.")  # fmt: skip
    award = next(s for s in out if s.predicate == "awardsContractTo")
    assert (award.object, award.goods) == ("Wrightbus", "electric buses")


def test_its_after_a_sentence_points_to_that_sentences_subject_not_its_last_name() -> None:
    said = "Ganfeng Lithium supplies lithium hydroxide to Tesla. "
    out = triples(read(said + "The agreement covers material from its plants in China."))
    assert ("Ganfeng Lithium", "operatesIn", "China") in out
    assert ("Tesla", "operatesIn", "China") not in out
    # "the company's plant" owns its site as "its plant" does.
    out = triples(read(said + "The agreement covers material from the company's plant in China."))
    assert ("Ganfeng Lithium", "operatesIn", "China") in out
    # A converter (a plant converting ore into chemicals) is a site like a refinery.
    out = triples(read(said + "The agreement covers material from its converters in China."))
    assert ("Ganfeng Lithium", "operatesIn", "China") in out
    # Within its own sentence, "its" is still the clause's subject.
    out = triples(read("Tesla buys hydroxide from Ganfeng Lithium for its plant in China."))
    assert ("Tesla", "operatesIn", "China") in out


def test_a_contract_naming_no_goods_is_for_what_its_winner_then_says_it_will_deliver() -> None:
    def award(text: str) -> Statement:
        return next(s for s in read(text) if s.predicate == "awardsContractTo")

    won = "Transport for London awarded a contract to Wrightbus under its bus framework."
    later = " Wrightbus will deliver hydrogen coaches to the depots over two years."
    assert award(won + later).goods == "hydrogen coaches"
    # Only the winner's delivery, only one said at or after the award, and only asserted.
    assert award(won + " Rio Tinto will deliver hydrogen coaches to the depots.").goods is None
    assert award(later.strip() + " " + won).goods is None
    assert award(won + " Wrightbus will not supply hydrogen coaches this year.").goods is None
    # Goods the contract names itself stay.
    named = "Transport for London awarded a contract to Wrightbus for electric buses."
    assert award(named + later).goods == "electric buses"



def test_a_company_noun_describing_a_name_the_ner_took_for_a_person_says_where_it_is() -> None:
    roaster = read("Tesla supplies green arabica to Brekke Kaffe, a family-owned roaster in Oslo.")
    assert ("Brekke Kaffe", "locatedIn", "Oslo") in triples(roaster)
    located = next(s for s in roaster if s.predicate == "locatedIn")
    assert located.subjectType == "Organization"
    # A person's noun says nothing of a company's place.
    farmer = read("Tesla supplies green arabica to Brekke Kaffe, a family-owned farmer in Oslo.")
    assert not [s for s in farmer if s.predicate == "locatedIn"]
