"""Long-term memory notes: a head per note and its run sections as rows.

A note (`/memories/knowledge/<tag>/<name>.md`) is its head (`MemoryNote`: the title and
what people wrote above the first run section) followed by its run sections
(`MemorySection`, in the order they were written). A run's append is one INSERT of its
section, keyed by (note, run, step): a retried append finds the key taken and adds
nothing, and concurrent runs never touch the same row, so none retries another and an
append costs the same on a note of 10,000 sections as on a new one. An edit replaces the
head only, against the version it read (`StaleNoteError` otherwise); run sections stay
as runs wrote them (`SectionEditError`). A run reads each note as a bounded view built
from its latest rows (storage/sql/note_rows.py); the API and the agents read it whole.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from contracts.run import NOTE_NAMES, memory_path
from storage.sql.note_rows import read_views
from storage.sql.note_view import RUN_HEADING, default_head, section_text, split_note
from storage.sql.section_append import appender
from storage.sql.tables import MemoryNote, MemorySection, utcnow


class StaleNoteError(RuntimeError):
    """A note's head changed between an agent's read and its write."""


class SectionEditError(ValueError):
    """A write that would change or add a run section: sections stay as runs wrote them."""


@dataclass(frozen=True)
class AppendOutcome:
    path: str
    appended: bool
    section: int  # the id of the row that holds the section


@dataclass(frozen=True)
class Note:
    """A note as it is read: `content` is its head and then every run section."""

    domain_tag: str
    name: str
    head: str
    content: str
    version: int  # the head's: an append leaves it, an edit moves it on
    sections: int
    updated_at: datetime
    updated_by_run: str | None

    @property
    def path(self) -> str:
        return memory_path(self.domain_tag, self.name)


def _same_note(tag: str, name: str) -> list:  # type: ignore[type-arg]
    return [MemorySection.domain_tag == tag, MemorySection.name == name]


class MemoryRepository:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    # -- writes --------------------------------------------------------------------------

    def append(
        self, *, run_id: str, step: str, tag: str, name: str, lines: list[str]
    ) -> AppendOutcome:
        """Append a run section once per (run, note, step): one INSERT (shared with the
        appends waiting at the same moment, storage/sql/section_append.py), no read of
        the note; a retried activity finds its section there and appends nothing."""
        row = {"domain_tag": tag, "name": name, "run_id": run_id, "step": step,
               "content": section_text(run_id, step, lines), "created_at": utcnow()}  # fmt: skip
        appended, section = appender(self._engine).append(row)
        return AppendOutcome(memory_path(tag, name), appended, section)

    def put(
        self, *, tag: str, name: str, content: str, run_id: str | None, expected_version: int
    ) -> int:
        """Replace a note's head if nobody edited it since `expected_version` was read.

        `content` is the new head, or the whole note as read with its head changed: the
        text from its first run heading on may only repeat sections the note holds
        (sections written since the read are kept, as is every section). Returns the
        new version. Writing the head the note already has is a no-op, so a retried write
        is harmless; a head that moved on raises StaleNoteError instead of silently
        dropping another edit.
        """
        path = memory_path(tag, name)
        head, pieces = split_note(content)
        with self._engine.begin() as conn:
            note = conn.execute(
                select(MemoryNote.id, MemoryNote.head.label("head"), MemoryNote.version).where(
                    MemoryNote.domain_tag == tag, MemoryNote.name == name
                )
            ).first()
            if pieces:  # the note as read: each of its sections must be one the note holds
                held = set(
                    conn.execute(select(MemorySection.content).where(*_same_note(tag, name)))
                    .scalars()
                    .all()
                )
                if any(piece not in held for piece in pieces):
                    raise SectionEditError(
                        f"{path}: run sections stay as runs wrote them; edit the text above "
                        f"the first '{RUN_HEADING.strip()} ...' heading"
                    )
            opening = conn.execute(
                select(func.substr(MemorySection.content, 1, 1))
                .where(*_same_note(tag, name))
                .order_by(MemorySection.id)
                .limit(1)
            ).scalar()
            if head and not head.endswith("\n") and opening not in (None, "\n"):
                head += "\n"  # the first heading must stay at the start of a line
            current = note.version if note is not None else 0
            if note is not None and note.head == head:
                return current
            if note is None and opening is not None and head == default_head(tag, name):
                return current
            if current != expected_version:
                raise StaleNoteError(
                    f"{path} changed since it was read "
                    f"(version {expected_version} -> {current}); read it again"
                )
            values = {"head": head, "version": current + 1, "updated_at": utcnow(),
                      "updated_by_run": run_id}  # fmt: skip
            try:
                if note is None:
                    conn.execute(insert(MemoryNote).values(domain_tag=tag, name=name, **values))
                    return 1
                moved = conn.execute(
                    update(MemoryNote)
                    .where(MemoryNote.id == note.id, MemoryNote.version == current)
                    .values(**values)
                )
            except IntegrityError as exc:
                raise StaleNoteError(f"{path} was created meanwhile") from exc
            if moved.rowcount != 1:
                raise StaleNoteError(f"{path} changed while writing")
            return current + 1

    # -- reads ---------------------------------------------------------------------------

    def read(self, tag: str, name: str) -> Note | None:
        """The whole note, or None if nothing was written to it."""
        return self._whole([tag], name).get((tag, name))

    def list_notes(self, tag: str | None = None) -> list[Note]:
        """Every note (of `tag`), whole, by tag and name."""
        return [note for _, note in sorted(self._whole(None if tag is None else [tag]).items())]

    def read_tags(self, tags: list[str], limit: int | None = None) -> dict[str, str]:
        """Path -> content for every note of the given tags (missing notes are empty);
        with `limit`, each note as a run reads it (storage/sql/note_view.py), read from its
        head and its latest sections only."""
        if limit is None:
            whole = {n.path: n.content for n in self._whole(tags).values()}
            return {memory_path(t, n): whole.get(memory_path(t, n), "")
                    for t in tags for n in NOTE_NAMES}  # fmt: skip
        with self._engine.connect() as conn:
            return read_views(conn, tags, limit)

    def _whole(
        self, tags: list[str] | None, name: str | None = None
    ) -> dict[tuple[str, str], Note]:
        """Whole notes of `tags` (None: of every tag), only those called `name` if given."""
        heads = select(
            MemoryNote.domain_tag, MemoryNote.name, MemoryNote.head, MemoryNote.version,
            MemoryNote.updated_at, MemoryNote.updated_by_run,
        )  # fmt: skip
        rows = select(MemorySection.domain_tag, MemorySection.name, MemorySection.content,
                      MemorySection.created_at, MemorySection.run_id)  # fmt: skip
        if tags is not None:
            heads = heads.where(MemoryNote.domain_tag.in_(tags))  # type: ignore[attr-defined]
            rows = rows.where(MemorySection.domain_tag.in_(tags))  # type: ignore[union-attr]
        if name is not None:
            heads = heads.where(MemoryNote.name == name)
            rows = rows.where(MemorySection.name == name)
        rows = rows.order_by(MemorySection.domain_tag, MemorySection.name, MemorySection.id)
        with self._engine.connect() as conn:
            found = {(t, n): (h, v, at, by) for t, n, h, v, at, by in conn.execute(heads)}
            sections: dict[tuple[str, str], list[tuple[str, datetime, str | None]]] = {}
            for t, n, text, at, by in conn.execute(rows):
                sections.setdefault((t, n), []).append((text, at, by))
        return {key: _note(key, found.get(key), sections.get(key, []))
                for key in found.keys() | sections.keys()}  # fmt: skip


def _note(
    key: tuple[str, str],
    head: tuple[str, int, datetime, str | None] | None,
    sections: list[tuple[str, datetime, str | None]],
) -> Note:
    tag, name = key
    text, version, at, by = head if head is not None else (default_head(tag, name), 0, None, None)
    if sections and (at is None or sections[-1][1] > at):
        at, by = sections[-1][1], sections[-1][2]
    assert at is not None  # a note has a head row or a section
    return Note(tag, name, text, text + "".join(s for s, _, _ in sections), version,
                len(sections), at, by)  # fmt: skip
