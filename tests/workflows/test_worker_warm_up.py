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


def test_any_worker_scans_deepagents_install_metadata_before_it_polls() -> None:
    from deepagents._version import _lc_version

    _lc_version.cache_clear()
    warm_up(Services(dkg=None, engine=NoEngine(), search=None, embedder=CountingEmbedder()))
    assert _lc_version.cache_info().currsize == 1


def test_runs_asking_for_one_graph_at_once_build_it_once() -> None:
    import threading
    import time

    from workflows.agent_graphs import shared_graph

    builds: list[int] = []

    def build() -> object:
        builds.append(1)
        time.sleep(0.05)  # long enough for every other thread to arrive meanwhile
        return object()

    key = ("burst", time.monotonic_ns())
    graphs: list[object] = []
    threads = [
        threading.Thread(target=lambda: graphs.append(shared_graph(key, build))) for _ in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(builds) == 1
    assert len({id(graph) for graph in graphs}) == 1 and len(graphs) == 8
