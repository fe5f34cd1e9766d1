"""Blobs and research tasks belong to the runs that wrote them and those runs' principals."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from storage.sql.blobs import BlobStore, blob_digest
from storage.sql.db import make_engine
from storage.sql.research_cache import ResearchCache
from storage.sql.tables import Blob, BlobOwner, ResearchRun
from tests.support.postgres import fresh_postgres_database, postgres_answers

THREAD = "supply_chain"
EMBEDDER = "minilm"


@pytest.fixture(params=["sqlite", "postgres"])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    if request.param == "sqlite":
        made = make_engine(f"sqlite:///{tmp_path / 'kminer.db'}")
        yield made
        made.dispose()
        return
    if not postgres_answers():
        pytest.skip("Postgres is not answering on 127.0.0.1:5432 (or psycopg missing)")
    with fresh_postgres_database("km_blobs") as url:
        made = make_engine(url)
        try:
            yield made
        finally:
            made.dispose()


def test_a_blob_is_read_only_through_a_run_its_reader_may_see(engine: Engine) -> None:
    blobs = BlobStore(engine)
    body = '[{"s": "CATL", "p": "supplies", "o": "Tesla"}]'
    digest = blobs.store(body, run_id="mine-ana-1", principal="ana")
    assert digest == blob_digest(body)

    ana = blobs.readable(digest, "ana", sees_every_run=False)
    assert ana is not None and ana.content == body and ana.size == len(body)
    assert blobs.readable(digest, "bob", sees_every_run=False) is None, "another miner's blob"
    assert blobs.readable(digest, "rita", sees_every_run=True) is not None, "a reviewer's read"
    assert blobs.readable("0" * 64, "rita", sees_every_run=True) is None

    # The same body from bob's run: stored once, now owned by both runs.
    assert blobs.store(body, run_id="mine-bob-1", principal="bob") == digest
    assert blobs.readable(digest, "bob", sees_every_run=False) is not None
    assert blobs.readable(digest, "cleo", sees_every_run=False) is None


def test_storing_again_adds_nothing(engine: Engine) -> None:
    """A retried activity writes the same body for the same run: one blob, one owner."""
    blobs = BlobStore(engine)
    for _ in range(3):
        digest = blobs.store("x" * 10_000, run_id="mine-ana-1", principal="ana")
    with Session(engine) as session:
        assert len(session.exec(select(Blob)).all()) == 1
        owners = session.exec(select(BlobOwner)).all()
    assert [(o.sha256, o.run_id, o.principal) for o in owners] == [(digest, "mine-ana-1", "ana")]


def test_a_blob_written_outside_a_run_is_for_reviewers_only(engine: Engine) -> None:
    blobs = BlobStore(engine)
    digest = blobs.store("no run", run_id=None, principal=None)
    assert blobs.content(digest) == "no run"
    assert blobs.readable(digest, "ana", sees_every_run=False) is None
    assert blobs.readable(digest, "rita", sees_every_run=True) is not None
    ownerless = blobs.store("a cli run", run_id="mine-cli", principal=None)
    assert blobs.readable(ownerless, "ana", sees_every_run=False) is None


def _task(task_id: str, principal: str | None, age_days: float = 1) -> ResearchRun:
    at = datetime.now(UTC) - timedelta(days=age_days)
    return ResearchRun(
        task_id=task_id,
        thread_id=THREAD,
        principal=principal,
        query="Which suppliers of lithium carry geopolitical risk?",
        embedder=EMBEDDER,
        embedding="[1.0]",
        evidence_ref="0" * 64,
        created_at=at,
        completed_at=at,
    )


def test_research_tasks_are_found_only_for_their_own_principal(engine: Engine) -> None:
    cache = ResearchCache(engine)
    for task in (
        _task("mine-ana-1", "ana", 2),
        _task("mine-ana-2", "ana", 1),
        _task("mine-bob-1", "bob"),
        _task("mine-cli-1", None),
    ):
        assert cache.store(task)
    since = datetime.now(UTC) - timedelta(days=30)

    def found(principal: str | None, shared: bool = False) -> list[str]:
        return [r.task_id for r in cache.recent(THREAD, since, EMBEDDER, principal, shared)]

    assert found("ana") == ["mine-ana-2", "mine-ana-1"], "its own, newest first"
    assert found("bob") == ["mine-bob-1"]
    assert found("cleo") == []
    assert found(None) == ["mine-cli-1"], "runs without a principal share among themselves"
    assert sorted(found("cleo", shared=True)) == [
        "mine-ana-1", "mine-ana-2", "mine-bob-1", "mine-cli-1",
    ]  # fmt: skip
