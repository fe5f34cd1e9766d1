"""Database engine: SQLite file by default, any SQLAlchemy URL via DATABASE_URL."""

from __future__ import annotations

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import create_engine

from storage.sql import tables  # noqa: F401  (registers the tables on SQLModel.metadata)
from storage.sql.migrate import upgrade


def make_engine(url: str, *, migrate: bool = True) -> Engine:
    """An engine for `url`; with `migrate` the schema is first brought to head (Alembic)."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(conn, _record) -> None:  # type: ignore[no-untyped-def]
            # WAL lets the API read while the worker writes.
            cur = conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

    else:
        engine = create_engine(url, pool_pre_ping=True)
    if migrate:
        upgrade(engine)
    return engine
