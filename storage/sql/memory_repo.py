"""Long-term memory notes: read per tag, append idempotently, never lose an update."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import bindparam, insert, update
from sqlalchemy import select as sa_select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from contracts.run import NOTE_NAMES, memory_path
from storage.sql.note_view import RUN_HEADING, note_view
from storage.sql.tables import MemoryAppend, MemoryNote, utcnow

NOTE_TITLES = {
    "discovery-notes": "Discovery Notes",
    "schema-notes": "Schema Notes",
    "validation-rules": "Validation Rules",
}


class _Overtaken(Exception):
    """Another writer updated the note between this append's read and its write."""


class StaleNoteError(RuntimeError):
    """A note changed between an agent's read and its write."""


@dataclass(frozen=True)
class AppendOutcome:
    path: str
    appended: bool
    version: int


# The append's statements, with their values bound per call.
_APPENDED = sa_select(MemoryAppend.id).where(
    MemoryAppend.run_id == bindparam("a_run"),
    MemoryAppend.domain_tag == bindparam("a_tag"),
    MemoryAppend.name == bindparam("a_name"),
    MemoryAppend.step == bindparam("a_step"),
)
_NOTE = sa_select(MemoryNote.id, MemoryNote.content, MemoryNote.version).where(
    MemoryNote.domain_tag == bindparam("n_tag"), MemoryNote.name == bindparam("n_name")
)
_NEW_NOTE = insert(MemoryNote)
_MOVE_ON = (
    update(MemoryNote)
    .where(MemoryNote.id == bindparam("n_id"), MemoryNote.version == bindparam("n_version"))
    .values(
        content=bindparam("n_content"),
        version=bindparam("n_next"),
        updated_at=bindparam("n_at"),
        updated_by_run=bindparam("n_run"),
    )
)
_NEW_APPEND = insert(MemoryAppend)


class MemoryRepository:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def read(self, tag: str, name: str) -> MemoryNote | None:
        with Session(self._engine) as session:
            return session.exec(
                select(MemoryNote).where(MemoryNote.domain_tag == tag, MemoryNote.name == name)
            ).first()

    def read_tags(self, tags: list[str], limit: int | None = None) -> dict[str, str]:
        """Path -> content for every note of the given tags (missing notes are empty);
        with `limit`, each note as a run reads it (storage/sql/note_view.py)."""
        notes = {memory_path(tag, name): "" for tag in tags for name in NOTE_NAMES}
        query = sa_select(MemoryNote.domain_tag, MemoryNote.name, MemoryNote.content).where(
            col(MemoryNote.domain_tag).in_(tags)
        )
        with self._engine.connect() as conn:
            for tag, name, content in conn.execute(query):
                if (path := memory_path(tag, name)) in notes:
                    notes[path] = content if limit is None else note_view(content, limit)
        return notes

    def list_notes(self, tag: str | None = None) -> list[MemoryNote]:
        with Session(self._engine) as session:
            stmt = select(MemoryNote).order_by(MemoryNote.domain_tag, MemoryNote.name)
            if tag:
                stmt = stmt.where(MemoryNote.domain_tag == tag)
            return list(session.exec(stmt).all())

    def put(
        self, *, tag: str, name: str, content: str, run_id: str | None, expected_version: int
    ) -> int:
        """Replace a note's content if nobody changed it since `expected_version` was read.

        Returns the new version. Writing the content the note already has is a no-op,
        so a retried write is harmless; a note that moved on raises StaleNoteError
        instead of silently dropping another run's update.
        """
        with Session(self._engine) as session:
            note = session.exec(
                select(MemoryNote).where(MemoryNote.domain_tag == tag, MemoryNote.name == name)
            ).first()
            if note is not None and note.content == content:
                return note.version
            current = note.version if note is not None else 0
            if current != expected_version:
                raise StaleNoteError(
                    f"{memory_path(tag, name)} changed since it was read "
                    f"(version {expected_version} -> {current}); read it again"
                )
            try:
                if note is None:
                    session.add(
                        MemoryNote(
                            domain_tag=tag,
                            name=name,
                            content=content,
                            version=1,
                            updated_by_run=run_id,
                        )
                    )
                    session.commit()
                    return 1
                result = session.execute(
                    update(MemoryNote)
                    .where(MemoryNote.id == note.id, MemoryNote.version == current)
                    .values(
                        content=content,
                        version=current + 1,
                        updated_at=utcnow(),
                        updated_by_run=run_id,
                    )
                )
                if result.rowcount != 1:
                    raise StaleNoteError(f"{memory_path(tag, name)} changed while writing")
                session.commit()
                return current + 1
            except IntegrityError as exc:
                raise StaleNoteError(f"{memory_path(tag, name)} was created meanwhile") from exc

    def append(
        self, *, run_id: str, step: str, tag: str, name: str, lines: list[str]
    ) -> AppendOutcome:
        """Append lines once per (run, note, step); retries and races are safe.

        The ledger row and the note update commit together, so a retried
        activity finds the ledger row and appends nothing. Concurrent runs
        update with a version check and retry, so neither loses its lines.
        """
        path = memory_path(tag, name)
        text = "\n".join(f"- {line.strip()}" for line in lines if line.strip())
        section = f"\n{RUN_HEADING}{run_id} ({step})\n{text}\n"
        ledger = {"a_run": run_id, "a_tag": tag, "a_name": name, "a_step": step}
        # Plain statements built once (module level), not an ORM session: every run appends
        # several times, and the rows are never needed as objects here.
        for _ in range(20):
            try:
                with self._engine.begin() as conn:
                    done = conn.execute(_APPENDED, ledger).first()
                    note = conn.execute(_NOTE, {"n_tag": tag, "n_name": name}).first()
                    if done is not None:
                        return AppendOutcome(path, False, note.version if note else 0)
                    now = utcnow()
                    if note is None:
                        header = f"# {NOTE_TITLES.get(name, name)} - {tag}\n"
                        conn.execute(
                            _NEW_NOTE,
                            {"domain_tag": tag, "name": name, "content": header + section,
                             "version": 1, "updated_at": now, "updated_by_run": run_id},
                        )  # fmt: skip
                        version = 1
                    else:
                        version = note.version + 1
                        result = conn.execute(
                            _MOVE_ON,
                            {"n_id": note.id, "n_version": note.version,
                             "n_content": note.content + section, "n_next": version,
                             "n_at": now, "n_run": run_id},
                        )  # fmt: skip
                        if result.rowcount != 1:
                            raise _Overtaken
                    conn.execute(
                        _NEW_APPEND,
                        {"run_id": run_id, "domain_tag": tag, "name": name, "step": step,
                         "created_at": now},
                    )  # fmt: skip
                return AppendOutcome(path, True, version)
            except (IntegrityError, _Overtaken):
                # Another writer created the note or the ledger row, or moved the note on,
                # first: everything of this attempt is rolled back; look again.
                continue
        raise RuntimeError(f"could not append to {path}: too much contention")
