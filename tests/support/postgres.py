"""The local Postgres the tests use when it answers (CI has one on 127.0.0.1:5432)."""

from __future__ import annotations

import socket
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

POSTGRES_ADDRESS = ("127.0.0.1", 5432)
POSTGRES_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def postgres_answers() -> bool:
    """Whether Postgres accepts connections here and the psycopg driver is installed."""
    try:
        with socket.create_connection(POSTGRES_ADDRESS, timeout=0.5):
            pass
    except OSError:
        return False
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return False
    return True


@contextmanager
def fresh_postgres_database(prefix: str = "km_test") -> Iterator[str]:
    """A new, empty database on the local Postgres for one test; dropped afterwards."""
    from sqlalchemy import create_engine, text

    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    admin = create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        try:
            yield POSTGRES_URL.rsplit("/", 1)[0] + f"/{name}"
        finally:
            with admin.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


@contextmanager
def own_database_url(kind: str, directory: Path, prefix: str = "km_test") -> Iterator[str]:
    """The URL of an empty database of the test's own: a SQLite file in `directory`, or
    (`kind` "postgres") a new Postgres database named from `prefix`, the test skipped
    when none answers."""
    if kind == "sqlite":
        yield f"sqlite:///{directory / 'kminer.db'}"
        return
    import pytest

    if not postgres_answers():
        pytest.skip("Postgres is not answering on 127.0.0.1:5432 (or psycopg missing)")
    with fresh_postgres_database(prefix) as url:
        yield url


def engine_per_backend() -> Any:
    """A pytest fixture `engine`: a database of the test's own at head, a SQLite file or
    a new Postgres database. A module takes it as `engine = engine_per_backend()`."""
    import pytest

    from storage.sql.db import make_engine

    @pytest.fixture(params=["sqlite", "postgres"], name="engine")
    def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
        with own_database_url(request.param, tmp_path) as url:
            eng = make_engine(url)
            yield eng
            eng.dispose()

    return engine
