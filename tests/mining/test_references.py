"""What a bare definite noun refers back to (mining/references.py): each way a text
describes an entity, and what never counts. Sentences of shipping and publishing."""

from __future__ import annotations

from contracts.tools import SourceDocument
from mining.extraction import read_statements
from mining.name_shapes import shaped_names
from mining.nlp import Resolver, mentions_in
from mining.parsing import parse
from mining.references import bare_definite, continued_topic, main_subject, referent

SRC = "file:///tmp/notes.md"


def triples(text: str) -> set[tuple[str, str, str]]:
    out = read_statements(SourceDocument(text=text, source=SRC), [], Resolver([]))
    return {(s.subject, s.predicate, s.object) for s in out}


def meant(text: str, noun_at: int) -> str | None:
    """The name `referent` gives the noun at character `noun_at` of `text`."""
    doc = parse(text)
    named = mentions_in(doc, [], Resolver([]))
    tok = next(t for t in doc if t.idx == noun_at)
    found = referent(tok, named, frozenset({"company"}))
    return found.name if found else None


def test_the_noun_a_name_is_compounded_into_describes_it() -> None:
    text = "Saltmarsh Carrier opened its Stromness terminal in May. The terminal handles ferries."
    assert meant(text, text.index("terminal handles")) == "Stromness"


def test_a_predicate_noun_describes_its_subject() -> None:
    text = "Kirkwall Mutual is a cooperative of island boats. Heron Books insures the cooperative."
    assert meant(text, text.index("cooperative.")) == "Kirkwall Mutual"


def test_the_last_word_of_a_name_describes_it() -> None:
    text = "Kestrel Shipyard launched two hulls. Orkney Ferries bought them from the shipyard."
    assert meant(text, text.index("shipyard.")) == "Kestrel Shipyard"


def test_a_noun_with_its_own_of_phrase_or_no_determiner_refers_to_nothing() -> None:
    text = "Kestrel Shipyard launched two hulls. The shipyard of Hoy builds barges."
    doc = parse(text)
    noun = next(t for t in doc if t.idx == text.index("shipyard of"))
    assert not bare_definite(noun)
    plain = parse("Shipyards build barges.")
    assert not bare_definite(plain[0])


def test_the_company_is_the_subject_of_the_nearest_sentence_naming_organisations() -> None:
    text = (
        "Heron Books hired Strand Printing in March. Kestrel Media sued Heron Books in May. "
        "Orkney Ferries later signed a contract with the company."
    )
    assert meant(text, text.index("company.")) == "Kestrel Media"


def test_a_banner_in_capitals_has_no_names_but_a_capital_word_in_prose_is_one() -> None:
    assert shaped_names(parse("FERRY TIMETABLE CHANGES FOR THE WINTER SEASON")) == []
    doc = parse("Ferries on the ORKNEYLINK route run twice a day.")
    assert [doc.text[a:b] for a, b, _ in shaped_names(doc)] == ["ORKNEYLINK"]


def test_only_a_compound_chain_of_proper_nouns_extends_a_coined_name() -> None:
    doc = parse("Players of gameOS Horizon and players of eSports leagues met in Oslo.")
    spans = [doc.text[a:b] for a, b, _ in shaped_names(doc)]
    assert "gameOS Horizon" in spans and "eSports" in spans


def test_one_thing_done_is_no_goods_but_a_kind_of_thing_is() -> None:
    offer = triples("Heron Books made an offer for Strand Printing in 2021.")
    assert not any(p == "produces" for _, p, _ in offer), offer
    atlases = triples("Heron Books makes printed atlases in Kirkwall.")
    assert ("Heron Books", "produces", "printed atlases") in atlases


def test_an_apposition_says_what_its_own_name_is_and_points_back_to_nothing() -> None:
    text = (
        "Heron Books hired Strand Printing in March. "
        "In Norway, Fjord Press, the Bergen company, signed with Kestrel Paper."
    )
    assert meant(text, text.index("company,")) is None
    assert not any(s == "Heron Books" and o == "Kestrel Paper" for s, _, o in triples(text))


def test_its_in_a_second_conjunct_is_the_speaker_not_the_town_the_first_lies_near() -> None:
    # The parser hangs "its Kolbotn depot" on "Brevik" (a town its tagger takes for an
    # organisation): "its" still stands for the company that said so.
    found = triples(
        "Norvik Rail, the largest freight operator, said on Monday that its Halden depot "
        "near Brevik and its Kolbotn depot at Sofiemyr had reopened after the floods."
    )
    assert ("Norvik Rail", "depot at", "Sofiemyr") in found
    assert not {t for t in found if t[0] == "Brevik"}


def test_its_site_belongs_to_the_organisation_up_the_clauses_not_to_what_was_found_there() -> None:
    found = triples(
        "Halvorsen Dairy confirmed in March that Listeria had been detected at its plant in "
        "Enkoping, Uppsala County."
    )
    assert ("Halvorsen Dairy", "operatesIn", "Uppsala County") in found
    assert not {t for t in found if t[0] == "Listeria" and t[1] == "operatesIn"}


