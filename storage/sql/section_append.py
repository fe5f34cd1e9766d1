"""Appending run sections: one INSERT for every append waiting at that moment.

The cost of an append is its commit (an fsync), and SQLite has one writer at a time: 20
runs appending at once, each in a transaction of its own, would wait for up to 19
commits before theirs. So the appends of one process (a worker's activity threads) take
turns as a leader: one that finds no append being written writes its section at once;
those that arrive meanwhile wait, and the next of them writes all the waiting sections in
one `INSERT ... ON CONFLICT DO NOTHING` and one commit. Nothing is read first and no row
is rewritten. A section whose (note, run, step) is already there, a retried activity's,
is skipped by the INSERT and answered with the row that holds it.
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, insert, select, tuple_
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from storage.sql.tables import MemorySection

Key = tuple[str, str, str, str]  # domain_tag, name, run_id, step
_KEY_COLUMNS = (
    MemorySection.domain_tag,
    MemorySection.name,
    MemorySection.run_id,
    MemorySection.step,
)


@dataclass
class _Append:
    row: dict[str, Any]
    done: bool = False
    appended: bool = False
    section: int = 0
    error: BaseException | None = None

    @property
    def key(self) -> Key:
        row = self.row
        return row["domain_tag"], row["name"], row["run_id"], row["step"]


class SectionAppender:
    """The appends of one engine in this process, written in turns (see the module)."""

    def __init__(self, engine: Engine) -> None:
        # Weakly: `appender` keeps one per engine for as long as the engine lives.
        self._engine_ref = weakref.ref(engine)
        self._turn = threading.Condition()
        self._waiting: list[_Append] = []
        self._writing = False
        dialect = {"sqlite": sqlite, "postgresql": postgresql}.get(engine.dialect.name)
        self._insert = (
            dialect.insert(MemorySection)
            .on_conflict_do_nothing()
            .returning(*_KEY_COLUMNS, MemorySection.id)
            if dialect is not None
            else None
        )

    def append(self, row: dict[str, Any]) -> tuple[bool, int]:
        """(whether this call added the section, the id of the row that holds it)."""
        mine = _Append(row)
        with self._turn:
            self._waiting.append(mine)
            while self._writing and not mine.done:
                self._turn.wait()
            if mine.done:
                return self._outcome(mine)
            self._writing = True
            batch, self._waiting = self._waiting, []
        try:
            self._write(batch)
        except BaseException as exc:
            for waiting in batch:
                waiting.error = exc
        finally:
            with self._turn:
                for waiting in batch:
                    waiting.done = True
                self._writing = False
                self._turn.notify_all()
        return self._outcome(mine)

    def _engine(self) -> Engine:
        engine = self._engine_ref()
        if engine is None:  # pragma: no cover - a repository holds its engine while appending
            raise RuntimeError("the engine of these appends is gone")
        return engine

    @staticmethod
    def _outcome(mine: _Append) -> tuple[bool, int]:
        if mine.error is not None:
            raise mine.error
        return mine.appended, mine.section

    def _write(self, batch: list[_Append]) -> None:
        if self._insert is None:  # a database without ON CONFLICT: one at a time
            for waiting in batch:
                self._write_alone(waiting)
            return
        with self._engine().begin() as conn:
            rows = conn.execute(self._insert, [waiting.row for waiting in batch])
            added = {(t, n, r, s): int(i) for t, n, r, s, i in rows}
            held = _held(conn, [w.key for w in batch if w.key not in added])
        for waiting in batch:
            if waiting.key in added:
                waiting.appended, waiting.section = True, added.pop(waiting.key)
                held[waiting.key] = waiting.section  # a second of the same key: not added
            else:
                waiting.section = held[waiting.key]

    def _write_alone(self, waiting: _Append) -> None:
        try:
            with self._engine().begin() as conn:
                inserted = conn.execute(insert(MemorySection), waiting.row).inserted_primary_key
            waiting.appended, waiting.section = True, int(inserted[0])
        except IntegrityError:
            with self._engine().connect() as conn:
                held = _held(conn, [waiting.key])
            if waiting.key not in held:  # not this section's key that stopped the insert
                raise
            waiting.section = held[waiting.key]


def _held(conn: Connection, keys: list[Key]) -> dict[Key, int]:
    """The rows that hold these keys' sections."""
    if not keys:
        return {}
    rows = conn.execute(
        select(*_KEY_COLUMNS, MemorySection.id).where(tuple_(*_KEY_COLUMNS).in_(keys))
    )
    return {(t, n, r, s): int(i) for t, n, r, s, i in rows}


_APPENDERS: weakref.WeakKeyDictionary[Engine, SectionAppender] = weakref.WeakKeyDictionary()
_APPENDERS_LOCK = threading.Lock()


def appender(engine: Engine) -> SectionAppender:
    """The one appender of `engine` in this process (every repository on it shares it)."""
    with _APPENDERS_LOCK:
        found = _APPENDERS.get(engine)
        if found is None:
            found = _APPENDERS[engine] = SectionAppender(engine)
        return found
