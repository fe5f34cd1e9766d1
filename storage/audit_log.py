"""The audit trail: write an event once, read a run's events filtered."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from storage.tables import AuditEvent


def args_hash(args: Any) -> str:
    body = json.dumps(args, sort_keys=True, default=str)
    return hashlib.sha256(body.encode()).hexdigest()[:16]


class AuditLog:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def record(
        self,
        *,
        run_id: str | None,
        kind: str,
        tool: str,
        principal: str | None,
        detail: dict[str, Any],
        event_key: str | None = None,
        result_count: int = 1,
    ) -> bool:
        """Write one event; False if an event with this (run, key) is already there."""
        event = AuditEvent(
            run_id=run_id,
            principal=principal,
            kind=kind,
            event_key=event_key,
            detail=json.dumps(detail, sort_keys=True, default=str),
            tool=tool,
            args_hash=args_hash(detail),
            result_count=result_count,
        )
        with Session(self._engine) as session:
            session.add(event)
            try:
                session.commit()
            except IntegrityError:
                session.rollback()  # a retried activity already wrote this event
                return False
        return True

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