def test_it_inside_a_relative_clause_is_what_the_clause_describes_not_the_main_subject() -> None:
    found = triples(
        "Brenna Mills supplies pulp to Osterholt Papier, a German maker of packaging board, "
        "which said it had also been hit by the Kemi Rail strike."
    )
    assert ("Osterholt Papier", "affectedBy", "Kemi Rail strike") in found
    assert not {t for t in found if t[0] == "Brenna Mills" and t[1] == "affectedBy"}


def test_its_in_a_clause_about_an_unnamed_noun_is_that_nouns_not_a_name_before() -> None:
    # "its own copy" is any ensemble's: the orchestra named before owns no copy.
    lead = "Tallis Orchestra, a touring ensemble from Leeds, recorded the cycle in Bergen. "
    rule = "Any ensemble that carries its own copy of the Lindqvist Edition pays a licence fee."
    assert not {t for t in triples(lead + rule) if t[2] == "Lindqvist Edition"}
    # Said of the orchestra itself, the copy is its own.
    own = "Tallis Orchestra carries its own copy of the Lindqvist Edition."
    owners = {t[0] for t in triples(lead + own) if t[2] == "Lindqvist Edition"}
    assert owners == {"Tallis Orchestra"}
    # "The orchestra that ..." means the one named before: the copy is its own.
    again = "The orchestra that carries its own copy of the Lindqvist Edition pays no fee."
    owners = {t[0] for t in triples(lead + again) if t[2] == "Lindqvist Edition"}
    assert owners == {"Tallis Orchestra"}


def test_its_opening_a_sentence_carries_on_the_subject_before_of_any_kind() -> None:
    # A lake is no organisation, yet "its" continues it, not the company named after it.
    text = "Lake Tana lies beside the mill of Bahir Dar Textiles. Its water feeds Abbay Power."
    assert {s for s, _, o in triples(text) if o == "Abbay Power"} == {"Lake Tana"}


def test_the_name_a_relative_clause_gives_the_subject_is_what_it_carries_on() -> None:
    text = (
        "That strain, which Halden Institute isolated and named KX-7, spread fast. "
        "It reached Orkney Dairies in June."
    )
    subjects = {s for s, _, o in triples(text) if o == "Orkney Dairies"}
    assert subjects == {"KX-7"}


def test_it_of_be_or_after_a_name_in_its_own_sentence_is_not_the_subject_before() -> None:
    doc = parse("Veltrimab binds Tessin. It is likely that Corsair Biologics sells it.")
    assert continued_topic(next(t for t in doc if t.text == "It")) is None
    doc = parse("Veltrimab binds Tessin. In Oslo it reached Corsair Biologics.")
    assert continued_topic(next(t for t in doc if t.lower_ == "it")) is None
    doc = parse("Veltrimab binds Tessin. Corsair Biologics said it would sell it.")
    assert continued_topic(next(t for t in doc if t.lower_ == "it")) is None


def test_what_a_sentence_is_about_is_its_main_subject_or_a_cleft_s_focus() -> None:
    def about(text: str) -> str | None:
        found = main_subject(next(iter(parse(text).sents)))
        return found.text if found is not None else None

    assert about("Veltrimab binds the Tessin receptor.") == "Veltrimab"
    assert about("That strain spread fast.") == "strain"  # a noun no clause names
    assert about("That strain, which Halden Institute named KX-7, spread fast.") == "KX-7"
    assert about("It was Kestrel Rail, not Orkney Ferries, that ordered the bogies.") == "Rail"
    assert about("It binds the Tessin receptor.") is None  # a pronoun says nothing new
    assert about("Stop the ferries.") is None  # no subject at all


def test_only_an_it_that_is_its_own_sentence_s_main_subject_carries_the_topic_on() -> None:
    def topic(text: str, nth_it: int = 0) -> str | None:
        doc = parse(text)
        it = [t for t in doc if t.lower_ == "it"][nth_it]
        found = continued_topic(it)
        return found.text if found is not None else None

    assert topic("Veltrimab binds Tessin. It reaches the liver.") == "Veltrimab"
    assert topic("Veltrimab binds Tessin. Reports said it would bind more.") is None
    assert topic("Veltrimab binds Tessin. Regulators approved it.") is None
    assert topic("It binds Tessin. Veltrimab is an antibody.") is None  # nothing before


def test_it_inside_an_apposition_is_the_noun_phrase_before_the_name_it_describes() -> None:
    # "the largest producer of it" cannot be of Sodra Cell itself: it is the wood pulp.
    found = triples("Paper mills need wood pulp, and Sodra Cell, the largest producer of it "
                    "in Europe, cut output.")  # fmt: skip
    assert ("Sodra Cell", "produces", "wood pulp") in found
    found = triples("Publishers print on coated paper, and Sappi, the main producer of it, "
                    "closed a mill.")  # fmt: skip
    assert ("Sappi", "produces", "coated paper") in found


def test_it_inside_an_apposition_with_no_noun_before_the_name_stands_for_nothing() -> None:
    found = triples("Sappi, the main producer of it, closed a mill in Gratkorn.")
    assert not [t for t in found if t[1] == "produces"]


def test_a_hyphenated_word_stays_whole_in_the_goods_a_producer_makes() -> None:
    found = triples("Nordvik Dairy makes grass-fed butter for ferries on the Baltic.")
    assert ("Nordvik Dairy", "produces", "grass-fed butter") in found
