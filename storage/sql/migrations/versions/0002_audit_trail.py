"""The audit trail: every audit event has a kind, an idempotency key and a detail.

Columns and the index are added only when missing, so a database that `create_all`
made with the current tables (before migrations existed) is adopted as it is.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    text = sqlmodel.sql.sqltypes.AutoString
    inspector = sa.inspect(op.get_bind())
    present = {c["name"] for c in inspector.get_columns("auditevent")}
    indexes = {i["name"] for i in inspector.get_indexes("auditevent")}
    with op.batch_alter_table("auditevent") as batch:
        if "kind" not in present:
            batch.add_column(sa.Column("kind", text(), nullable=False, server_default="tool"))
        if "event_key" not in present:
            batch.add_column(sa.Column("event_key", text(), nullable=True))
        if "detail" not in present:
            batch.add_column(sa.Column("detail", text(), nullable=True))
    if "ix_auditevent_kind" not in indexes:
        op.create_index("ix_auditevent_kind", "auditevent", ["kind"])
    if "ux_auditevent_run_key" not in indexes:
        op.create_index("ux_auditevent_run_key", "auditevent", ["run_id", "event_key"], unique=True)


def downgrade() -> None:
    raise NotImplementedError("upgrades only: restore a backup to go back")
