"""Candidate JSON-LD, contradiction records, the answer and relinking (pure parts)."""

from __future__ import annotations

from contracts.run import AUTO_REVIEW_PROPOSED, Candidate, ContradictionRecord, Decision
from contracts.tools import AnswerArgs, EvidenceItem, Statement
from mining.answer import compose_answer
from mining.claims import claim_asset, contradiction_records, entity_asset, fact_id
from mining.entities import EntityRef, EntityResolver
from mining.facts import Fact, asked_ends_first, companions, group_facts, rank, select
from mining.jsonld import validate_asset
from workflows.relink import relinked
from workflows.review import resolve_contradictions

U = "did:dkg:otp:20430/0xcdb/"
GAZ = [
    ("Tianqi Lithium", U + "1", "Corporation"),
    ("CATL", U + "2", "Corporation"),
    ("Talison Lithium", U + "3", "Corporation"),
    ("Albemarle", U + "4", "Corporation"),
]


def st(subject: str, predicate: str, obj: str, source: str, **kw: object) -> Statement:
    return Statement(subject=subject, predicate=predicate, object=obj, source=source,
                     sentence=f"{subject} {predicate} {obj}.", relevance=0.8, **kw)  # fmt: skip


def test_the_same_fact_from_two_sources_is_one_candidate_with_both_items() -> None:
    facts = group_facts(
        [st("Tianqi Lithium", "supplies", "CATL", "https://a.org/1", subjectType="Corporation",
            objectType="Corporation"),
         st("Tianqi Lithium", "supplies", "CATL", "https://b.org/2", subjectType="Corporation",
            objectType="Corporation")],
        EntityResolver(GAZ, {}),
    )  # fmt: skip
    assert len(facts) == 1 and facts[0].independent_sources == 2
    asset, triplets = claim_asset(facts[0], ["supply_chain"], "who supplies CATL?", "2026-11-23")
    validate_asset(asset)
    assert asset["@type"] == "Claim" and asset["name"] == "Tianqi Lithium supplies CATL"
    assert asset["about"]["@id"] == U + "1"
    assert asset["about"]["dkg:supplies"] == {
        "@type": "Corporation",
        "name": "CATL",
        "@id": U + "2",
    }
    assert asset["linkedAssets"] == [U + "1", U + "2"]
    assert [e["source"] for e in asset["provenance"]["evidence"]] == [
        "https://a.org/1", "https://b.org/2"
    ]  # fmt: skip
    assert triplets[0] == {
        "subject": "Tianqi Lithium",
        "predicate": "supplies",
        "object": "CATL",
        "source": "https://a.org/1",
        "kind": "knowledge",
    }
    assert {t["kind"] for t in triplets[1:]} == {"provenance"}


def test_a_negating_source_and_conflicting_candidates_are_flagged() -> None:
    resolver = EntityResolver(GAZ, {})
    facts = group_facts(
        [st("Talison Lithium", "subsidiaryOf", "Tianqi Lithium", "https://a.org/1"),
         st("Talison Lithium", "subsidiaryOf", "Albemarle", "https://b.org/2"),
         st("Tianqi Lithium", "supplies", "CATL", "https://c.org/3"),
         st("Tianqi Lithium", "supplies", "CATL", "https://d.org/4", negated=True)],
        resolver,
    )  # fmt: skip
    records = contradiction_records(facts, "2026-11-23T00:00:00")
    supply = next(f for f in facts if f.predicate == "supplies")
    [against] = records[fact_id(supply)]
    assert against["status"] == "flagged" and against["created_at"] == "2026-11-23T00:00:00"
    assert against["contradiction_with"][0]["evidence"][0]["source"] == "https://d.org/4"
    parents = [f for f in facts if f.predicate == "subsidiaryOf"]
    for fact in parents:
        [record] = records[fact_id(fact)]
        other = next(f for f in parents if f is not fact)
        assert record["contradiction_with"][0]["kg_fact_id"] == fact_id(other)
        ContradictionRecord.model_validate(record)


