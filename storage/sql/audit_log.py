"""The audit trail: write an event once, read a run's events filtered."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from sqlalchemy import insert
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from storage.sql.tables import AuditEvent


def args_hash(args: Any) -> str:
    body = json.dumps(args, sort_keys=True, default=str)
    return hashlib.sha256(body.encode()).hexdigest()[:16]


def _insert(engine: Engine, events: list[AuditEvent]) -> None:
    # A plain INSERT costs the worker a fraction of an ORM session's unit of work (every
    # tool call of every run writes one), and the rows are never read back here.
    with engine.begin() as conn:
        conn.execute(insert(AuditEvent), [e.model_dump(exclude={"id"}) for e in events])


def insert_event(engine: Engine, event: AuditEvent) -> bool:
    """Write one event; False if its (run, key) is already there."""
    try:
        _insert(engine, [event])
    except IntegrityError:
        return False  # a retried activity already wrote this event
    return True


def insert_events(engine: Engine, events: list[AuditEvent]) -> int:
    """Write events in one transaction; how many were new. A retried activity finds some
    already there: then each is written on its own, the ones present skipped."""
    if not events:
        return 0
    try:
        _insert(engine, events)
    except IntegrityError:
        return sum(insert_event(engine, e) for e in events)
    return len(events)


class AuditLog:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def record(self, **fields: Any) -> bool:
        """Write one event (`fields` as `event` takes them); False if an event with this
        (run, key) is already there."""
        return insert_event(self._engine, self.event(**fields))

    def record_many(self, events: list[AuditEvent]) -> int:
        """Write events at once (see `insert_events`); how many were new."""
        return insert_events(self._engine, events)

    @staticmethod
    def event(
        *,
        run_id: str | None,
        kind: str,
        tool: str,
        principal: str | None,
        detail: dict[str, Any],
        event_key: str | None = None,
        result_count: int = 1,
    ) -> AuditEvent:
        """An event as `record` writes it: the detail as sorted JSON, and its hash."""
        return AuditEvent(
            run_id=run_id,
            principal=principal,
            kind=kind,
            event_key=event_key,
            detail=json.dumps(detail, sort_keys=True, default=str),
            tool=tool,
            args_hash=args_hash(detail),
            result_count=result_count,
        )

    def for_run(
        self,
        run_id: str,
        *,
        kind: str | None = None,
        tool: str | None = None,
        principal: str | None = None,
        limit: int = 100,
        after: int = 0,
    ) -> list[AuditEvent]:
        """A run's events oldest first; `after` is the last id already read (paging)."""
        stmt = select(AuditEvent).where(AuditEvent.run_id == run_id, col(AuditEvent.id) > after)
        if kind:
            stmt = stmt.where(AuditEvent.kind == kind)
        if tool:
            stmt = stmt.where(AuditEvent.tool == tool)
        if principal:
            stmt = stmt.where(AuditEvent.principal == principal)
        with Session(self._engine) as session:
            return list(session.exec(stmt.order_by(col(AuditEvent.id)).limit(limit)).all())
