"""Schema migrations (Alembic, `storage/sql/migrations/`): upgrade to head, read the revision.

Every process that opens the database (`kminer up`, `kminer api`, `kminer worker`,
`kminer db upgrade`) upgrades it first; many starting at once take turns (a Postgres
advisory lock, a file lock beside a SQLite file), so each revision runs once.
"""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Iterator
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
# Any fixed 64-bit number: the key of the advisory lock that serialises upgrades.
_PG_LOCK_KEY = 0x6B6D696E6572  # "kminer"


def _config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    """The database's revision; None for an empty database or one made before migrations."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


@contextlib.contextmanager
def _sqlite_file_lock(engine: Engine) -> Iterator[None]:
    database = engine.url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        yield
        return
    lock_path = Path(database).with_name(Path(database).name + ".migrate.lock")
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path, "a+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def upgrade(engine: Engine) -> tuple[str | None, str]:
    """Bring the database to head; returns (revision before, revision after)."""
    if engine.dialect.name == "postgresql":
        with engine.connect() as lock_conn:
            lock_conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": _PG_LOCK_KEY})
            try:
                return _upgrade(engine)
            finally:
                lock_conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": _PG_LOCK_KEY})
                lock_conn.commit()
    if engine.dialect.name == "sqlite":
        with _sqlite_file_lock(engine):
            return _upgrade(engine)
    return _upgrade(engine)


def _upgrade(engine: Engine) -> tuple[str | None, str]:
    before = current_revision(engine)
    head = head_revision()
    if before != head:
        with engine.begin() as conn:
            command.upgrade(_config(conn), "head")
    after = current_revision(engine)
    assert after is not None
    return before, after
