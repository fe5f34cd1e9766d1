"""Alembic migrations: empty and pre-migration databases end at head, on SQLite and Postgres."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.engine import Engine
from sqlmodel import Session, SQLModel, select

from contracts.run import memory_path
from storage.sql.audit_log import AuditLog
from storage.sql.db import make_engine
from storage.sql.memory_repo import MemoryRepository
from storage.sql.migrate import _config, current_revision, head_revision
from storage.sql.note_view import note_view
from storage.sql.tables import AuditEvent, MemoryNote, ResearchRun
from tests.support.postgres import own_database_url

KMINER = str(Path(sys.executable).with_name("kminer"))


@pytest.fixture(params=["sqlite", "postgres"])
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of an empty database: a new SQLite file, or a new Postgres database."""
    with own_database_url(request.param, tmp_path, "km_migrate") as url:
        yield url


def _kminer_db(url: str, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": url, "KM_DATA_DIR": str(tmp_path / "data")}
    return subprocess.run(
        [KMINER, "db", *args], env=env, capture_output=True, text=True, timeout=120
    )


def _drift(engine: Engine) -> list[object]:
    """What the models declare and the migrated schema lacks (or has extra)."""
    with engine.connect() as conn:
        return compare_metadata(MigrationContext.configure(conn), SQLModel.metadata)


def test_upgrade_on_an_empty_database_ends_at_head(empty_url: str, tmp_path: Path) -> None:
    before = _kminer_db(empty_url, tmp_path, "current")
    assert before.returncode == 0, before.stderr
    assert "no revision" in before.stdout
    done = _kminer_db(empty_url, tmp_path, "upgrade")
    assert done.returncode == 0, done.stderr
    assert f"empty -> {head_revision()} (head)" in done.stdout
    again = _kminer_db(empty_url, tmp_path, "upgrade")
    assert f"already at {head_revision()}" in again.stdout
    now = _kminer_db(empty_url, tmp_path, "current")
    assert now.stdout.strip().endswith(f"{head_revision()} (head)")
    engine = make_engine(empty_url, migrate=False)
    try:
        assert _drift(engine) == []
    finally:
        engine.dispose()


def test_a_database_of_the_previous_release_is_adopted_with_its_rows(
    empty_url: str, tmp_path: Path
) -> None:
    """The previous release made its tables with create_all and no revision table."""
    engine = make_engine(empty_url, migrate=False)
    try:
        SQLModel.metadata.create_all(engine)
        with Session(engine) as session:
            session.add(MemoryNote(domain_tag="supply_chain", name="schema-notes", head="x"))
            session.add(AuditEvent(run_id="r", tool="dkg_sparql", args_hash="h", kind="tool"))
            session.commit()
        assert current_revision(engine) is None
        done = _kminer_db(empty_url, tmp_path, "upgrade")
        assert done.returncode == 0, done.stderr
        assert current_revision(engine) == head_revision()
        assert _drift(engine) == []
        with Session(engine) as session:
            note = session.get(MemoryNote, 1)
            assert note is not None and note.head == "x"
    finally:
        engine.dispose()


def test_the_first_release_schema_gains_the_audit_columns(empty_url: str) -> None:
    """Revision 0001 alone is the first release's schema; head adds the audit trail."""
    engine = make_engine(empty_url, migrate=False)
    try:
        with engine.begin() as conn:
            command.upgrade(_config(conn), "0001")
        assert "kind" not in {c["name"] for c in inspect(engine).get_columns("auditevent")}
        with engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO auditevent (run_id, tool, args_hash, result_count, elapsed_ms,"
                    " success, created_at) VALUES ('r', 'dkg_sparql', 'h', 3, 12, true, :t)"
                ),
                {"t": datetime(2026, 1, 1, tzinfo=UTC).replace(tzinfo=None)},
            )
        engine.dispose()
        engine = make_engine(empty_url)  # what every process does at start
        assert current_revision(engine) == head_revision()
        assert _drift(engine) == []
        with Session(engine) as session:
            old = session.get(AuditEvent, 1)
        assert old is not None and old.kind == "tool" and old.tool == "dkg_sparql"
        log = AuditLog(engine)
        assert log.record(run_id="r", kind="decision", tool="decide", principal="rita",
                          detail={}, event_key="decision:0")  # fmt: skip
        assert not log.record(run_id="r", kind="decision", tool="decide", principal="rita",
                              detail={}, event_key="decision:0")  # fmt: skip
    finally:
        engine.dispose()


