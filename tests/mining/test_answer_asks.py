"""The answer answers what the question asks for: its organisations, its places."""

from __future__ import annotations

from contracts.tools import AnswerArgs
from mining.answer import compose_answer
from mining.question import asked_families


def claim(cid: str, subject: tuple[str, str], obj: tuple[str, str], relevance: float) -> dict:
    """A proposed claim 'subject <relation> object' with the schema types of its ends."""
    asset = {
        "name": f"{subject[0]} restricts exports of {obj[0]}",
        "about": {"@type": subject[1], "name": subject[0],
                  "dkg:restrictsExportsOf": {"@type": obj[1], "name": obj[0]}},
        "additionalProperty": {"name": "predicate", "value": "restrictsExportsOf"},
        "provenance": {"sources": [f"https://{cid}.example.org/a"]},
        "trustSignals": {"confidence": 0.5, "relevance": relevance, "proposed": True,
                         "support": "one source"},
    }  # fmt: skip
    return {"candidateId": cid, "kind": "claim", "asset": asset, "accepted": False,
            "status": "pending"}  # fmt: skip


def test_what_kind_of_entity_a_question_asks_for() -> None:
    assert asked_families("Which ferry operators cut sailings to Orkney?") == {"organization"}
    assert asked_families("Who insures the Kirkwall quay?") == {"organization", "person"}
    assert asked_families("Where do the island's hospitals buy oxygen?") == {"place"}
    assert asked_families("Which ports closed in the storm?") == {"place"}
    assert asked_families("How far did sailings fall in May?") == frozenset()


def test_a_which_companies_question_is_answered_by_companies_first() -> None:
    country = claim("c1", ("Norway", "Country"), ("salmon feed", "Product"), 0.9)
    company = claim("c2", ("Saltmarsh Carrier", "Organization"), ("Orkney", "Place"), 0.6)
    both = [country, company]
    answer = compose_answer(
        AnswerArgs(query="Which ferry operators face curbs?", candidates=both, sourcesSearched=4)
    )
    assert [s.candidateIds for s in answer.sentences] == [["c2"], ["c1"]]
    # Without a kind asked, relevance alone orders them.
    plain = compose_answer(
        AnswerArgs(query="How did fuel curbs spread?", candidates=both, sourcesSearched=4)
    )
    assert [s.candidateIds for s in plain.sentences] == [["c1"], ["c2"]]


def own_words(cid: str, subject: str, relation: str, obj: str, said: str) -> dict:
    """A proposed claim in its source's own words, as enrichment writes it."""
    prop = "dkg:" + "".join(w.capitalize() if i else w for i, w in enumerate(relation.split()))
    asset = {
        "name": f"{subject} {relation} {obj}",
        "text": said,
        "about": {"@type": "Organization", "name": subject,
                  prop: {"@type": "Place", "name": obj}},
        "additionalProperty": {"name": "predicate", "value": relation, "propertyID": prop},
        "provenance": {"sources": ["https://ferries.example.org/a"],
                       "evidence": [{"source": "https://ferries.example.org/a", "snippet": said}]},
        "trustSignals": {"confidence": 0.5, "relevance": 0.7, "proposed": True,
                         "support": "one source"},
    }  # fmt: skip
    return {"candidateId": cid, "kind": "claim", "asset": asset, "accepted": False,
            "status": "pending"}  # fmt: skip


def test_claims_in_their_sources_words_are_answered_by_quoting_that_source_once() -> None:
    said = "Saltmarsh Carrier cut\nsailings to Orkney and moved its ferry to Stromness."
    cut = own_words("c1", "Saltmarsh Carrier", "cut sailing to", "Orkney", said)
    moved = own_words("c2", "Saltmarsh Carrier", "move ferry to", "Stromness", said)
    typed = claim("c3", ("Norway", "Country"), ("salmon feed", "Product"), 0.6)
    answer = compose_answer(
        AnswerArgs(query="Which ferry routes were cut?", candidates=[cut, moved, typed],
                   sourcesSearched=3)
    )  # fmt: skip
    first, second = answer.sentences
    assert first.text == (
        'One source reports: "Saltmarsh Carrier cut sailings to Orkney and moved its ferry to '
        'Stromness." [c1, c2; ferries.example.org]'
    ), "a quote ending its sentence takes no second full stop"
    assert first.candidateIds == ["c1", "c2"] and first.hedged
    assert "cut sailing to" not in answer.text  # the lemmas are the graph's, not the reader's
    assert second.text.startswith("One source reports that Norway restricts exports of salmon")


