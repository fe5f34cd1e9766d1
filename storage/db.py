"""Database engine: SQLite file by default, any SQLAlchemy URL via DATABASE_URL."""

from __future__ import annotations

from sqlalchemy import event, inspect, text
from sqlalchemy.engine import Engine
from sqlmodel import SQLModel, create_engine

from storage import tables  # noqa: F401  (registers the tables on SQLModel.metadata)


def make_engine(url: str) -> Engine:
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
    SQLModel.metadata.create_all(engine)
    add_missing_columns(engine)
    return engine


def add_missing_columns(engine: Engine) -> None:
    """Bring a database made by an older release up to date, keeping its rows.

    `create_all` creates missing tables but never alters existing ones; the
    columns added since are all nullable or defaulted, so ADD COLUMN is enough.
    Missing indexes are created the same way.
    """
    inspector = inspect(engine)
    for table in SQLModel.metadata.sorted_tables:
        present = {c["name"] for c in inspector.get_columns(table.name)}
        missing = [c for c in table.columns if c.name not in present]
        with engine.begin() as conn:
            for column in missing:
                kind = column.type.compile(dialect=engine.dialect)
                default = column.server_default.arg if column.server_default is not None else None
                clause = f" DEFAULT '{default}'" if isinstance(default, str) else ""
                conn.execute(
                    text(f'ALTER TABLE {table.name} ADD COLUMN "{column.name}" {kind}{clause}')
                )
        if missing:
            for index in table.indexes:
                index.create(engine, checkfirst=True)
