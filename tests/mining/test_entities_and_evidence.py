"""Entity resolution, new entities and DKG corroboration (mining/entities.py, evidence.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from mining.entities import EntityResolver, merge_aliases, named_alike, new_entity_id
from mining.evidence import DkgCorroborator, same_end
from storage.dkg.embedded import SEED_DIR, EmbeddedDkg
from storage.dkg.label_index import LabelIndex, build_index, entry_from_asset

PREFIX = "did:dkg:otp:2043/0x5cac41237127f94c2d21dae0b14bfefa99880630/"


@pytest.fixture(scope="module")
def dkg() -> Iterator[EmbeddedDkg]:
    store = EmbeddedDkg(None)
    store.ensure_seeded(SEED_DIR)
    yield store
    store.close()


@pytest.fixture(scope="module")
def resolver(dkg: EmbeddedDkg) -> EntityResolver:
    return EntityResolver(dkg.gazetteer(), {"Tianqi": PREFIX + "196"})


def ual_of(dkg: EmbeddedDkg, name: str) -> str:
    return next(u for label, u, _ in dkg.gazetteer() if label == name)


def test_names_resolve_by_alias_exact_spelling_first(dkg: EmbeddedDkg, resolver) -> None:
    sqm = resolver.ref("SQM", "Organization", None)
    assert sqm.ual == ual_of(dkg, "Sociedad Química y Minera de Chile S.A.")  # not "SQM S.A."
    # No exact label: legal forms are dropped, the best-staked of the same name wins.
    assert resolver.ref("Albemarle Corporation Ltd", "Organization", None).ual == ual_of(
        dkg, "Albemarle Corporation"
    )
    assert resolver.ref("Tianqi", "Organization", None).ual == PREFIX + "196"  # a resolver link


def test_a_link_counts_only_where_the_dkg_label_bears_it_out(dkg: EmbeddedDkg) -> None:
    # A small model links names to whatever UAL it saw: Tianqi's asset for two others.
    tianqi = ual_of(dkg, "Tianqi Lithium")
    links = {"Quokka Ridge Minerals": tianqi, "SQM": tianqi, "Tianqi": tianqi}
    resolver = EntityResolver(dkg.gazetteer(), links)
    assert resolver.ref("Quokka Ridge Minerals", "Organization", None).ual is None
    # The DKG's own reading of a name stands over a link.
    assert resolver.ref("SQM", "Organization", None).ual == ual_of(
        dkg, "Sociedad Química y Minera de Chile S.A."
    )
    assert resolver.ref("Tianqi", "Organization", None).ual == tianqi


def test_a_link_is_borne_out_by_a_word_in_common_or_by_initials() -> None:
    assert named_alike("Beznau", "Beznau Nuclear Power Plant")
    assert named_alike("YLB", "Yacimientos de Litio Bolivianos")
    assert named_alike("Yacimientos de Litio Bolivianos", "YLB")
    assert not named_alike("EnBW", "Axpo Holding")
    assert not named_alike("Y", "Yacimientos")  # one letter spells nothing


def test_a_phrase_names_a_dkg_event_or_product_of_its_kind(dkg: EmbeddedDkg, resolver) -> None:
    reform = resolver.ref("Chile's royalty reform", "Event", None)
    assert reform.name == "Chile lithium royalty reform proposal" and reform.ual
    assert "Chile's royalty reform" in reform.aliases
    # A thing never resolves to an event whose label happens to contain its words.
    ore = resolver.ref("raw lithium ore", "DefinedTerm", None)
    assert ore.ual is None and ore.new_id is None


def test_unknown_proper_names_become_new_entities(resolver) -> None:
    org = resolver.ref("Quokka Ridge Minerals", "Organization", None)
    assert org.ual is None and org.new_id == new_entity_id("Quokka Ridge Minerals", "organization")
    assert org.new_id.startswith("urn:kminer:entity:organization:quokka-ridge-minerals-")
    assert resolver.ref("Ana Lima", "Person", None).new_id is None  # people are not proposed
    assert resolver.ref("a royalty increase", "Event", None).new_id is None  # a phrase


def test_short_long_and_acronym_forms_merge() -> None:
    merged = merge_aliases(
        [("Bikita", "place"), ("Bikita Minerals", "organization"), ("Cryon", "organization"),
         ("Cryon Gas Technologies", "organization"), ("YLB", "organization"),
         ("Yacimientos de Litio Bolivianos", "organization")]
    )  # fmt: skip
    assert merged["Cryon"] == "Cryon Gas Technologies"
    assert merged["YLB"] == "Yacimientos de Litio Bolivianos"
    assert merged["Bikita"] == "Bikita"  # another kind of thing: not merged


def test_a_common_noun_is_not_a_short_form_of_a_longer_product() -> None:
    merged = merge_aliases([("tungsten", "product"), ("tungsten carbide inserts", "product")])
    assert merged["tungsten"] == "tungsten"


def test_phrases_for_one_concept_match() -> None:
    assert same_end("raw lithium ore", "unprocessed lithium ore")
    assert not same_end("lithium ore", "lithium carbonate")
    assert not same_end(PREFIX + "1", "lithium ore") and same_end(PREFIX + "1", PREFIX + "1")


def test_a_dkg_description_corroborates_a_claim(dkg: EmbeddedDkg) -> None:
    corroborator = DkgCorroborator(dkg, dkg.gazetteer(), lambda q, t: 0.7)
    found = corroborator.corroborate(
        "restrictsExportsOf",
        (ual_of(dkg, "China"), "China"),
        (None, "lithium extraction and refining technologies"),
        "which governments restrict exports?",
    )
    event = ual_of(dkg, "China export restrictions on lithium processing technology")
    assert [e.source for e in found.evidence] == [event]
    assert found.evidence[0].kind == "dkg-text" and found.known_in == []
    assert "export restriction catalogue" in (found.evidence[0].snippet or "")


def test_a_fact_the_dkg_states_in_its_structure_is_known(dkg: EmbeddedDkg) -> None:
    corroborator = DkgCorroborator(dkg, dkg.gazetteer(), lambda q, t: 0.7)
    deal = ual_of(dkg, "Tianqi Lithium to CATL lithium supply agreement")
    found = corroborator.corroborate(
        "supplies",
        (ual_of(dkg, "Tianqi Lithium Corporation"), "Tianqi Lithium"),
        (ual_of(dkg, "Contemporary Amperex Technology Co., Limited"), "CATL"),
        "who supplies CATL?",
    )
    assert deal in found.known_in
    assert any(e.kind == "dkg-structure" and e.source == deal for e in found.evidence)
    nothing = corroborator.corroborate(
        "acquired", (ual_of(dkg, "Tesla, Inc."), "Tesla"), (None, "Quokka Ltd"), "q"
    )
    assert nothing.evidence == [] and nothing.known_in == []


def test_an_entity_shared_by_several_facts_has_its_neighbours_read_once(
    dkg: EmbeddedDkg, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []
    query = dkg.query

    def counted(sparql: str, **kwargs: Any) -> Any:
        asked.append(sparql)
        return query(sparql, **kwargs)

    monkeypatch.setattr(dkg, "query", counted)
    corroborator = DkgCorroborator(dkg, dkg.gazetteer(), lambda q, t: 0.7)
    china = (ual_of(dkg, "China"), "China")
    first = corroborator.corroborate(
        "restrictsExportsOf", china, (None, "lithium extraction and refining technologies"), "q"
    )
    again = corroborator.corroborate(
        "restrictsExportsOf", china, (None, "lithium extraction and refining technologies"), "q"
    )
    assert len(asked) == 1  # China's neighbours; the other end has no asset to look up
    assert again == first and first.evidence


def _index_of(*assets: dict) -> LabelIndex:
    return build_index(entry_from_asset(f"ual:{i}", a, 1.0) for i, a in enumerate(assets))


def test_an_event_phrase_names_the_one_dkg_event_about_the_claims_other_end() -> None:
    index = _index_of(
        {"@id": "urn:x:org:osterra", "@type": "Organization", "name": "Osterra Mining"},
        {"@id": "urn:x:org:brann", "@type": "Organization", "name": "Brann Metals"},
        {"@type": "Event", "name": "Vorn copper licence dispute",
         "about": [{"@id": "urn:x:org:osterra"}]},
        {"@type": "Event", "name": "Vorn export duty", "about": [{"@id": "urn:x:org:osterra"}]},
        {"@type": "Event", "name": "Brann royalty dispute", "about": [{"@id": "urn:x:org:brann"}]},
    )  # fmt: skip
    assert [e[0] for e in index.concerning("ual:0")] == ["Vorn copper licence dispute",
                                                         "Vorn export duty"]  # fmt: skip
    resolver = EntityResolver(index.gazetteer(), {}, index.concerning)
    phrase = "long dispute with the state company"
    # Same head noun, about Osterra: the DKG's event, the text's words kept as an alias.
    found = resolver.ref(phrase, "Event", None, partner="ual:0")
    assert (found.name, found.ual, found.aliases) == ("Vorn copper licence dispute", "ual:2",
                                                      [phrase])  # fmt: skip
    # Without the other end, or about another company's dispute, it stays the text's own.
    assert resolver.ref(phrase, "Event", None).ual is None
    assert resolver.ref("a new levy", "Event", None, partner="ual:0").ual is None
    assert EntityResolver(index.gazetteer(), {}).ref(phrase, "Event", None, "ual:0").ual is None


def test_two_dkg_events_with_the_phrases_head_leave_it_unresolved() -> None:
    index = _index_of(
        {"@id": "urn:x:org:osterra", "@type": "Organization", "name": "Osterra Mining"},
        {"@type": "Event", "name": "Vorn licence dispute", "about": {"@id": "urn:x:org:osterra"}},
        {"@type": "Event", "name": "Sylvania tax dispute", "participant": "urn:x:org:osterra"},
    )  # fmt: skip
    resolver = EntityResolver(index.gazetteer(), {}, index.concerning)
    assert resolver.ref("a bitter dispute", "Event", None, partner="ual:0").ual is None


def test_an_asset_is_in_the_places_its_location_chain_names() -> None:
    index = _index_of(
        {"@id": "urn:x:country:fr", "@type": "Country", "name": "Freedonia",
         "identifier": "ISO3166-1:FR"},
        {"@id": "urn:x:region:vorn", "@type": "Place", "name": "Vorn",
         "containedInPlace": {"@id": "urn:x:country:fr"}},
        {"@type": "Landform", "name": "Osterra pit", "location": {"@id": "urn:x:region:vorn"}},
        {"@type": "Corporation", "name": "Brann Metals",
         "address": {"@type": "PostalAddress", "addressCountry": "fr"}},
        {"@type": "Corporation", "name": "Nowhere Ltd"},
    )  # fmt: skip
    assert index.places_of("ual:2") == {"ual:1", "ual:0"}  # the pit, its region, the country
    assert index.places_of("ual:3") == {"ual:0"}  # by the address's country code
    assert index.places_of("ual:4") == set() and index.places_of("ual:missing") == set()


def test_a_government_body_acts_for_the_one_country_the_dkg_places_it_in() -> None:
    index = _index_of(
        {"@id": "urn:x:country:fr", "@type": "Country", "name": "Freedonia"},
        {"@type": "GovernmentOrganization", "name": "Freedonia Trade Office",
         "location": {"@id": "urn:x:country:fr"}},
        {"@type": "Corporation", "name": "Osterra Mining", "location": {"@id": "urn:x:country:fr"}},
        {"@type": "GovernmentOrganization", "name": "Unplaced Agency"},
    )  # fmt: skip
    resolver = EntityResolver(index.gazetteer(), {}, places_of=index.places_of)
    office = resolver.ref("Freedonia Trade Office", None, None)
    country = resolver.state_of(office)
    assert country is not None and (country.name, country.ual) == ("Freedonia", "ual:0")
    # A company is not its country; a body the DKG places nowhere stays itself.
    assert resolver.state_of(resolver.ref("Osterra Mining", None, None)) is None
    assert resolver.state_of(resolver.ref("Unplaced Agency", None, None)) is None
    assert EntityResolver(index.gazetteer(), {}).state_of(office) is None
