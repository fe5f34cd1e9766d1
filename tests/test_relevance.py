"""Relevance of a statement to the question (activities/relevance.py, activities/embeddings.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import numpy as np
import pytest

from activities import relevance as R
from activities.embeddings import OpenAiEmbedder, shared_minilm
from tests.replay import replay_server


def test_content_words_drop_question_and_function_words() -> None:
    assert R.content_words("Which suppliers of lithium carry geopolitical risk?") == {
        "supplier", "lithium", "geopolitical", "risk"
    }  # fmt: skip
    assert R.stem("shortages") == "shortage" and R.stem("companies") == "company"
    assert R.stem("batches") == "batch" and R.stem("process") == "process"
    assert R.stem("CATL's") == "catl" and R.stem("gas") == "gas"


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


def test_anchor_and_formula() -> None:
    asked = {"did:dkg:x/1", "tesla"}
    assert R.anchor(set(), {"x"}, "s") is None
    assert R.anchor(asked, {"did:dkg:x/1"}, "s") == 1.0
    assert R.anchor(asked, {"other"}, "Ganfeng supplies Tesla.") == 0.5
    assert R.anchor(asked, {"other"}, "Ganfeng supplies Teslas.") == 0.0
    model = "all-MiniLM-L6-v2-int8"
    base = R.relevance(0.45, 0.9, 0.5, model)
    assert base == round(0.4 * 0.5 + 0.6 * 0.5, 3)
    assert R.relevance(0.45, 0.9, 0.5, model, 1.0) == round(0.7 * base + 0.3, 3)
    assert R.is_relevant(R.RELEVANCE_FLOOR) and not R.is_relevant(R.RELEVANCE_FLOOR - 0.001)


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
