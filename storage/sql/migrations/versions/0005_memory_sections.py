"""Memory run sections as rows: a note's run sections move out of its text into
`memorysection`, one row each, and `memorynote.content` keeps the note's head. A
section's own key (note, run, step) now makes an append idempotent; the append ledger
`memoryappend` is left as it is, unwritten (a migration adds: it neither drops nor
renames what processes of the previous release still use while they are replaced).

Nothing is lost: each note's text is cut just before the line break that precedes each
`## Run ` heading (at the very start of the text, at the heading), so its head and its
sections, in order, join back to the text it had, character for character. A section
whose heading reads `## Run <run> (<step>)` keeps that (run, step) as its key, so a run's
retried append after the upgrade appends nothing; one whose heading names no run, or a
(run, step) an earlier section of the note already has, is kept without a key. A section
takes its time from the ledger row of its (run, step), else the note's last update.

A database that `create_all` made with the current tables is adopted as it is.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

# A run section's heading at the start of a line, as memory notes have always written it.
_HEADING = re.compile(r"^## Run ", re.MULTILINE)

_notes = sa.table(
    "memorynote",
    sa.column("id", sa.Integer()),
    sa.column("domain_tag", sa.String()),
    sa.column("name", sa.String()),
    sa.column("content", sa.Text()),
    sa.column("updated_at", sa.DateTime(timezone=True)),
)
_ledger = sa.table(
    "memoryappend",
    sa.column("run_id", sa.String()),
    sa.column("domain_tag", sa.String()),
    sa.column("name", sa.String()),
    sa.column("step", sa.String()),
    sa.column("created_at", sa.DateTime(timezone=True)),
)
_sections = sa.table(
    "memorysection",
    sa.column("domain_tag", sa.String()),
    sa.column("name", sa.String()),
    sa.column("run_id", sa.String()),
    sa.column("step", sa.String()),
    sa.column("content", sa.Text()),
    sa.column("created_at", sa.DateTime(timezone=True)),
)


def cut(text: str) -> tuple[str, list[str]]:
    """A note's text as its head and its run sections, each section beginning with the
    line break before its heading (none for a heading at the very start)."""
    bounds = [m.start() - 1 if m.start() > 0 else 0 for m in _HEADING.finditer(text)]
    if not bounds:
        return text, []
    ends = [*bounds[1:], len(text)]
    return text[: bounds[0]], [text[a:b] for a, b in zip(bounds, ends, strict=True)]


def key(section: str) -> tuple[str, str] | None:
    """(run, step) from a section's heading `## Run <run> (<step>)`, if it reads so."""
    heading = section.lstrip("\n").split("\n", 1)[0]
    match = re.fullmatch(r"## Run (.+) \(([^()]*)\)", heading.rstrip())
    return (match.group(1), match.group(2)) if match else None


def _create_sections_table() -> None:
    text = sqlmodel.sql.sqltypes.AutoString
    op.create_table(
        "memorysection",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("domain_tag", text(length=64), nullable=False),
        sa.Column("name", text(length=64), nullable=False),
        sa.Column("run_id", text(), nullable=True),
        sa.Column("step", text(), nullable=True),
        sa.Column("content", text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("domain_tag", "name", "run_id", "step"),
    )
    op.create_index("ix_memorysection_note", "memorysection", ["domain_tag", "name", "id"])


def _ledger_times(conn: sa.Connection, has_ledger: bool) -> dict[tuple[str, ...], datetime]:
    if not has_ledger:
        return {}
    rows = conn.execute(
        sa.select(_ledger.c.domain_tag, _ledger.c.name, _ledger.c.run_id, _ledger.c.step,
                  _ledger.c.created_at)
    )  # fmt: skip
    return {(tag, name, run, step): at for tag, name, run, step, at in rows}


def _move_sections(conn: sa.Connection, has_ledger: bool) -> None:
    """Every note's sections into rows, its head left in `content`."""
    times = _ledger_times(conn, has_ledger)
    ids = [row[0] for row in conn.execute(sa.select(_notes.c.id).order_by(_notes.c.id))]
    for note_id in ids:
        tag, name, content, updated_at = conn.execute(
            sa.select(
                _notes.c.domain_tag, _notes.c.name, _notes.c.content, _notes.c.updated_at
            ).where(_notes.c.id == note_id)
        ).one()
        head, sections = cut(content or "")
        if not sections:
            continue
        taken: set[tuple[str, str]] = set()
        rows: list[dict[str, Any]] = []
        for section in sections:
            found = key(section)
            if found in taken:
                found = None
            if found is not None:
                taken.add(found)
            run, step = found if found is not None else (None, None)
            rows.append({
                "domain_tag": tag, "name": name, "run_id": run, "step": step,
                "content": section, "created_at": times.get((tag, name, run, step), updated_at),
            })  # fmt: skip
        conn.execute(sa.insert(_sections), rows)
        conn.execute(sa.update(_notes).where(_notes.c.id == note_id).values(content=head))


def upgrade() -> None:
    conn = op.get_bind()
    tables = set(sa.inspect(conn).get_table_names())
    if "memorysection" in tables:
        return  # made by create_all with the current tables
    _create_sections_table()
    _move_sections(conn, "memoryappend" in tables)


def downgrade() -> None:
    raise NotImplementedError("upgrades only: restore a backup to go back")
