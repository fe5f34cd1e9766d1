"""A worker loads what its first run would wait for before it starts polling."""

from __future__ import annotations

from typing import Any

from kminer.worker import Services, warm_up
from storage.dkg.embedded import EmbeddedDkg


class CountingDkg:
    def __init__(self) -> None:
        self.gazetteer_calls = 0

    def gazetteer(self) -> list[tuple[str, str, str]]:
        self.gazetteer_calls += 1
        return []


class CountingEmbedder:
    name = "counting"

    def __init__(self) -> None:
        self.texts: list[str] = []

    def embed(self, texts: list[str]) -> Any:
        self.texts.extend(texts)
        return None


class NoEngine:
    def dispose(self) -> None:
        pass


def test_a_tool_worker_builds_the_label_index_and_loads_its_embedding_model() -> None:
    dkg, embedder = CountingDkg(), CountingEmbedder()
    warm_up(Services(dkg=dkg, engine=NoEngine(), search=None, embedder=embedder))
    assert dkg.gazetteer_calls == 1
    assert embedder.texts == ["warm-up"]


def test_a_workflows_only_worker_has_nothing_to_load() -> None:
    embedder = CountingEmbedder()
    warm_up(Services(dkg=None, engine=NoEngine(), search=None, embedder=embedder))
    assert embedder.texts == []



def test_a_tool_worker_over_an_embedded_store_starts_a_sparql_evaluator(tmp_path: Any) -> None:
    dkg = EmbeddedDkg(tmp_path / "dkg")
    try:
        warm_up(Services(dkg=dkg, engine=NoEngine(), search=None, embedder=CountingEmbedder()))
        assert dkg.sandbox is not None and len(dkg.sandbox.pids()) == 1
    finally:
        dkg.close()