def test_a_reviewer_decision_resolves_flagged_records() -> None:
    record = ContradictionRecord(
        id="c1", subject={"id": "a", "name": "A"}, predicate="supplies",
        object={"id": "b", "name": "B"},
    )  # fmt: skip
    candidate = Candidate(id="cand-1", asset={}, contradictions=[record])
    resolve_contradictions(candidate, Decision(candidateId="cand-1", action="reject",
                                               reviewer="auto"), "t0")  # fmt: skip
    assert candidate.contradictions[0].status == "flagged"  # automatic: not a resolution
    resolve_contradictions(
        candidate, Decision(candidateId="cand-1", action="approve", reviewer="ana",
                            reason="the filing is newer"), "2026-11-23T10:00:00",
    )  # fmt: skip
    done = candidate.contradictions[0]
    assert (done.status, done.resolved_at) == ("resolved", "2026-11-23T10:00:00")
    assert done.resolution_notes == "approve by ana: kept the candidate (the filing is newer)"


def test_relatedto_gets_only_leftover_room() -> None:
    typed = [
        Fact("supplies", EntityRef(f"S{i}", "Thing"), EntityRef("O", "Thing")) for i in range(3)
    ]
    generic = [
        Fact("relatedTo", EntityRef(f"R{i}", "Thing"), EntityRef("O", "Thing")) for i in range(5)
    ]
    assert select(typed + generic, 10) == typed + generic[:2]
    # Typed relations take at most half the room; relations in their own words the rest.
    assert select(typed + generic, 6) == typed + generic[:1]
    named = [Fact("halt production at", EntityRef(f"N{i}", "Thing"), EntityRef("O", "Thing"))
             for i in range(4)]  # fmt: skip
    assert select(typed + named + generic, 6) == typed + named[:3]


def test_where_a_place_lies_ranks_after_who_does_what_unless_the_question_asks_where() -> None:
    from contracts.tools import EvidenceItem

    def scored(fact: Fact, score: float) -> Fact:
        fact.evidence.append(EvidenceItem(source="https://a.example", snippet="s", score=score))
        return fact

    town, country = EntityRef("Lindau", "Place"), EntityRef("Sylvania", "Country")
    geography = scored(Fact("locatedIn", town, country), 0.9)
    supply = scored(Fact("supplies", EntityRef("Osterra", "Organization"),
                         EntityRef("Brann", "Organization")), 0.7)  # fmt: skip
    plant = scored(Fact("locatedIn", EntityRef("Osterra", "Organization"), town), 0.8)
    assert rank([geography, supply, plant], "Who supplies Brann from Sylvania?") == [
        plant, supply, geography
    ]
    assert rank([geography, supply, plant], "Where does Brann get its ore?") == [
        geography, plant, supply
    ]


def test_when_the_question_names_the_things_it_asks_about_other_things_of_that_kind_go() -> None:
    def restricts(goods: str, typ: str = "Product") -> Fact:
        return Fact("restrictsExportsOf", EntityRef("Sylvania", "Country"), EntityRef(goods, typ))

    tungsten, cobalt, tech = restricts("tungsten"), restricts("cobalt"), restricts("drill bits")
    facts = [tungsten, cobalt, tech]
    kept = asked_ends_first(facts, "Which firms are hit by export controls on tungsten?")
    assert kept == [tungsten]
    # A question naming a category names no end whole: every fact stays.
    assert asked_ends_first(facts, "Which states restrict exports of raw materials?") == facts
    # Only ends of the named kind go: a trial on a named condition still tests its drugs.
    trial = EntityRef("ARBOR-3", "MedicalStudy")
    condition = Fact("studies", trial, EntityRef("psoriasis", "MedicalCondition"))
    drug = Fact("studies", trial, EntityRef("Velostat", "Drug"))
    assert asked_ends_first([condition, drug], "Which drugs do psoriasis trials test?") == [
        condition, drug
    ]


def answer_of(candidates: list[dict], searched: int = 7) -> object:
    return compose_answer(AnswerArgs(query="Who supplies CATL?", candidates=candidates,
                                     sourcesSearched=searched))  # fmt: skip


def candidate(cid: str, subject: str, obj: str, accepted: bool, **kw: object) -> dict:
    asset = {"name": f"{subject} supplies {obj}", "about": {"name": subject, "dkg:supplies":
             {"name": obj}}, "additionalProperty": {"name": "predicate", "value": "supplies"},
             "provenance": {"sources": [f"https://www.{cid}.org/x"]},
             "trustSignals": {"confidence": 0.8, "relevance": 0.9}}  # fmt: skip
    return {"candidateId": cid, "kind": "claim", "asset": asset, "accepted": accepted,
            "status": "approved" if accepted else "rejected", **kw}  # fmt: skip