def test_a_quoted_sentence_past_its_length_is_cut_at_a_word() -> None:
    said = "Saltmarsh Carrier " + "chartered one more vessel for the winter timetable " * 10
    [sentence] = compose_answer(
        AnswerArgs(query="Which ferries were chartered?",
                   candidates=[own_words("c1", "Saltmarsh Carrier", "charter", "Orkney", said)],
                   sourcesSearched=1)
    ).sentences  # fmt: skip
    quoted = sentence.text.split('"')[1]
    assert quoted.endswith(" …") and len(quoted) <= 302
    kept = quoted.removesuffix(" …")
    assert said.startswith(kept) and said[len(kept)] == " "  # cut between two words


def test_two_pages_of_one_site_are_cited_as_that_site_once() -> None:
    first = claim("c1", ("Norway", "Country"), ("salmon feed", "Product"), 0.7)
    second = claim("c2", ("Norway", "Country"), ("fish oil", "Product"), 0.6)
    second["asset"]["provenance"]["sources"] = ["https://c1.example.org/b"]
    [sentence] = compose_answer(
        AnswerArgs(
            query="What does Norway restrict?", candidates=[first, second], sourcesSearched=2
        )
    ).sentences
    assert sentence.text.endswith("[c1, c2; c1.example.org].")
    assert sentence.sources == ["https://c1.example.org/a", "https://c1.example.org/b"]


def test_the_companies_asked_for_lead_even_when_only_a_countrys_claim_was_accepted() -> None:
    country = claim("c1", ("Norway", "Country"), ("salmon feed", "Product"), 0.9)
    country |= {"accepted": True, "status": "accepted"}
    company = claim("c2", ("Saltmarsh Carrier", "Organization"), ("Orkney", "Place"), 0.5)
    answer = compose_answer(
        AnswerArgs(query="Which ferry operators face curbs?", candidates=[country, company],
                   sourcesSearched=4)
    )  # fmt: skip
    assert [(s.candidateIds, s.hedged) for s in answer.sentences] == [
        (["c2"], True),
        (["c1"], False),
    ]


def test_a_quote_falls_back_to_the_first_evidence_snippet_and_without_one_to_the_relation() -> None:
    said = "Saltmarsh Carrier leased two\nfreight ferries from Nordline."
    snippet_only = own_words("c1", "Saltmarsh Carrier", "lease ferry from", "Nordline", said)
    del snippet_only["asset"]["text"]
    bare = own_words("c2", "Kirkwall Pilots", "moor at", "Hatston", "")
    del bare["asset"]["text"]
    first, second = compose_answer(
        AnswerArgs(query="Who leases ferries?", candidates=[snippet_only, bare], sourcesSearched=1)
    ).sentences
    assert first.text.startswith(
        'One source reports: "Saltmarsh Carrier leased two freight ferries from Nordline."'
    )
    # Nothing to quote: the relation as stored still answers, rather than an empty quote.
    assert second.text.startswith("One source reports that Kirkwall Pilots")


def test_a_typed_claim_is_stated_in_its_vocabulary_even_when_its_sentence_is_at_hand() -> None:
    typed = claim("c1", ("Norway", "Country"), ("salmon feed", "Product"), 0.6)
    typed["asset"]["text"] = "Oslo halted salmon feed shipments abroad in May."
    [sentence] = compose_answer(
        AnswerArgs(query="What does Norway restrict?", candidates=[typed], sourcesSearched=1)
    ).sentences
    assert sentence.text.startswith("One source reports that Norway restricts exports of salmon")


