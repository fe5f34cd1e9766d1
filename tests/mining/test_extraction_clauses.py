"""Relations the shape of a clause decides (mining/extraction.py, extraction_patterns.py):
running or controlling a site, appositions and relative clauses, cues that stop at a
comma, names broken over lines or headings or read as other words, where an organisation,
a project or an event lies, and what a supply or a contract is for."""

from __future__ import annotations

from contracts.tools import SourceDocument, Statement
from mining.extraction import read_statements
from mining.extraction_patterns import predicate_for
from mining.nlp import Resolver
from mining.passage_selection import document_names
from tests.mining.extraction_reading import GAZ, SRC, U, read, triples


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
    found = triples(out)
    assert ("Rio Tinto", "supplies", "Tianqi Lithium") in found
    assert not any(o == "Tesla" and s == "Rio Tinto" for s, _, o in found)
    # What the apposition itself says is kept in its own words.
    assert found - {("Rio Tinto", "supplies", "Tianqi Lithium")} <= {
        ("Tianqi Lithium", "be source of", "Tesla")
    }


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


def test_what_a_speaker_said_it_would_do_is_stated_and_a_belief_or_condition_is_hedged() -> None:
    def hedged(text: str) -> bool:
        found = read_statements(SourceDocument(text=text, source=SRC), [], Resolver([]))
        return next(s.hedged for s in found if s.object == "Hoy Shipping")

    said = "Orkney Ferries said it would phase out charters from Hoy Shipping."
    assert not hedged(said)  # the reported "will": a commitment
    assert hedged(said.replace(".", " if fuel prices rose."))
    assert hedged(said.replace("said", "believed"))
    assert hedged(said.replace("said", "says"))  # "says it would": a present conditional


def test_a_place_set_off_after_a_place_locates_that_place_and_nothing_else() -> None:
    # "Bergen, Norway": the terminal is in Bergen; Norway says where Bergen is.
    ferries = triples(read("Nordvik Ferries runs a freight terminal in Bergen, Norway."))
    assert ("Nordvik Ferries", "operatesIn", "Bergen") in ferries
    assert ("Bergen", "locatedIn", "Norway") in ferries
    assert not any(s == "Nordvik Ferries" and o == "Norway" for s, _, o in ferries)
    timber = triples(read("Alder Timber, which operates a sawmill in Kuopio, Finland, sells"
                          " pulp to Stora Paper."))  # fmt: skip
    assert ("Kuopio", "locatedIn", "Finland") in timber
    assert not any(s == "Alder Timber" and o == "Finland" for s, _, o in timber)