def test_the_answer_cites_only_accepted_candidates() -> None:
    answer = answer_of(
        [candidate("c1", "Tianqi Lithium", "CATL", True),
         candidate("c2", "Tianqi Lithium", "BYD", True),
         candidate("c3", "Albemarle", "CATL", False)]
    )  # fmt: skip
    assert answer.evidenceFound  # type: ignore[attr-defined]
    [sentence] = answer.sentences  # type: ignore[attr-defined]
    assert sentence.text == "Tianqi Lithium supplies CATL and BYD [c1, c2; c1.org, c2.org]."
    assert "Albemarle" not in answer.text  # type: ignore[attr-defined]


def test_with_nothing_relevant_the_answer_says_so() -> None:
    none = answer_of([], 12)
    assert none.text.startswith("No evidence found: nothing in the 12 source(s)")  # type: ignore[attr-defined]
    assert not none.evidenceFound and none.sentences == []  # type: ignore[attr-defined]
    weak = answer_of([candidate("c3", "Albemarle", "CATL", False)])
    assert weak.text.startswith("No answer can be given with confidence")  # type: ignore[attr-defined]


def test_facts_already_in_the_dkg_are_cited_by_their_assets() -> None:
    known = candidate("c4", "Tianqi Lithium", "CATL", False, knownInDkg=[U + "9"])
    answer = answer_of([known])
    assert answer.sentences[0].alreadyInDkg  # type: ignore[attr-defined]
    assert answer.sentences[0].sources == [U + "9"]  # type: ignore[attr-defined]


def test_claims_link_published_entities_by_ual() -> None:
    new_id = "urn:kminer:entity:organization:quokka-1"
    end = EntityRef("Quokka Minerals", "Organization", new_id=new_id)
    fact = Fact("supplies", end, EntityRef("CATL", "Corporation", ual=U + "2"))
    fact.evidence.append(EvidenceItem(source="https://a.org/1", snippet="Quokka supplies CATL."))
    claim, _ = claim_asset(fact, [], "q", "2026-11-23")
    entity = entity_asset(end, [fact], [], "2026-11-23")
    validate_asset(entity)
    assert entity["@id"] == new_id and entity["subjectOf"] == [{"@id": claim["@id"]}]
    linked = relinked(claim, {new_id: U + "77"})
    assert linked["about"]["@id"] == U + "77" and linked["@id"] == claim["@id"]
    assert linked["linkedAssets"] == [U + "2", U + "77"]
    assert claim["about"]["@id"] == new_id  # the original is left alone
    assert relinked(claim, {}) is claim
    assert relinked(entity, {new_id: U + "77"})["@id"] == new_id  # its own id is its identity


def test_a_new_entity_links_the_dkg_assets_its_claims_name_and_carries_the_array_when_none() -> (
    None
):
    quokka = EntityRef("Quokka Minerals", "Organization",
                       new_id="urn:kminer:entity:organization:quokka-1")  # fmt: skip
    perth = EntityRef("Perth", "Place", ual=U + "5")
    lode = EntityRef("Wanjarri lode", "Place", new_id="urn:kminer:entity:place:wanjarri-1")
    supplies = Fact("supplies", quokka, EntityRef("CATL", "Corporation", ual=U + "2"),
                    goods=[EntityRef("spodumene", "Product", ual=U + "6")])  # fmt: skip
    buys = Fact("supplies", EntityRef("Talison Lithium", "Corporation", ual=U + "3"), quokka)
    located = Fact("locatedIn", quokka, perth)
    mined_at = Fact("operatesIn", quokka, lode)
    for fact in (supplies, buys, located, mined_at):
        fact.evidence.append(EvidenceItem(source="https://a.org/1", snippet="Quokka ships ore."))
    entity = entity_asset(quokka, [supplies, buys, supplies], [], "2026-11-23", [located])
    validate_asset(entity)
    assert entity["linkedAssets"] == [U + "2", U + "6", U + "3", U + "5"]
    # A place known only as where another new entity works: nothing of the DKG is at hand.
    place = entity_asset(lode, [], [], "2026-11-23", cited=[mined_at])
    assert place["linkedAssets"] == []


