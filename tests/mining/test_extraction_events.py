"""Events and references across sentences (mining/extraction.py), on invented names so no
rule can be tuned to the shipped documents: the event a bare "the outbreak" or "the
controls" refers back to, the country "the government" is, what harmed or affected whom,
the sentences a passage carries as context, and who sponsors and studies what in a
clinical trial."""

from __future__ import annotations

from contracts.tools import SourceDocument
from mining.extraction import read_statements
from mining.nlp import Resolver, infer_type
from mining.passage_selection import context_before
from tests.mining.extraction_reading import EV_GAZ, SRC, read_events, read_trials, triples


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
    # What the ministry does is the country's; that it is the country's is said too.
    assert {(s, p, o) for s, p, o in out if s == "Ministry of Trade"} == {
        ("Ministry of Trade", "of", "Sylvania")
    }


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
