"""A SQLite `kminer.db` that exists but holds no database is refused in one line with exit 2
and left as it was; only a missing file is created afresh."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from kminer.config import Settings
from tests.support.processes import kminer


def _database(settings: Settings) -> Path:
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return settings.data_dir / "kminer.db"


def _damaged_database(path: Path) -> None:
    """A real database with notes whose table pages were overwritten: the header still
    says SQLite, the b-tree below it is garbage."""
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE memorynote (id INTEGER PRIMARY KEY, content TEXT)")
        db.executemany(
            "INSERT INTO memorynote (content) VALUES (?)", [("x" * 500,) for _ in range(200)]
        )
    db.close()
    with path.open("r+b") as raw:
        raw.seek(4096)  # page 2 on: the schema page (page 1) still names the table
        raw.write(b"\xff" * 4096 * 4)


def _one_line(stderr: str) -> str:
    assert "Traceback" not in stderr, stderr
    lines = [line for line in stderr.splitlines() if line.startswith("kminer:")]
    assert len(lines) == 1, stderr
    return lines[0]


def test_an_empty_file_is_refused_by_every_command_and_left_empty(settings: Settings) -> None:
    path = _database(settings)
    path.touch()
    for command in (("up", "--port", "0"), ("worker",), ("db", "upgrade"), ("db", "current")):
        done = kminer(settings, *command, timeout=120)
        assert done.returncode == 2, (command, done.stderr[-2000:])
        line = _one_line(done.stderr)
        assert f"{path} is empty (0 bytes)" in line and "restore it from a backup" in line
        assert path.stat().st_size == 0, f"kminer {' '.join(command)} wrote over the file"


@pytest.mark.parametrize("damage", ["not a database", "damaged pages"])
def test_a_corrupt_file_is_refused_and_left_as_it_was(settings: Settings, damage: str) -> None:
    path = _database(settings)
    if damage == "not a database":
        path.write_bytes(b"these are the user's notes, not SQLite\n" * 200)
    else:
        _damaged_database(path)
    before = path.read_bytes()
    for command in (("up", "--port", "0"), ("db", "upgrade")):
        done = kminer(settings, *command, timeout=120)
        assert done.returncode == 2, (command, done.stderr[-2000:])
        line = _one_line(done.stderr)
        assert f"{path} is not a usable SQLite database" in line
        assert path.read_bytes() == before


def test_a_missing_file_is_created_at_the_current_schema(settings: Settings) -> None:
    path = _database(settings)
    assert not path.exists()
    done = kminer(settings, "db", "upgrade", timeout=120)
    assert done.returncode == 0, done.stderr
    assert "upgraded empty ->" in done.stdout
    with sqlite3.connect(path) as db:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    assert {"memorynote", "auditevent", "blob", "blobowner", "researchrun"} <= tables
