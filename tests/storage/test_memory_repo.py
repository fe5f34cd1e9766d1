"""Long-term memory in SQL: run sections as rows, appended once each and never lost; the
head edited against its version; SQLite and Postgres."""

from __future__ import annotations

import threading
import uuid

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Engine

from activities.memory import MemoryActivities
from contracts.tools import LoadNotesInput
from storage.sql.memory_repo import (
    AppendOutcome,
    MemoryRepository,
    SectionEditError,
    StaleNoteError,
)
from storage.sql.section_append import appender
from tests.support.postgres import engine_per_backend

engine = engine_per_backend()


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
    assert again.section == first.section, "the retry names the section the first wrote"
    note = repo.read(tag, "discovery-notes")
    assert note is not None and note.content.count("pattern A") == 1 and note.sections == 1
    assert first.path == f"/memories/knowledge/{tag}/discovery-notes.md"


def test_a_new_step_or_run_appends(engine: Engine) -> None:
    repo = MemoryRepository(engine)
    tag = f"t{uuid.uuid4().hex[:8]}"
    repo.append(run_id="r1", step="discovery", tag=tag, name="schema-notes", lines=["one"])
    repo.append(run_id="r2", step="discovery", tag=tag, name="schema-notes", lines=["two"])
    note = repo.read(tag, "schema-notes")
    assert note is not None and note.sections == 2
    assert note.version == 0, "appends leave the head's version"
    assert note.content == (
        f"# Schema Notes - {tag}\n\n## Run r1 (discovery)\n- one\n\n## Run r2 (discovery)\n- two\n"
    ), "the note reads as it always has: its title, then each run's section"
    assert note.head == f"# Schema Notes - {tag}\n" and note.updated_by_run == "r2"


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

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    note = repo.read(tag, "validation-rules")
    assert note is not None
    assert all(note.content.count(f"rule from run {i}\n") == 1 for i in range(20))
    assert note.sections == 21 and note.version == 0


def test_the_same_append_made_at_once_by_many_threads_lands_once(engine: Engine) -> None:
    """A retried activity can race its first attempt: one section, every caller told its row."""
    repo = MemoryRepository(engine)
    tag = f"t{uuid.uuid4().hex[:8]}"
    outcomes: list[AppendOutcome] = []
    start = threading.Barrier(12)

    def attempt(i: int) -> None:
        start.wait()
        run = f"run{i % 2}"
        outcomes.append(repo.append(run_id=run, step="discovery", tag=tag,
                                    name="discovery-notes", lines=[f"from {run}"]))  # fmt: skip

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(o.appended for o in outcomes) == 2, "one section a run"
    assert len({o.section for o in outcomes}) == 2
    note = repo.read(tag, "discovery-notes")
    assert note is not None and note.sections == 2
    assert note.content.count("from run0\n") == 1 and note.content.count("from run1\n") == 1


def test_a_database_without_on_conflict_appends_one_section_at_a_time(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(appender(engine), "_insert", None)  # as for a dialect without it
    repo = MemoryRepository(engine)
    tag = f"t{uuid.uuid4().hex[:8]}"
    first = repo.append(run_id="r1", step="s", tag=tag, name="schema-notes", lines=["one"])
    again = repo.append(run_id="r1", step="s", tag=tag, name="schema-notes", lines=["one"])
    other = repo.append(run_id="r2", step="s", tag=tag, name="schema-notes", lines=["two"])
    assert (first.appended, again.appended, other.appended) == (True, False, True)
    assert again.section == first.section != other.section
    note = repo.read(tag, "schema-notes")
    assert note is not None and note.sections == 2


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


def test_an_edit_based_on_a_stale_head_is_refused(engine: Engine) -> None:
    repo = MemoryRepository(engine)
    tag = f"t{uuid.uuid4().hex[:8]}"
    repo.append(run_id="r1", step="s", tag=tag, name="schema-notes", lines=["mine"])
    read = repo.read(tag, "schema-notes")
    assert read is not None and read.version == 0
    assert repo.put(tag=tag, name="schema-notes", content="# Schema\n- ours\n", run_id=None,
                    expected_version=0) == 1  # fmt: skip
    with pytest.raises(StaleNoteError, match=r"changed since it was read \(version 0 -> 1\)"):
        repo.put(tag=tag, name="schema-notes", content="# Schema\n- theirs\n", run_id=None,
                 expected_version=read.version)  # fmt: skip
    note = repo.read(tag, "schema-notes")
    assert note is not None and note.head == "# Schema\n- ours\n" and note.version == 1
    again = repo.put(tag=tag, name="schema-notes", content="# Schema\n- ours\n", run_id=None,
                     expected_version=0)  # fmt: skip
    assert again == 1, "writing the head it has again is a no-op"


def test_appends_do_not_race_an_edit_and_an_edit_loses_no_section(engine: Engine) -> None:
    repo = MemoryRepository(engine)
    tag = f"t{uuid.uuid4().hex[:8]}"
    repo.append(run_id="r1", step="s", tag=tag, name="schema-notes", lines=["first"])
    read = repo.read(tag, "schema-notes")
    assert read is not None
    # A run appends after the editor read the note: the edit, based on that read, holds.
    repo.append(run_id="r2", step="s", tag=tag, name="schema-notes", lines=["second"])
    edited = read.content.replace(f"# Schema Notes - {tag}\n", "# Schema Notes\nPrefer filings.\n")
    assert repo.put(tag=tag, name="schema-notes", content=edited, run_id="r9",
                    expected_version=read.version) == 1  # fmt: skip
    note = repo.read(tag, "schema-notes")
    assert note is not None and note.sections == 2
    assert note.content == (
        "# Schema Notes\nPrefer filings.\n\n## Run r1 (s)\n- first\n\n## Run r2 (s)\n- second\n"
    )
    assert note.updated_by_run == "r9"


def test_an_edit_that_changes_or_adds_a_run_section_is_refused(engine: Engine) -> None:
    repo = MemoryRepository(engine)
    tag = f"t{uuid.uuid4().hex[:8]}"
    repo.append(run_id="r1", step="s", tag=tag, name="schema-notes", lines=["as written"])
    note = repo.read(tag, "schema-notes")
    assert note is not None
    for content in (
        note.content.replace("as written", "rewritten"),
        note.content + "\n## Run r7 (s)\n- invented\n",
    ):
        with pytest.raises(SectionEditError, match="run sections stay as runs wrote them"):
            repo.put(tag=tag, name="schema-notes", content=content, run_id=None,
                     expected_version=note.version)  # fmt: skip
    assert repo.read(tag, "schema-notes") == note


def test_a_note_made_by_an_edit_alone_has_only_its_head(engine: Engine) -> None:
    repo = MemoryRepository(engine)
    tag = f"t{uuid.uuid4().hex[:8]}"
    assert repo.read(tag, "validation-rules") is None
    repo.put(tag=tag, name="validation-rules", content="accept_threshold: 0.8", run_id=None,
             expected_version=0)  # fmt: skip
    repo.append(run_id="r1", step="validation", tag=tag, name="validation-rules", lines=["x"])
    note = repo.read(tag, "validation-rules")
    assert note is not None and note.version == 1 and note.sections == 1
    assert note.content == "accept_threshold: 0.8\n## Run r1 (validation)\n- x\n"
    assert [n.name for n in repo.list_notes(tag)] == ["validation-rules"]


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
