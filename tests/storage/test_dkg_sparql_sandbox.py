"""SPARQL over the embedded store runs in evaluator processes with hard limits: a query that
would crash pyoxigraph, never end or exhaust memory is refused by name, the evaluator that
ran it is killed, and the store and this process go on answering."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from storage.dkg.embedded import EmbeddedDkg
from storage.dkg.factory import DkgSnapshotReader
from storage.dkg.interface import PREFIXES, DkgQueryError
from storage.dkg.sparql_guard import MAX_QUERY_OPERATORS, SparqlRefused
from storage.dkg.sparql_sandbox import SparqlSandbox
from tests.support.embedded_dkg import asset, triple_count
from tests.support.hostile_sparql import (
    CRASHING,
    ENDLESS,
    MEMORY_HOG,
    ORDINARY,
    alive,
    cpu_seconds,
)


@pytest.fixture()
def sandbox(seeded: EmbeddedDkg) -> Iterator[SparqlSandbox]:
    """A pool of its own over the seeded store, so its limits can be set per test."""
    pool = SparqlSandbox(seeded.path, processes=1, memory_mb=512)
    yield pool
    pool.close()


def ask(pool: SparqlSandbox, sparql: str, timeout_s: float = 5.0) -> dict[str, object]:
    return pool.evaluate(
        sparql, prefixes=PREFIXES, row_limit=10, timeout_s=timeout_s, union_default_graph=True
    )


@pytest.mark.parametrize("name", CRASHING)
def test_a_query_that_crashed_the_service_is_refused_by_its_operator_count(
    seeded: EmbeddedDkg, name: str
) -> None:
    started = time.monotonic()
    with pytest.raises(DkgQueryError, match=f"the limit is {MAX_QUERY_OPERATORS:,}") as refused:
        seeded.query(CRASHING[name])
    assert time.monotonic() - started < 1.0
    assert "operators" in str(refused.value)
    assert seeded.query(ORDINARY).rows


def test_a_crash_in_the_evaluator_is_a_refusal_and_the_next_query_is_answered(
    seeded: EmbeddedDkg,
) -> None:
    pool = SparqlSandbox(seeded.path, processes=1)
    try:
        # Sent past the screening on purpose: the evaluator process itself must contain it.
        with pytest.raises(SparqlRefused, match="crashed the SPARQL evaluator") as crashed:
            ask(pool, CRASHING["12,000-term sum"], timeout_s=30)
        assert "SIGSEGV" in str(crashed.value)
        assert pool.pids() == []
        assert ask(pool, ORDINARY)["rows"]
    finally:
        pool.close()


@pytest.mark.parametrize("name", ENDLESS)
def test_an_endless_query_is_stopped_at_the_time_limit_and_its_evaluator_killed(
    seeded: EmbeddedDkg, name: str
) -> None:
    seeded.query(ORDINARY)
    assert seeded.sandbox is not None
    (evaluator,) = seeded.sandbox.pids()
    started = time.monotonic()
    with pytest.raises(DkgQueryError, match="query exceeds the 1 s time limit"):
        seeded.query(ENDLESS[name], timeout_s=1)
    assert time.monotonic() - started < 3.0
    assert not alive(evaluator)
    assert seeded.query(ORDINARY).rows
    for pid in seeded.sandbox.pids():
        before = cpu_seconds(pid)
        time.sleep(0.5)
        assert cpu_seconds(pid) - before < 0.1, "an evaluator left busy"


def test_a_query_past_the_memory_limit_is_refused_by_name(sandbox: SparqlSandbox) -> None:
    with pytest.raises(SparqlRefused, match="exceeds the 512 MB memory limit"):
        ask(sandbox, MEMORY_HOG, timeout_s=60)
    assert ask(sandbox, ORDINARY)["rows"]


def test_a_caller_waits_no_longer_than_its_time_limit_for_a_busy_pool(
    sandbox: SparqlSandbox,
) -> None:
    errors: list[Exception] = []

    def hog() -> None:
        try:
            ask(sandbox, ENDLESS["two-pattern cross product"], timeout_s=3)
        except SparqlRefused as exc:
            errors.append(exc)

    busy = threading.Thread(target=hog)
    busy.start()
    time.sleep(0.5)
    started = time.monotonic()
    with pytest.raises(SparqlRefused, match="all 1 SPARQL evaluators stayed busy"):
        ask(sandbox, ORDINARY, timeout_s=1)
    assert time.monotonic() - started < 2.0
    busy.join()
    assert [str(e) for e in errors] == [
        "query exceeds the 3 s time limit (its evaluation was stopped)"
    ]
    assert ask(sandbox, ORDINARY)["rows"]


def test_queries_see_every_write_of_the_owner(fresh: EmbeddedDkg, tmp_path: Path) -> None:
    assert triple_count(fresh) == 0  # the evaluator now holds a view of the empty store
    fresh.publish(asset("Sandbox Lithium"), publisher="0xabc")
    assert fresh.query("ASK { ?s schema:name 'Sandbox Lithium' }").boolean is True
    fresh.bulk_load([asset("Bulk Lithium")])
    assert fresh.query("ASK { ?s schema:name 'Bulk Lithium' }").boolean is True
    reader = DkgSnapshotReader(tmp_path / "store")
    try:
        assert reader.query("ASK { ?s schema:name 'Later Lithium' }").boolean is False
        fresh.publish(asset("Later Lithium"), publisher="0xabc")
        assert reader.query("ASK { ?s schema:name 'Later Lithium' }").boolean is True
    finally:
        reader.close()


def test_ordinary_answers_are_unchanged(seeded: EmbeddedDkg) -> None:
    rows = seeded.query("SELECT ?s ?p ?o WHERE { ?s ?p ?o }", row_limit=7)
    assert len(rows.rows) == 7 and rows.truncated
    counted = seeded.query("SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }")
    assert isinstance(counted.rows[0]["n"], int) and counted.rows[0]["n"] > 1000


def test_closing_the_store_stops_its_evaluators(tmp_path: Path) -> None:
    dkg = EmbeddedDkg(tmp_path / "store")
    dkg.query("ASK { ?s ?p ?o }")
    assert dkg.sandbox is not None
    pids = dkg.sandbox.pids()
    assert len(pids) == 1
    dkg.close()
    assert not any(alive(pid) for pid in pids)
    with pytest.raises(Exception, match="closed"):
        dkg.query("ASK { ?s ?p ?o }")


def test_an_orphaned_evaluator_stops_itself_at_its_cpu_budget(seeded: EmbeddedDkg) -> None:
    """Should the serving process die mid-query, nobody kills its evaluator: RLIMIT_CPU
    does, one second past the query's time limit."""
    request = {
        "store": str(seeded.path),
        "generation": None,
        "query": ENDLESS["three-pattern cross product"],
        "unionDefaultGraph": True,
        "rowLimit": 1,
        "cpuSeconds": 1,
    }
    with subprocess.Popen(
        [sys.executable, "-m", "storage.dkg.sparql_evaluator", "1024"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    ) as evaluator:
        assert evaluator.stdin is not None
        evaluator.stdin.write(json.dumps(request).encode() + b"\n")
        evaluator.stdin.flush()
        try:
            code = evaluator.wait(timeout=15)
        finally:
            evaluator.kill()
    assert code == -signal.SIGXCPU
