"""The research cache (seed 004): one row per completed research task.

Created only when missing, so a database that `create_all` made with the current tables
is adopted as it is.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    text = sqlmodel.sql.sqltypes.AutoString
    if "researchrun" in sa.inspect(op.get_bind()).get_table_names():
        return
    op.create_table(
        "researchrun",
        sa.Column("task_id", text(length=200), primary_key=True),
        sa.Column("thread_id", text(length=1100), nullable=False),
        sa.Column("query", text(), nullable=False),
        sa.Column("embedder", text(length=100), nullable=False),
        sa.Column("embedding", text(), nullable=False),
        sa.Column("status", text(length=20), nullable=False),
        sa.Column("plan", text(), nullable=False),
        sa.Column("evidence_ref", text(length=64), nullable=False),
        sa.Column("statement_count", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("completed_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_researchrun_thread_id", "researchrun", ["thread_id"])
    op.create_index("ix_researchrun_created_at", "researchrun", ["created_at"])


def downgrade() -> None:
    raise NotImplementedError("upgrades only: restore a backup to go back")
