"""The tables of the first release: memory notes, append ledger, publish ledger, audit, blobs.

Databases made before migrations existed (by `create_all`) already hold some or all of
these tables: each is created only when it is missing, so such a database is adopted as
it is and then upgraded like any other.

Revision ID: 0001
Revises:
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _missing(name: str) -> bool:
    return not sa.inspect(op.get_bind()).has_table(name)


def upgrade() -> None:
    text = sqlmodel.sql.sqltypes.AutoString
    if _missing("memorynote"):
        op.create_table(
            "memorynote",
            sa.Column("id", sa.Integer(), primary_key=True),
            sa.Column("domain_tag", text(length=64), nullable=False),
            sa.Column("name", text(length=64), nullable=False),
            sa.Column("content", text(), nullable=False),
            sa.Column("version", sa.Integer(), nullable=False),
            sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("updated_by_run", text(), nullable=True),
            sa.UniqueConstraint("domain_tag", "name"),
        )
        op.create_index("ix_memorynote_domain_tag", "memorynote", ["domain_tag"])
    if _missing("memoryappend"):
        op.create_table(
            "memoryappend",
            sa.Column("id", sa.Integer(), primary_key=True),
            sa.Column("run_id", text(), nullable=False),
            sa.Column("domain_tag", text(), nullable=False),
            sa.Column("name", text(), nullable=False),
            sa.Column("step", text(), nullable=False),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.UniqueConstraint("run_id", "domain_tag", "name", "step"),
        )
        op.create_index("ix_memoryappend_run_id", "memoryappend", ["run_id"])
    if _missing("publishrecord"):
        op.create_table(
            "publishrecord",
            sa.Column("id", sa.Integer(), primary_key=True),
            sa.Column("run_id", text(), nullable=False),
            sa.Column("candidate_id", text(), nullable=False),
            sa.Column("ual", text(), nullable=False),
            sa.Column("content_hash", text(), nullable=False),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.UniqueConstraint("run_id", "candidate_id"),
        )
        op.create_index("ix_publishrecord_run_id", "publishrecord", ["run_id"])
    if _missing("auditevent"):
        op.create_table(
            "auditevent",
            sa.Column("id", sa.Integer(), primary_key=True),
            sa.Column("run_id", text(), nullable=True),
            sa.Column("principal", text(), nullable=True),
            sa.Column("tool", text(), nullable=False),
            sa.Column("args_hash", text(), nullable=False),
            sa.Column("result_count", sa.Integer(), nullable=False),
            sa.Column("elapsed_ms", sa.Integer(), nullable=False),
            sa.Column("success", sa.Boolean(), nullable=False),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        )
        op.create_index("ix_auditevent_run_id", "auditevent", ["run_id"])
        op.create_index("ix_auditevent_tool", "auditevent", ["tool"])
    if _missing("blob"):
        op.create_table(
            "blob",
            sa.Column("sha256", text(length=64), primary_key=True),
            sa.Column("content", text(), nullable=False),
            sa.Column("size", sa.Integer(), nullable=False),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        )


def downgrade() -> None:
    raise NotImplementedError("upgrades only: restore a backup to go back")
