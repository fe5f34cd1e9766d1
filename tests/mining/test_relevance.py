"""Relevance of a statement to the question (mining/relevance.py, activities/embeddings.py)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator

import numpy as np
import pytest

from activities.embeddings import OpenAiEmbedder, shared_minilm
from contracts.tools import Statement
from mining import relevance as R
from mining.relevance_scoring import score_relevance
from tests.support.replay import replay_server


def test_content_words_drop_question_and_function_words() -> None:
    assert R.content_words("Which suppliers of lithium carry geopolitical risk?") == {
        "supplier", "lithium", "geopolitical", "risk"
    }  # fmt: skip
    assert R.stem("shortages") == "shortage" and R.stem("companies") == "company"
    assert R.stem("batches") == "batch" and R.stem("process") == "process"
    assert R.stem("CATL's") == "catl" and R.stem("gas") == "gas"


@pytest.mark.parametrize(
    ("word", "stem"),
    [
        ("suppliers", "supplier"), ("flies", "fly"), ("ties", "tie"),
        ("processes", "process"), ("crashes", "crash"), ("taxes", "tax"), ("axes", "axe"),
        ("ores", "ore"), ("gas", "gas"), ("status", "status"), ("analysis", "analysis"),
        ("'lithium'", "lithium"), ("Tianqi's", "tianqi"),
    ],
)  # fmt: skip
def test_stem_cuts_plural_endings_only_where_a_stem_remains(word: str, stem: str) -> None:
    assert R.stem(word) == stem


def test_content_words_keep_two_letter_names_and_drop_single_letters() -> None:
    assert R.content_words("Plan B for the UK lithium trade") == {"plan", "uk", "lithium", "trade"}


def test_lexical_share() -> None:
    q = "Which suppliers of lithium carry geopolitical risk?"
    assert R.lexical(q, "A lithium supplier faces geopolitical risk") == 1.0
    assert R.lexical(q, "The lithium price fell") == 0.25
    assert R.lexical("Which is it?", "anything") == 0.0


def test_semantic_scale_is_per_model_and_clamped() -> None:
    model = "all-MiniLM-L6-v2-int8"
    assert R.semantic(0.2, model) == 0.0 and R.semantic(0.7, model) == 1.0
    assert R.semantic(0.45, model) == pytest.approx(0.5)
    assert R.semantic(-1, model) == 0.0 and R.semantic(2, model) == 1.0
    assert R.semantic(0.45, "some-other-model") == pytest.approx(0.5)


def test_anchor() -> None:
    asked = {"did:dkg:x/1", "tesla"}
    assert R.anchor(set(), {"x"}, "s", "s") is None
    assert R.anchor(asked, {"did:dkg:x/1"}, "s", "s") == 1.0
    assert R.anchor(asked, {"other"}, "Ganfeng supplies Tesla.", "") == 0.5
    assert R.anchor(asked, {"other"}, "Ganfeng supplies Teslas.", "") == 0.0
    source = "Tesla buys cells. Ganfeng supplies it."
    assert R.anchor(asked, {"other"}, "Ganfeng supplies it.", source) == R.SOURCE_ANCHOR
    assert R.anchor(asked, {"other"}, "Ganfeng supplies it.", "Ganfeng supplies it.") == 0.0


def test_a_text_names_an_asked_entity_however_it_is_punctuated_or_aliased() -> None:
    asked = {"did:dkg:x/7", "alzheimers disease"}
    # Names are compared normalised on both sides: the apostrophe does not hide it.
    assert R.anchor(asked, {"other"}, "A trial in Alzheimer's disease.", "") == 0.5
    assert R.anchor(asked, {"other"}, "It funds it.", "Trials in Alzheimer's disease.") == (
        R.SOURCE_ANCHOR
    )
    # Another alias of the same DKG asset, found by the caller in the text, counts too.
    found = frozenset({"did:dkg:x/7"})
    assert R.anchor(asked, {"other"}, "the AD trial", "", sentence_uals=found) == 0.5
    assert R.anchor(asked, {"other"}, "x", "the AD trial", source_uals=found) == R.SOURCE_ANCHOR
    assert R.anchor(asked, {"other"}, "x", "y", frozenset({"did:dkg:x/8"})) == 0.0


def test_a_source_that_never_names_the_asked_entity_scores_zero() -> None:
    on_topic = R.Signals(0.7, 0.7, 1.0, 1.0, 0.7, anchor=R.SOURCE_ANCHOR)
    assert R.relevance(on_topic, "all-MiniLM-L6-v2-int8") > R.RELEVANCE_FLOOR
    elsewhere = R.Signals(0.7, 0.7, 1.0, 1.0, 0.7, anchor=0.0)
    assert R.relevance(elsewhere, "all-MiniLM-L6-v2-int8") == 0.0


MODEL = "all-MiniLM-L6-v2-int8"
# Cosines that rescale to 0.5, 1.0, 0.0 and 0.25 on MiniLM's [0.2, 0.7] scale.
HALF, FULL, NONE, QUARTER = 0.45, 0.7, 0.2, 0.325


def test_each_term_counts_with_its_documented_weight() -> None:
    w = R.Weights(0.1, 0.2, 0.15, 0.25, relation=0.3, anchor=0.3)
    signals = R.Signals(HALF, FULL, 0.4, 0.8, QUARTER)
    expected = 0.1 * 0.5 + 0.2 * 1.0 + 0.15 * 0.4 + 0.25 * 0.8 + 0.3 * 0.25
    assert R.relevance(signals, MODEL, w) == round(expected, 3)
    # The anchor mixes in at its own weight when the question names entities.
    anchored = R.Signals(HALF, FULL, 0.4, 0.8, QUARTER, anchor=1.0)
    assert R.relevance(anchored, MODEL, w) == round(0.7 * expected + 0.3, 3)
    half = R.Signals(HALF, FULL, 0.4, 0.8, QUARTER, anchor=0.5)
    assert R.relevance(half, MODEL, w) == round(0.7 * expected + 0.15, 3)


def test_every_cosine_uses_the_model_s_own_scale() -> None:
    # OpenAI's small model: unrelated text at 0.15, a paraphrase at 0.65.
    openai = "openai:text-embedding-3-small"
    for weights in (
        R.Weights(1.0, 0, 0, 0, 0),
        R.Weights(0, 1.0, 0, 0, 0),
        R.Weights(0, 0, 0, 0, 1.0),
    ):
        signals = R.Signals(0.45, 0.45, 0.0, 0.0, 0.45)
        assert R.relevance(signals, openai, weights) == 0.6
        assert R.relevance(signals, MODEL, weights) == 0.5


def test_a_text_without_a_relation_gives_that_weight_to_its_sentence() -> None:
    w = R.Weights(sentence=0.2, source=0.2, lexical=0.2, source_lexical=0.1, relation=0.3)
    bare = R.Signals(FULL, FULL, 0.0, 0.0, relation_cos=None)
    assert R.relevance(bare, MODEL, w) == 0.7
    assert R.relevance(R.Signals(FULL, FULL, 0.0, 0.0, relation_cos=NONE), MODEL, w) == 0.4


def test_shares_are_clamped_and_the_default_weights_sum_to_one() -> None:
    w = R.WEIGHTS
    total = w.sentence + w.source + w.lexical + w.source_lexical + w.relation
    assert total == pytest.approx(1.0)
    assert R.relevance(R.Signals(FULL, FULL, 3.0, 3.0, FULL), MODEL) == 1.0
    assert R.relevance(R.Signals(NONE, NONE, -1.0, -1.0, NONE), MODEL) == 0.0
    assert R.is_relevant(R.RELEVANCE_FLOOR) and not R.is_relevant(R.RELEVANCE_FLOOR - 0.001)


def test_an_off_topic_source_scores_zero_whatever_its_sentence() -> None:
    # The source terms alone, on their own scale: 0.4 * 0.0 + 0.2 * 0.8 over 0.6 = 0.27.
    assert R.source_topic(R.Signals(FULL, NONE, 1.0, 0.8, FULL), MODEL) == pytest.approx(0.8 / 3)
    assert R.relevance(R.Signals(FULL, NONE, 1.0, 0.8, FULL), MODEL) == 0.0
    # Just at the floor the statement is scored as usual.
    at_floor = R.Signals(FULL, NONE, 1.0, 0.9, FULL)
    assert R.source_topic(at_floor, MODEL) == pytest.approx(R.SOURCE_FLOOR)
    assert R.relevance(at_floor, MODEL) > 0.0
    # Weights that give sources no say never gate.
    no_source = R.Weights(0.5, 0.0, 0.5, 0.0, 0.0)
    assert R.source_topic(R.Signals(FULL, NONE, 1.0, 0.0, FULL), MODEL, no_source) == 1.0


def test_the_source_floor_uses_the_model_s_scale_and_the_given_weights() -> None:
    openai = "openai:text-embedding-3-small"
    # A source cosine of 0.3: 0.2 on MiniLM's scale (below the floor), 0.3 on OpenAI's.
    w = R.Weights(sentence=0.5, source=0.5, lexical=0.0, source_lexical=0.0, relation=0.0)
    signals = R.Signals(FULL, 0.3, 0.0, 0.0, None)
    assert R.source_topic(signals, openai, w) == pytest.approx(0.3)
    assert R.relevance(signals, MODEL, w) == 0.0
    assert R.relevance(signals, openai, w) > 0.0
    # Weights that judge the source by its words alone let a wordy source through.
    wordy = R.Signals(FULL, NONE, 0.0, 0.5, None)
    assert R.relevance(wordy, MODEL) == 0.0
    by_words = R.Weights(sentence=0.5, source=0.0, lexical=0.0, source_lexical=0.5, relation=0.0)
    assert R.relevance(wordy, MODEL, by_words) == 0.75


def test_passage_text_puts_the_title_first() -> None:
    assert R.passage_text("Neon supply", "Cryon sells neon.") == "Neon supply. Cryon sells neon."
    assert R.passage_text(None, "Cryon sells neon.") == "Cryon sells neon."


def test_of_two_facts_in_one_sentence_the_asked_relation_ranks_higher() -> None:
    sentence = "Helix Bio sponsors the ORCA-3 trial, which runs at clinics in Lyon."
    facts = [("Helix Bio", "sponsors", "ORCA-3"), ("ORCA-3", "locatedIn", "Lyon")]
    statements = [
        Statement(subject=s, predicate=p, object=o, sentence=sentence, source="https://x.example")
        for s, p, o in facts
    ]
    score_relevance(
        statements, {"https://x.example#": sentence}, "Who funds the ORCA-3 study?", shared_minilm()
    )
    sponsors, located = statements
    assert sponsors.relevance > located.relevance
    where = "Where is the ORCA-3 trial located?"
    score_relevance(statements, {"https://x.example#": sentence}, where, shared_minilm())
    assert located.relevance > sponsors.relevance


def test_a_true_statement_from_an_off_topic_source_scores_lower() -> None:
    on_topic = "Neon prices: fabs in Taiwan buy neon from Cryon. Cryon ships from Odesa."
    off_topic = "Football results: Cryon sponsors the Odesa football club this season."
    statements = [
        Statement(subject="Cryon", predicate="locatedIn", object="Odesa",
                  sentence="Cryon ships from Odesa.", source=src)
        for src in ("https://a.example", "https://b.example")
    ]  # fmt: skip
    texts = {"https://a.example#": on_topic, "https://b.example#": off_topic}
    score_relevance(statements, texts, "Which fabs depend on neon from Ukraine?", shared_minilm())
    assert statements[0].relevance > statements[1].relevance


def test_minilm_puts_related_sentences_closer() -> None:
    embedder = shared_minilm()
    v = embedder.embed(
        [
            "Zimbabwe banned exports of raw lithium ore.",
            "Zimbabwe prohibits shipping unprocessed lithium ore abroad.",
            "The heatwave broke temperature records in Europe.",
        ]
    )
    assert v.shape == (3, 384)
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert float(v[0] @ v[1]) > float(v[0] @ v[2]) + 0.2
    again = embedder.embed(["Zimbabwe banned exports of raw lithium ore."])
    assert np.allclose(again[0], v[0])  # cached or recomputed, the same vector


@pytest.fixture
def embeddings_api(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[list, str]]:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    seen: list = []

    def answer(method: str, path: str, body: object, headers: dict) -> tuple[int, object]:
        seen.append((path, body))
        inputs = body["input"]  # type: ignore[index]
        data = [
            {"object": "embedding", "index": i, "embedding": [3.0, 4.0] if i == 0 else [1.0, 0.0]}
            for i, _ in enumerate(inputs)
        ]
        return 200, {"object": "list", "data": data, "model": "text-embedding-3-small",
                     "usage": {"prompt_tokens": 8, "total_tokens": 8}}  # fmt: skip

    with replay_server(answer) as url:
        yield seen, f"{url}/v1"


def test_openai_embeddings_are_requested_and_normalised(embeddings_api: tuple[list, str]) -> None:
    seen, url = embeddings_api
    embedder = OpenAiEmbedder("text-embedding-3-small", url)
    vectors = embedder.embed(["first  text", "second"])
    path, body = seen[-1]
    assert path == "/v1/embeddings" and body["model"] == "text-embedding-3-small"
    assert embedder.name == "openai:text-embedding-3-small"
    assert np.allclose(vectors[0], [0.6, 0.8]) and np.allclose(vectors[1], [1.0, 0.0])
    assert json.dumps(body)  # a plain JSON request


def test_a_claim_about_an_asset_the_dkg_places_in_the_asked_place_is_anchored() -> None:
    # The question names Freedonia; the text never does, but the DKG puts Vorn Transit
    # there. Without that, the text cannot answer a question about Freedonia at all.
    sentence = "Vorn Transit awarded a public contract for buses to Osterra Motors."
    statement = Statement(
        subject="Vorn Transit", subjectUal="ual:vorn", predicate="awardsContractTo",
        object="Osterra Motors", sentence=sentence, source="https://x.example",
    )  # fmt: skip
    texts = {"https://x.example#": f"Public contracts won by companies. {sentence}"}
    query = "Which companies won public contracts in Freedonia?"
    score_relevance([statement], texts, query, shared_minilm(), {"ual:freedonia"})
    assert statement.relevance == 0.0
    places = {"ual:vorn": {"ual:freedonia"}}
    score_relevance([statement], texts, query, shared_minilm(), {"ual:freedonia"},
                    places_of=lambda u: places.get(u, set()))  # fmt: skip
    assert statement.relevance >= R.RELEVANCE_FLOOR


def test_a_claim_about_the_asked_entity_needs_less_of_its_source() -> None:
    weak = R.Signals(0.5, 0.3, 0.2, 0.2, 0.6, anchor=1.0)  # source topic about 0.13
    assert 0.1 < R.source_topic(weak, MODEL) < R.SOURCE_FLOOR
    assert R.relevance(weak, MODEL) >= R.RELEVANCE_FLOOR
    # The same source, the claim not about the asked entity: off-topic.
    assert R.relevance(R.Signals(0.5, 0.3, 0.2, 0.2, 0.6, anchor=0.5), MODEL) == 0.0
    # A source about nothing the question says stays out, whoever it names.
    nothing = R.Signals(0.5, 0.2, 0.0, 0.0, 0.6, anchor=1.0)
    assert R.relevance(nothing, MODEL) == 0.0


def test_which_questions_name_the_kind_of_thing_they_ask_for() -> None:
    from mining.question import asked_kind

    assert asked_kind("Which potash producers are affected by sanctions?") == {"potash"}
    assert asked_kind("Which container shipping lines avoid the strait?") == {"container",
                                                                            "shipping"}  # fmt: skip
    assert asked_kind("Who are Tesla's lithium suppliers?") == frozenset()
    assert asked_kind("Which governments restrict exports of cobalt?") == frozenset()


def test_a_source_that_never_names_the_asked_kind_cannot_answer() -> None:
    base = R.Signals(0.6, 0.6, 0.5, 0.5, 0.6)
    assert R.relevance(dataclasses.replace(base, kind_named=False), MODEL) == 0.0
    named = dataclasses.replace(base, kind_named=True)
    assert R.relevance(named, MODEL) == R.relevance(base, MODEL) > 0
    answers, other = same_sentence_two_sources(
        ("Osterra Mining", "supplies", "Brann Metals"),
        "Osterra Mining supplies ore to Brann Metals.",
        ("Potash producers and their buyers.", "Copper producers and their buyers."),
        "Which potash producers sell to Brann Metals?",
    )
    assert answers > 0 and other == 0.0


def same_sentence_two_sources(
    triple: tuple[str, str, str], sentence: str, leads: tuple[str, str], query: str
) -> tuple[float, float]:
    """Relevance of one statement read from two sources, each its lead then the sentence."""
    subject, predicate, obj = triple
    sources = ("https://first.example", "https://second.example")
    statements = [
        Statement(subject=subject, predicate=predicate, object=obj, sentence=sentence,
                  source=src)
        for src in sources
    ]  # fmt: skip
    texts = {f"{src}#": f"{lead} {sentence}" for src, lead in zip(sources, leads, strict=True)}
    score_relevance(statements, texts, query, shared_minilm())
    return statements[0].relevance, statements[1].relevance


def test_how_questions_name_what_they_ask_a_change_of() -> None:
    from mining.question import asked_kind

    # The main verb's object, not the object inside the question's subject ("lithium").
    query = "How does smelting zinc in Peru affect the water use of Bolivian smelters?"
    assert asked_kind(query) == {"water", "use"}
    assert asked_kind("How have frosts hit tea and rubber harvests?") == {"tea", "rubber",
                                                                        "harvest"}  # fmt: skip
    assert asked_kind("How do importers buy cobalt?") == {"cobalt"}
    # A quantity question, or a "how" without an object, names nothing a source must say.
    assert asked_kind("How many mines does Osterra own?") == frozenset()
    assert asked_kind("How much cobalt does Zambia export?") == frozenset()
    assert asked_kind("How does Osterra Mining operate?") == frozenset()
    assert asked_kind("Where does Osterra sell cobalt?") == frozenset()


def test_a_how_question_is_not_answered_by_a_source_on_only_its_cause() -> None:
    answers, other = same_sentence_two_sources(
        ("Peru", "restrictsExportsOf", "zinc smelting equipment"),
        "Peru restricts exports of zinc smelting equipment.",
        ("Water use of zinc smelting in Peru.", "Peru and zinc smelting: export rules."),
        "How does smelting zinc in Peru affect the water use of Bolivian smelters?",
    )
    assert answers > 0 and other == 0.0


def test_a_compound_question_is_split_into_the_questions_it_asks() -> None:
    from mining.question import question_parts

    assert question_parts("What is behind the zinc shortage, and which smelters are hit?") == [
        "What is behind the zinc shortage?", "which smelters are hit?"
    ]
    assert question_parts("Who sells ore; who buys it?") == ["Who sells ore?", "who buys it?"]
    # One question, even with "and" in it.
    assert question_parts("Which contracts were awarded, and to whom?") == []
    assert question_parts("Who mines zinc and copper in Peru?") == []


def test_a_relation_one_part_of_a_compound_question_asks_for_fits_better() -> None:
    sentence = "The outbreak has hit Osterra Smelting."
    statement = Statement(
        subject="Osterra Smelting", predicate="affectedBy", object="outbreak",
        sentence=sentence, source="https://a.example",
    )  # fmt: skip
    texts = {"https://a.example#": f"Zinc shortage. {sentence}"}
    compound = "What is behind the zinc shortage, and which smelters are affected?"
    scores = []
    # Nearly the same words in one clause ("... of which smelters are affected").
    for query in (compound, compound.replace(", and which", " of which")):
        st = statement.model_copy()
        score_relevance([st], texts, query, shared_minilm())
        scores.append(st.relevance)
    assert scores[0] > scores[1]


def test_and_who_without_a_comma_starts_another_part_and_a_comma_which_does_not() -> None:
    from mining.question import question_parts

    # ", who" after a whole question ("Which ferry sank") asks another one.
    assert question_parts("Which ferry sank, who owns it and who is suing it?") == [
        "Which ferry sank?", "who owns it?", "who is suing it?"
    ]
    assert question_parts("Which ports, which the storm closed, reopened?") == []
    # ... but inside a noun phrase it describes the noun.
    assert question_parts("Which carriers, who lease their hulls, sold ships?") == []


def test_a_one_word_part_belongs_to_the_question_before_it() -> None:
    from mining.question import question_parts

    assert question_parts("Which ferry sank, who raised it, and when?") == [
        "Which ferry sank?", "who raised it, and when?"
    ]
