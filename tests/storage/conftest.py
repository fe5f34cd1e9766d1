"""What the storage tests share: a database of the test's own, on each backend."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine

from storage.sql.db import make_engine
from tests.support.postgres import own_database_url


@pytest.fixture(params=["sqlite", "postgres"])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """A database of its own at head: a SQLite file, or a new Postgres database (a
    module may define its own `engine` instead)."""
    with own_database_url(request.param, tmp_path) as url:
        eng = make_engine(url)
        yield eng
        eng.dispose()