def test_what_an_answering_sentence_says_of_its_subject_joins_the_claims_while_room_is_left() -> (
    None
):
    line = "Osterra ships ore to Brann from its new Vellmar pit, which Kessin also uses."

    def fact(predicate: str, subject: str, obj: str, sentence: str, score: float) -> Fact:
        f = Fact(predicate, EntityRef(subject, "Organization"), EntityRef(obj, "Place"))
        f.statements.append(Statement(subject=subject, predicate=predicate, object=obj,
                                      sentence=sentence, source="https://a.example/1"))  # fmt: skip
        f.evidence.append(EvidenceItem(source="https://a.example/1", snippet=sentence,
                                       score=score))  # fmt: skip
        return f

    answer = fact("supplies", "Osterra", "Brann", line, 0.8)
    pit = fact("operatesIn", "Osterra", "Vellmar pit", line, 0.4)
    other_actor = fact("operatesIn", "Kessin", "Vellmar pit", line, 0.5)  # not its subject
    elsewhere = fact("operatesIn", "Osterra", "Dorn", "Osterra runs a mill in Dorn.", 0.6)
    generic = fact("relatedTo", "Osterra", "Vellmar pit", line, 0.45)
    known = fact("locatedIn", "Osterra", "Sylvania", line, 0.45)
    known.known_in = [U + "9"]  # the DKG states it already
    facts = [answer, pit, other_actor, elsewhere, generic, known]
    assert companions([answer], facts, limit=5) == [pit]
    assert companions([answer], facts, limit=1) == []  # no room left


def test_a_new_entity_says_where_the_relevant_sources_put_it() -> None:
    from activities.enrichment import EnrichmentActivities
    from contracts.tools import ProposeArgs
    from storage.dkg.embedded import EmbeddedDkg

    def said(subject: str, predicate: str, obj: str, typ: str, relevance: float) -> Statement:
        return Statement(subject=subject, subjectType="Organization", predicate=predicate,
                         object=obj, objectType=typ, sentence=f"{subject} {predicate} {obj}.",
                         source="https://a.example/1", relevance=relevance)  # fmt: skip

    statements = [
        said("Osterra Mining", "supplies", "Brann Metals", "Organization", 0.9),
        said("Osterra Mining", "operatesIn", "Lindau", "Place", 0.5),
        said("Brann Metals", "operatesIn", "Graz", "Place", 0.2),  # below the floor
    ]
    dkg = EmbeddedDkg(None)
    rows = EnrichmentActivities(dkg, None, None).propose(  # type: ignore[arg-type]
        ProposeArgs(statements=statements, query="Who supplies Brann?", maxCandidates=1),
        "2026-11-24T00:00:00",
    )
    claims = [r for r in rows if r["kind"] == "claim"]
    entities = {r["asset"]["name"]: r["asset"] for r in rows if r["kind"] == "entity"}
    assert [c["asset"]["about"]["name"] for c in claims] == ["Osterra Mining"]
    assert set(entities) == {"Osterra Mining", "Brann Metals", "Lindau"}
    lindau = entities["Lindau"]
    assert entities["Osterra Mining"]["location"] == [
        {"@id": lindau["@id"], "@type": "Place", "name": "Lindau"}
    ]
    assert "location" not in entities["Brann Metals"]  # Graz is not relevant evidence
    assert lindau["provenance"]["evidence"][0]["snippet"] == "Osterra Mining operatesIn Lindau."
    assert "subjectOf" not in lindau or lindau["subjectOf"] == []
    # Seed r11: every candidate row carries the array, an entity with no DKG asset at hand too.
    assert all(isinstance(r["asset"]["linkedAssets"], list) for r in rows)
    assert lindau["linkedAssets"] == []


def test_a_new_place_says_where_it_lies_in_turn() -> None:
    from activities.enrichment import EnrichmentActivities
    from contracts.tools import ProposeArgs
    from storage.dkg.embedded import EmbeddedDkg

    where = "Osterra Mining runs a smelter in Lindau, Bavaria."
    statements = [
        Statement(subject="Osterra Mining", subjectType="Organization", predicate="supplies",
                  object="Brann Metals", objectType="Organization", relevance=0.9,
                  sentence="Osterra Mining supplies Brann Metals.", source="https://a.example/1"),
        Statement(subject="Osterra Mining", subjectType="Organization", predicate="operatesIn",
                  object="Lindau", objectType="Place", sentence=where, relevance=0.5,
                  source="https://a.example/1"),
        Statement(subject="Lindau", subjectType="Place", predicate="locatedIn",
                  object="Bavaria", objectType="Place", sentence=where, relevance=0.5,
                  source="https://a.example/1"),
    ]  # fmt: skip
    rows = EnrichmentActivities(EmbeddedDkg(None), None, None).propose(  # type: ignore[arg-type]
        ProposeArgs(statements=statements, query="Who supplies Brann?", maxCandidates=1),
        "2026-11-24T00:00:00",
    )
    entities = {r["asset"]["name"]: r["asset"] for r in rows if r["kind"] == "entity"}
    # Only the supply is a claim; the smelter's town and the town's region are where
    # the new entities are, each an entity of its own.
    assert set(entities) == {"Osterra Mining", "Brann Metals", "Lindau", "Bavaria"}
    assert [p["name"] for p in entities["Lindau"]["location"]] == ["Bavaria"]
    assert entities["Bavaria"]["provenance"]["evidence"][0]["snippet"] == where


