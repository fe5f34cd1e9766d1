"""A run's view of memory notes read from the rows: each note's head and only as many of
its latest run sections as the view can show (storage/sql/note_view.py), however many
the note holds.

Every read of a note's latest (or first) sections is a range of `ix_memorysection_note`'s
key (domain_tag, name, id), ordered by that whole key. Written as `domain_tag = ... AND
name = ... ORDER BY id LIMIT n`, PostgreSQL may instead walk the primary key back from
the newest row of any note, filtering, which passes every row written since this note's
last one; the range and its order leave the note's index as the only plan, in SQLite
too. The one read that is not bounded by the view is the count of a long note's sections
(for the line saying how many are left out): it reads the note's index entries only
(about 1 ms for 10,000 sections in SQLite, a few in PostgreSQL), never their rows.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    BigInteger,
    ColumnElement,
    Connection,
    Integer,
    String,
    bindparam,
    func,
    select,
    tuple_,
)
from sqlalchemy.orm import aliased

from contracts.run import NOTE_NAMES, memory_path
from storage.sql.note_view import default_head, latest_view, note_view, split_sections
from storage.sql.tables import MemoryNote, MemorySection

# Latest sections read at first (16 of ~550 characters fill the default 8,000), four
# times as many each time more are needed.
FIRST_BATCH = 16
_ABOVE_EVERY_ID = 2**62


def _in_note(table: type[MemorySection], below: str) -> ColumnElement[bool]:
    """The rows of the note `:tag`/`:name` with an id under `:<below>`, as a range of
    (domain_tag, name, id)."""
    key = tuple_(table.domain_tag, table.name, table.id)
    tag, name = bindparam("tag", type_=String), bindparam("name", type_=String)
    return (key > tuple_(tag, name, 0)) & (
        key < tuple_(tag, name, bindparam(below, type_=BigInteger))
    )


def _index_order(table: type[MemorySection], newest_first: bool) -> list[ColumnElement[Any]]:
    columns = [table.domain_tag, table.name, table.id]
    return [c.desc() if newest_first else c.asc() for c in columns]  # type: ignore[attr-defined]


# The statements, built once with their values bound per call.
_HEADS = select(MemoryNote.domain_tag, MemoryNote.name, MemoryNote.head).where(
    MemoryNote.domain_tag.in_(bindparam("tags", expanding=True))  # type: ignore[attr-defined]
)
# Up to :count sections with an id under :below, newest first: their ids from the note's
# index alone, then their rows by primary key.
_LATEST = (
    select(MemorySection.id, MemorySection.content)
    .where(
        MemorySection.id.in_(  # type: ignore[union-attr]
            select(MemorySection.id)
            .where(_in_note(MemorySection, "below"))
            .order_by(*_index_order(MemorySection, newest_first=True))
            .limit(bindparam("count", type_=Integer))
        )
    )
    .order_by(MemorySection.id.desc())  # type: ignore[union-attr]
)
_first = aliased(MemorySection)
_opening = aliased(MemorySection)
# How many sections have an id up to :through, and the first character of the first.
_COUNT = select(
    func.count(),
    select(func.substr(_opening.content, 1, 1))
    .where(
        _opening.id
        == select(_first.id)
        .where(_in_note(_first, "every"))
        .order_by(*_index_order(_first, newest_first=False))
        .limit(1)
        .scalar_subquery()
    )
    .scalar_subquery(),
).where(
    MemorySection.domain_tag == bindparam("tag", type_=String),
    MemorySection.name == bindparam("name", type_=String),
    MemorySection.id <= bindparam("through", type_=BigInteger),  # type: ignore[operator]
)


def read_views(conn: Connection, tags: list[str], limit: int) -> dict[str, str]:
    """Path -> the view of every note of `tags` (empty for a note never written)."""
    heads = {(tag, name): head for tag, name, head in conn.execute(_HEADS, {"tags": tags})}
    return {
        memory_path(tag, name): _view(conn, tag, name, heads.get((tag, name)), limit)
        for tag in tags
        for name in NOTE_NAMES
    }


def _view(conn: Connection, tag: str, name: str, head: str | None, limit: int) -> str:
    """A note as a run reads it: the same text `note_view` makes of the whole note."""
    latest: list[tuple[int, str]] = []  # newest first
    size, batch, below = 0, FIRST_BATCH, _ABOVE_EVERY_ID
    while True:
        got = [
            (int(row_id), text)
            for row_id, text in conn.execute(
                _LATEST, {"tag": tag, "name": name, "below": below, "count": batch}
            )
        ]
        latest += got
        size += sum(len(text) for _, text in got)
        if len(got) < batch:  # every section is here
            if head is None and not latest:
                return ""
            text = head if head is not None else default_head(tag, name)
            return note_view(text + "".join(t for _, t in reversed(latest)), limit)
        if size > limit + 1:  # more than the view can show, whatever the head
            return _long_view(conn, tag, name, head, latest, limit)
        below, batch = got[-1][0], batch * 4


def _long_view(
    conn: Connection,
    tag: str,
    name: str,
    head: str | None,
    latest: list[tuple[int, str]],
    limit: int,
) -> str:
    """The view of a note whose latest sections (`latest`, newest first) hold more than
    `limit` characters: completed by how many sections there are and the line break (or
    not) that opens the first."""
    total, opens_with = conn.execute(
        _COUNT,
        {"tag": tag, "name": name, "through": latest[0][0], "every": _ABOVE_EVERY_ID},
    ).one()
    _, sections = split_sections("".join(text for _, text in reversed(latest)))
    before_first = (head if head is not None else default_head(tag, name)) + (
        "\n" if opens_with == "\n" else ""
    )
    return latest_view(before_first, sections, int(total), limit)