def test_accepted_claims_are_quoted_without_hedging_and_a_dkg_assets_words_say_so() -> None:
    said = "Saltmarsh Carrier moved its ferry to Stromness."
    accepted = own_words("c1", "Saltmarsh Carrier", "move ferry to", "Stromness", said)
    accepted |= {"accepted": True, "status": "accepted"}
    stated = own_words("c2", "Nordline", "charter from", "Orkney", "Nordline charters from Orkney.")
    stated["asset"]["trustSignals"]["support"] = "stated by a DKG asset"
    first, second = compose_answer(
        AnswerArgs(
            query="Where did ferries move?", candidates=[accepted, stated], sourcesSearched=2
        )
    ).sentences
    assert first.text.startswith(f'A source states: "{said}" [c1;') and not first.hedged
    assert second.text.startswith('A DKG asset states: "Nordline charters from Orkney."')


def test_a_quote_of_exactly_the_limit_is_kept_whole_and_a_longer_one_loses_only_its_last_word() -> (
    None
):
    from mining.answer import MAX_QUOTE_CHARS

    whole = ("Saltmarsh Carrier " + "x" * MAX_QUOTE_CHARS)[:MAX_QUOTE_CHARS]
    [kept] = compose_answer(
        AnswerArgs(
            query="q?", candidates=[own_words("c1", "S", "r", "O", whole)], sourcesSearched=1
        )
    ).sentences
    assert f'"{whole}"' in kept.text
    words = "Saltmarsh Carrier " + "chartered one more vessel for the winter timetable " * 10
    [cut] = compose_answer(
        AnswerArgs(
            query="q?", candidates=[own_words("c1", "S", "r", "O", words)], sourcesSearched=1
        )
    ).sentences
    quoted = cut.text.split('"')[1].removesuffix(" …")
    following = words[len(quoted) + 1 :].split(" ", 1)[0]
    assert len(quoted) + 1 + len(following) > MAX_QUOTE_CHARS  # the next word would not fit


def test_accepted_claims_of_one_subject_and_relation_share_a_sentence_whatever_their_support() -> (
    None
):
    one = claim("c1", ("Norway", "Country"), ("salmon feed", "Product"), 0.7)
    two = claim("c2", ("Norway", "Country"), ("fish oil", "Product"), 0.6)
    two["asset"]["trustSignals"]["support"] = "2 independent sources"
    for c in (one, two):
        c |= {"accepted": True, "status": "accepted"}
    # A claim with no relation to state (however relevant) is passed over, not the end.
    malformed = {"candidateId": "c0", "kind": "claim", "accepted": True, "status": "accepted",
                 "asset": {"name": "no parts", "trustSignals": {"relevance": 1.0}}}  # fmt: skip
    [sentence] = compose_answer(
        AnswerArgs(query="What does Norway restrict?", candidates=[malformed, one, two],
                   sourcesSearched=2)
    ).sentences  # fmt: skip
    assert sentence.text.startswith("Norway restricts exports of salmon feed and fish oil [c1, c2;")


def test_the_claims_own_text_is_quoted_before_its_evidence_and_odd_provenance_is_survived() -> None:
    own = own_words("c1", "Saltmarsh Carrier", "lease from", "Nordline", "The lease was signed.")
    own["asset"]["text"] = "Saltmarsh Carrier leased a ferry from Nordline."
    odd = own_words("c2", "Kirkwall Pilots", "moor at", "Hatston", "")
    del odd["asset"]["text"]
    odd["asset"]["provenance"] = "https://pilots.example.org/a"  # not the usual object
    empty = own_words("c3", "Nordline", "berth at", "Lerwick", "")
    del empty["asset"]["text"]
    empty["asset"]["provenance"]["evidence"] = []
    texts = [s.text for s in compose_answer(
        AnswerArgs(query="Who leases ferries?", candidates=[own, odd, empty], sourcesSearched=1)
    ).sentences]  # fmt: skip
    assert texts[0].startswith('One source reports: "Saltmarsh Carrier leased a ferry from')
    assert texts[1].startswith("One source reports that Kirkwall Pilots")
    assert texts[2].startswith("One source reports that Nordline")