def test_processes_starting_together_upgrade_once(empty_url: str, tmp_path: Path) -> None:
    """Workers starting at once all find the schema at head; none fails on a half-made one."""
    env = {**os.environ, "DATABASE_URL": empty_url, "KM_DATA_DIR": str(tmp_path / "data")}
    procs = [
        subprocess.Popen(
            [KMINER, "db", "upgrade"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, [err for _, err in outs]
    upgraded = [out for out, _ in outs if "upgraded empty" in out]
    assert len(upgraded) == 1, outs
    engine = make_engine(empty_url, migrate=False)
    try:
        assert current_revision(engine) == head_revision()
    finally:
        engine.dispose()


def test_a_bad_database_url_is_one_line_and_exit_2(tmp_path: Path) -> None:
    for url in ("not a url", "nosuchdriver://x/y"):
        done = _kminer_db(url, tmp_path, "upgrade")
        assert done.returncode == 2
        assert done.stderr.count("\n") == 1 and "DATABASE_URL" in done.stderr
        assert "Traceback" not in done.stderr


def test_revision_0004_gives_old_research_tasks_and_their_evidence_an_owner(
    empty_url: str,
) -> None:
    """Before 0004 neither a blob nor a research task named whom it was for: a task takes
    its run's principal from the run's audited tool calls, its evidence blob that run."""
    from storage.sql.blobs import BlobStore

    engine = make_engine(empty_url, migrate=False)
    try:
        with engine.begin() as conn:
            command.upgrade(_config(conn), "0003")
        at = datetime(2026, 11, 1, tzinfo=UTC).replace(tzinfo=None)
        audited = [
            # ana's run: its tool calls name her; the reviewer's decision names rita.
            ("mine-ana", "rita", "decision", "decide"),
            ("mine-ana", "ana", "tool", "corpus_search"),
            ("mine-cli", None, "tool", "corpus_search"),
        ]
        with engine.begin() as conn:
            for run_id, principal, kind, tool in audited:
                conn.execute(
                    text(
                        "INSERT INTO auditevent (run_id, principal, kind, tool, args_hash,"
                        " result_count, elapsed_ms, success, created_at)"
                        " VALUES (:r, :p, :k, :t, 'h', 1, 1, true, :at)"
                    ),
                    {"r": run_id, "p": principal, "k": kind, "t": tool, "at": at},
                )
            for run_id, body in (("mine-ana", "ana's evidence"), ("mine-cli", "cli evidence")):
                digest = hashlib.sha256(body.encode()).hexdigest()
                conn.execute(
                    text("INSERT INTO blob (sha256, content, size, created_at)"
                         " VALUES (:d, :c, :n, :at)"),
                    {"d": digest, "c": body, "n": len(body), "at": at},
                )  # fmt: skip
                conn.execute(
                    text(
                        "INSERT INTO researchrun (task_id, thread_id, query, embedder, embedding,"
                        " status, plan, evidence_ref, statement_count, created_at)"
                        " VALUES (:r, 'supply_chain', 'q', 'minilm', '[1.0]', 'COMPLETED', '',"
                        " :d, 1, :at)"
                    ),
                    {"r": run_id, "d": digest, "at": at},
                )
        engine.dispose()
        engine = make_engine(empty_url)  # what every process does at start
        assert current_revision(engine) == head_revision()
        assert _drift(engine) == []
        with Session(engine) as session:
            owners = {r.task_id: r.principal for r in session.exec(select(ResearchRun)).all()}
        assert owners == {"mine-ana": "ana", "mine-cli": None}
        blobs = BlobStore(engine)
        ana = hashlib.sha256(b"ana's evidence").hexdigest()
        assert blobs.readable(ana, "ana", sees_every_run=False) is not None
        assert blobs.readable(ana, "rita", sees_every_run=False) is None
        cli = hashlib.sha256(b"cli evidence").hexdigest()
        assert blobs.readable(cli, "ana", sees_every_run=False) is None
        assert blobs.readable(cli, "rita", sees_every_run=True) is not None
    finally:
        engine.dispose()


# Notes as revision 0004 kept them: the whole text in `memorynote.content`, with the
# ledger rows of the appends that wrote their run sections.
OLD_NOTES = {
    ("supply_chain", "discovery-notes"): (
        "# Discovery Notes - supply_chain\n"
        + "".join(f"\n## Run mine-{n:03d} (discovery)\n- finding {n}\n" for n in range(300))
    ),
    ("supply_chain", "validation-rules"): (
        "# Validation Rules - supply_chain\naccept_threshold: 0.8\n"
        "## Run by hand\n- a heading a person wrote\n"
        "\n## Run mine-001 (validation)\n- kept\n\n## Run mine-001 (validation)\n- copied\n"
    ),
    ("climate", "schema-notes"): "## Run mine-9 (enrichment)\n- opens the note\n",
    ("climate", "discovery-notes"): "just a head, no run yet",
}


def test_revision_0005_moves_every_run_section_into_a_row_without_loss(
    empty_url: str,
) -> None:
    engine = make_engine(empty_url, migrate=False)
    try:
        with engine.begin() as conn:
            command.upgrade(_config(conn), "0004")
        at = datetime(2026, 11, 1, tzinfo=UTC).replace(tzinfo=None)
        with engine.begin() as conn:
            for (tag, name), content in OLD_NOTES.items():
                conn.execute(
                    text("INSERT INTO memorynote (domain_tag, name, content, version,"
                         " updated_at, updated_by_run) VALUES (:t, :n, :c, 7, :at, 'mine-x')"),
                    {"t": tag, "n": name, "c": content, "at": at},
                )  # fmt: skip
            for n in range(300):
                conn.execute(
                    text("INSERT INTO memoryappend (run_id, domain_tag, name, step, created_at)"
                         " VALUES (:r, 'supply_chain', 'discovery-notes', 'discovery', :at)"),
                    {"r": f"mine-{n:03d}", "at": at},
                )  # fmt: skip
        engine.dispose()
        engine = make_engine(empty_url)  # what every process does at start
        assert current_revision(engine) == head_revision()
        assert _drift(engine) == []
        # The previous release's ledger stays for its processes during the upgrade.
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM memoryappend")).scalar() == 300
        repo = MemoryRepository(engine)
        for (tag, name), content in OLD_NOTES.items():
            note = repo.read(tag, name)
            assert note is not None and note.content == content, (tag, name)
            assert note.version == 7, "an edit based on the last read still holds"
            for limit in (1000, 8000):
                view = repo.read_tags([tag], limit)[memory_path(tag, name)]
                assert view == note_view(content, limit), (tag, name, limit)
        sections = {(n.domain_tag, n.name): n.sections for n in repo.list_notes()}
        assert sections == {
            ("supply_chain", "discovery-notes"): 300,
            ("supply_chain", "validation-rules"): 3,
            ("climate", "schema-notes"): 1,
            ("climate", "discovery-notes"): 0,
        }
        # A run's append retried after the upgrade finds its section; a new one appends.
        retried = repo.append(run_id="mine-042", step="discovery", tag="supply_chain",
                              name="discovery-notes", lines=["finding 42"])  # fmt: skip
        copied = repo.append(run_id="mine-001", step="validation", tag="supply_chain",
                             name="validation-rules", lines=["kept"])  # fmt: skip
        fresh = repo.append(run_id="mine-300", step="discovery", tag="supply_chain",
                            name="discovery-notes", lines=["finding 300"])  # fmt: skip
        assert not retried.appended and not copied.appended and fresh.appended
        note = repo.read("supply_chain", "discovery-notes")
        assert note is not None
        assert note.content == OLD_NOTES[("supply_chain", "discovery-notes")] + (
            "\n## Run mine-300 (discovery)\n- finding 300\n"
        )
        # A head written above a section that opened its note keeps that heading a heading.
        repo.put(tag="climate", name="schema-notes", content="Prefer filings.", run_id=None,
                 expected_version=7)  # fmt: skip
        note = repo.read("climate", "schema-notes")
        assert note is not None
        assert note.content == "Prefer filings.\n## Run mine-9 (enrichment)\n- opens the note\n"
        assert note.sections == 1
    finally:
        engine.dispose()
