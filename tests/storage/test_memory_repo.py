"""Long-term memory in SQL: idempotent appends, no lost updates, SQLite and Postgres."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Engine

from activities.memory import MemoryActivities
from contracts.tools import LoadNotesInput
from storage.sql.db import make_engine
from storage.sql.memory_repo import MemoryRepository
from tests.support.postgres import POSTGRES_URL, postgres_answers


@pytest.fixture(params=["sqlite", "postgres"])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    if request.param == "sqlite":
        eng = make_engine(f"sqlite:///{tmp_path / 'memory.db'}")
    else:
        if not postgres_answers():
            pytest.skip("Postgres is not answering on 127.0.0.1:5432 (or psycopg missing)")
        eng = make_engine(POSTGRES_URL)
    yield eng
    eng.dispose()


def test_append_is_idempotent_per_run_note_and_step(engine: Engine) -> None:
    repo = MemoryRepository(engine)
    tag = f"t{uuid.uuid4().hex[:8]}"
    first = repo.append(
        run_id="r1", step="discovery", tag=tag, name="discovery-notes", lines=["pattern A"]
    )
    again = repo.append(
        run_id="r1", step="discovery", tag=tag, name="discovery-notes", lines=["pattern A"]
    )
    assert first.appended and not again.appended
    note = repo.read(tag, "discovery-notes")
    assert note is not None and note.content.count("pattern A") == 1
    assert first.path == f"/memories/knowledge/{tag}/discovery-notes.md"


def test_a_new_step_or_run_appends(engine: Engine) -> None:
    repo = MemoryRepository(engine)
    tag = f"t{uuid.uuid4().hex[:8]}"
    repo.append(run_id="r1", step="discovery", tag=tag, name="schema-notes", lines=["one"])
    repo.append(run_id="r2", step="discovery", tag=tag, name="schema-notes", lines=["two"])
    note = repo.read(tag, "schema-notes")
    assert note is not None and note.version == 2
    assert note.content.index("one") < note.content.index("two")
    assert note.content.startswith(f"# Schema Notes - {tag}")


def test_concurrent_runs_never_lose_each_others_lines(engine: Engine) -> None:
    repo = MemoryRepository(engine)
    tag = f"t{uuid.uuid4().hex[:8]}"
    repo.append(run_id="seed", step="s", tag=tag, name="validation-rules", lines=["start"])
    errors: list[BaseException] = []

    def writer(i: int) -> None:
        try:
            repo.append(
                run_id=f"run{i}",
                step="validation",
                tag=tag,
                name="validation-rules",
                lines=[f"rule from run {i}"],
            )
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    note = repo.read(tag, "validation-rules")
    assert note is not None
    assert all(f"rule from run {i}" in note.content for i in range(8))
    assert note.version == 9


def test_read_tags_returns_every_note_path(engine: Engine) -> None:
    repo = MemoryRepository(engine)
    notes = repo.read_tags(["supply_chain_x"])
    assert sorted(notes) == [
        "/memories/knowledge/supply_chain_x/discovery-notes.md",
        "/memories/knowledge/supply_chain_x/schema-notes.md",
        "/memories/knowledge/supply_chain_x/validation-rules.md",
    ]
    with engine.connect() as conn:
        conn.execute(text("SELECT 1"))


def test_read_tags_gives_each_notes_content_and_only_the_asked_tags(engine: Engine) -> None:
    repo = MemoryRepository(engine)
    for tag, name in [("t1", "schema-notes"), ("t2", "discovery-notes"), ("t3", "schema-notes")]:
        repo.append(run_id="r", step="s", tag=tag, name=name, lines=[f"{tag} {name}"])
    notes = repo.read_tags(["t1", "t2"])
    assert list(notes) == [
        f"/memories/knowledge/{t}/{n}.md"
        for t in ("t1", "t2") for n in ("discovery-notes", "schema-notes", "validation-rules")
    ]  # fmt: skip
    assert "- t1 schema-notes" in notes["/memories/knowledge/t1/schema-notes.md"]
    assert "- t2 discovery-notes" in notes["/memories/knowledge/t2/discovery-notes.md"]
    assert notes["/memories/knowledge/t1/discovery-notes.md"] == ""
    assert repo.read_tags([]) == {}


def test_put_refuses_a_write_based_on_a_stale_read(engine: Engine) -> None:
    from storage.sql.memory_repo import StaleNoteError

    repo = MemoryRepository(engine)
    tag = f"t{uuid.uuid4().hex[:8]}"
    repo.append(run_id="r1", step="s", tag=tag, name="schema-notes", lines=["mine"])
    read_version = repo.read(tag, "schema-notes").version
    repo.append(run_id="r2", step="s", tag=tag, name="schema-notes", lines=["theirs"])
    with pytest.raises(StaleNoteError, match="changed since it was read"):
        repo.put(
            tag=tag,
            name="schema-notes",
            content="mine only",
            run_id="r1",
            expected_version=read_version,
        )
    assert "theirs" in repo.read(tag, "schema-notes").content
    current = repo.read(tag, "schema-notes")
    assert (
        repo.put(
            tag=tag,
            name="schema-notes",
            content=current.content + "\n- more",
            run_id="r1",
            expected_version=current.version,
        )
        == current.version + 1
    )


async def test_a_run_reads_a_bounded_view_while_the_note_stays_whole(engine: Engine) -> None:
    repo = MemoryRepository(engine)
    for n in range(40):
        repo.append(run_id=f"run-{n:02d}", step="discovery", tag="t", name="discovery-notes",
                    lines=[f"finding {n}: " + "w" * 120])  # fmt: skip
    path = "/memories/knowledge/t/discovery-notes.md"
    whole = repo.read_tags(["t"])[path]
    read = await MemoryActivities(repo, note_chars=1000).load_memory_notes(
        LoadNotesInput(tags=["t"])
    )
    assert whole.count("## Run ") == 40 and len(whole) > 5000
    assert len(read[path]) <= 1000
    assert read[path].startswith("# Discovery Notes - t") and "finding 39:" in read[path]
    assert "finding 0:" not in read[path]
