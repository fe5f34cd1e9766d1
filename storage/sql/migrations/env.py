"""Alembic environment: runs on the connection `storage.sql.migrate` hands over (no alembic.ini)."""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

from storage.sql import tables  # noqa: F401  (registers the tables on SQLModel.metadata)

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only `storage.sql.migrate` drives these migrations
    raise RuntimeError("run migrations through storage.sql.migrate (kminer db upgrade)")
context.configure(
    connection=connection,
    target_metadata=SQLModel.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
