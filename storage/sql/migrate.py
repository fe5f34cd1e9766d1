"""Schema migrations (Alembic, `storage/sql/migrations/`): upgrade to head, read the revision.

Every process that opens the database (`kminer up`, `kminer api`, `kminer worker`,
`kminer db upgrade`) upgrades it first; many starting at once take turns (a Postgres
advisory lock, a file lock beside a SQLite file), so each revision runs once. A SQLite
file that exists but is empty, not a database or damaged is refused (`UnusableDatabase`)
and left as it is, never made afresh; a missing one is created.
"""

from __future__ import annotations

import contextlib
import fcntl
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DatabaseError, OperationalError

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


class UnusableDatabase(Exception):
    """The configured database exists but cannot be used as it is (an empty or corrupt
    SQLite file): refused in one line, never replaced by a fresh one."""


def _not_usable(path: Path, reason: str) -> UnusableDatabase:
    found = " ".join(reason.split())  # a quick_check report spans lines; the error is one
    return UnusableDatabase(
        f"{path} is not a usable SQLite database ({found}): restore it from a backup, "
        "or move it aside to start with an empty one"
    )


def _sqlite_file(engine: Engine) -> Path | None:
    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:":
        return None
    return None if database.startswith("file:") else Path(database)


def refuse_empty_file(engine: Engine) -> None:
    """A zero-byte SQLite file is not a new database: SQLite would open it as one and the
    schema would be made afresh over what the file held (notes, audit trail, ledgers).
    A missing file is created; an existing one must hold a database."""
    path = _sqlite_file(engine)
    if path is not None and path.is_file() and path.stat().st_size == 0:
        raise UnusableDatabase(
            f"{path} is empty (0 bytes), not a Knowledge Miner database: restore it from a "
            "backup, or remove it to start with an empty one"
        )


@contextlib.contextmanager
def _readable(engine: Engine) -> Iterator[None]:
    """A SQLite file that is not a database (or is damaged) as one line, not a trace."""
    try:
        yield
    except DatabaseError as exc:
        path = _sqlite_file(engine)
        if path is None or isinstance(exc, OperationalError):
            raise
        raise _not_usable(path, str(exc.orig if exc.orig is not None else exc)) from None


def refuse_damaged_file(engine: Engine) -> None:
    """SQLite's own quick check (every page read once, linear in the file's size), on a
    read-only connection so a refused file is left byte for byte as it was: a file whose
    header is sound but whose tables are damaged would otherwise start, and fail or lose
    rows only when a damaged page is first read."""
    path = _sqlite_file(engine)
    if path is None or not path.is_file():
        return
    try:
        uri = f"{path.resolve().as_uri()}?mode=ro"
        with contextlib.closing(sqlite3.connect(uri, uri=True)) as db:
            verdict = str(db.execute("PRAGMA quick_check(1)").fetchone()[0])
    except sqlite3.OperationalError:
        return  # not openable read-only here (locked, no access): the engine's open will say
    except sqlite3.DatabaseError as exc:
        verdict = str(exc)
    if verdict != "ok":
        raise _not_usable(path, verdict)


def current_revision(engine: Engine) -> str | None:
    """The database's revision; None for an empty database or one made before migrations."""
    refuse_empty_file(engine)
    with _readable(engine), engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


@contextlib.contextmanager
def _sqlite_file_lock(engine: Engine) -> Iterator[None]:
    database = _sqlite_file(engine)
    if database is None:
        yield
        return
    lock_path = database.with_name(database.name + ".migrate.lock")
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
            refuse_empty_file(engine)
            refuse_damaged_file(engine)
            return _upgrade(engine)
    return _upgrade(engine)


def _upgrade(engine: Engine) -> tuple[str | None, str]:
    before = current_revision(engine)
    head = head_revision()
    if before != head:
        with _readable(engine), engine.begin() as conn:
            command.upgrade(_config(conn), "head")
    after = current_revision(engine)
    assert after is not None
    return before, after
