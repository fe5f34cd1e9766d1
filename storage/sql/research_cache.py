"""The research cache's rows: completed research tasks by thread, newest first."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from storage.sql.tables import Blob, ResearchRun

MAX_CANDIDATES = 200


def aware(moment: datetime) -> datetime:
    """SQLite hands datetimes back naive; every stored time is UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class ResearchCache:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def store(self, row: ResearchRun) -> bool:
        """Insert once per task: a retried store changes nothing. True if inserted."""
        with Session(self._engine) as session:
            if session.get(ResearchRun, row.task_id) is not None:
                return False
            session.add(row)
            try:
                session.commit()
            except IntegrityError:
                session.rollback()  # a concurrent retry stored it first
                return False
        return True

    def recent(self, thread_id: str, since: datetime, embedder: str) -> list[ResearchRun]:
        """Completed tasks of `thread_id` created after `since`, newest first."""
        with Session(self._engine) as session:
            rows = session.exec(
                select(ResearchRun)
                .where(ResearchRun.thread_id == thread_id)
                .where(ResearchRun.status == "COMPLETED")
                .where(ResearchRun.embedder == embedder)
                .where(col(ResearchRun.created_at) >= since)
                .order_by(col(ResearchRun.created_at).desc())
                .limit(MAX_CANDIDATES)
            ).all()
            return [r for r in rows if aware(r.created_at) >= since]

    def evidence(self, ref: str) -> str | None:
        with Session(self._engine) as session:
            blob = session.get(Blob, ref)
            return blob.content if blob is not None else None
