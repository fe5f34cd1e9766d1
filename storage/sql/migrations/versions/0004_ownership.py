"""Ownership: each blob's runs and principals, and each research task's principal.

`blobowner` names the runs that wrote a blob and whom they acted for, so a blob is read
only by who may read one of those runs. `researchrun.principal` keeps a research task
reused only by its own principal's runs.

What the old rows say is carried over: a research task's principal is the one its run's
tool calls were audited under (the task id is the run id), and its evidence blob is owned
by that run. A tool answer's overflow blob written before this revision names no run, so
it stays readable by reviewers and admins only.

Created only when missing, so a database that `create_all` made with the current tables
is adopted as it is.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

# The principal of a research task's run, as its audited tool calls recorded it (a
# decision's principal is the reviewer, not the run's owner).
_AUDITED_PRINCIPAL = """
UPDATE researchrun SET principal = (
    SELECT MIN(auditevent.principal) FROM auditevent
    WHERE auditevent.run_id = researchrun.task_id AND auditevent.kind = 'tool'
      AND auditevent.principal IS NOT NULL
) WHERE principal IS NULL
"""

# A research task's evidence blob belongs to the task's run.
_EVIDENCE_OWNERS = """
INSERT INTO blobowner (sha256, run_id, principal, created_at)
SELECT researchrun.evidence_ref, researchrun.task_id, researchrun.principal,
       researchrun.created_at
FROM researchrun JOIN blob ON blob.sha256 = researchrun.evidence_ref
WHERE NOT EXISTS (
    SELECT 1 FROM blobowner
    WHERE blobowner.sha256 = researchrun.evidence_ref AND blobowner.run_id = researchrun.task_id
)
"""


def upgrade() -> None:
    text = sqlmodel.sql.sqltypes.AutoString
    inspector = sa.inspect(op.get_bind())
    if "blobowner" not in inspector.get_table_names():
        op.create_table(
            "blobowner",
            sa.Column("sha256", text(length=64), primary_key=True),
            sa.Column("run_id", text(), primary_key=True),
            sa.Column("principal", text(), nullable=True),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        )
        op.create_index("ix_blobowner_principal", "blobowner", ["principal"])
    if "principal" not in {c["name"] for c in inspector.get_columns("researchrun")}:
        with op.batch_alter_table("researchrun") as batch:
            batch.add_column(sa.Column("principal", text(), nullable=True))
        op.create_index("ix_researchrun_principal", "researchrun", ["principal"])
    op.execute(_AUDITED_PRINCIPAL)
    op.execute(_EVIDENCE_OWNERS)


def downgrade() -> None:
    raise NotImplementedError("upgrades only: restore a backup to go back")