def test_a_supply_claim_links_what_is_supplied_and_proposes_new_goods() -> None:
    from activities.enrichment import EnrichmentActivities
    from contracts.tools import ProposeArgs
    from storage.dkg.embedded import EmbeddedDkg

    def sold(goods: str, source: str) -> Statement:
        return Statement(subject="Osterra Mining", subjectType="Organization",
                         predicate="supplies", object="Brann Metals", objectType="Organization",
                         goods=goods, goodsType="DefinedTerm", sentence=f"Osterra sells {goods}.",
                         source=source, relevance=0.9)  # fmt: skip

    statements = [sold("green arabica", "https://a.example/1"), sold("robusta", "https://b.example/2")]
    rows = EnrichmentActivities(EmbeddedDkg(None), None, None).propose(  # type: ignore[arg-type]
        ProposeArgs(statements=statements, query="Who supplies Brann?", maxCandidates=4),
        "2026-11-24T00:00:00",
    )
    [claim] = [r["asset"] for r in rows if r["kind"] == "claim"]
    entities = {r["asset"]["name"]: r["asset"] for r in rows if r["kind"] == "entity"}
    goods = claim["about"]["dkg:goods"]
    assert [g["name"] for g in goods] == ["green arabica", "robusta"]
    assert {g["@type"] for g in goods} == {"Product"}
    assert {"green arabica", "robusta"} <= set(entities)
    assert entities["robusta"]["@id"] == goods[1]["@id"]
    assert entities["robusta"]["subjectOf"] == [{"@id": claim["@id"]}]


def proposed(cid: str, subject: str, obj: str, support: str, **kw: object) -> dict:
    c = candidate(cid, subject, obj, False, **kw)
    c["asset"]["trustSignals"] |= {"proposed": True, "support": support}
    return c


def test_claims_proposed_for_review_are_reported_hedged_by_their_support() -> None:
    auto = {"reviewNote": AUTO_REVIEW_PROPOSED}
    answer = answer_of(
        [candidate("c1", "Tianqi Lithium", "CATL", True),
         proposed("c2", "Albemarle", "CATL", "one source", **auto),
         proposed("c3", "Ganfeng Lithium", "CATL", "2 independent sources", status="pending")]
    )  # fmt: skip
    assert answer.evidenceFound  # type: ignore[attr-defined]
    texts = [s.text for s in answer.sentences]  # type: ignore[attr-defined]
    assert texts[0].startswith("Tianqi Lithium supplies CATL [c1;")
    assert texts[1].startswith("One source reports that Albemarle supplies CATL [c2;")
    assert texts[2].startswith("2 independent sources report that Ganfeng Lithium supplies")
    assert [s.hedged for s in answer.sentences] == [False, True, True]  # type: ignore[attr-defined]
    assert "proposed for review" in answer.text  # type: ignore[attr-defined]


def test_a_proposal_a_reviewer_rejected_is_not_reported() -> None:
    rejected = proposed("c2", "Albemarle", "CATL", "one source", reviewNote="wrong company")
    answer = answer_of([rejected])
    assert not answer.evidenceFound  # type: ignore[attr-defined]
    assert "Albemarle" not in answer.text  # type: ignore[attr-defined]


def test_the_answer_leads_with_what_is_most_relevant_to_the_question() -> None:
    low = proposed("c1", "Albemarle", "CATL", "one source", status="pending")
    low["asset"]["trustSignals"]["relevance"] = 0.4
    high = proposed("c2", "Ganfeng Lithium", "CATL", "one source", status="pending")
    answer = answer_of([low, high])
    assert [s.candidateIds for s in answer.sentences] == [["c2"], ["c1"]]  # type: ignore[attr-defined]
