"""The research cache's rows: completed research tasks by thread, newest first.

A task is reused only by runs of the principal whose run made it: one miner's evidence
(and run id) never shows in another's workspace. An operator may share the cache among
every principal (`shared`, from KM_RESEARCH_CACHE_SHARED).
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from storage.sql.blobs import BlobStore
from storage.sql.tables import ResearchRun

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

    def recent(
        self,
        thread_id: str,
        since: datetime,
        embedder: str,
        principal: str | None,
        shared: bool = False,
    ) -> list[ResearchRun]:
        """Completed tasks of `thread_id` created after `since`, newest first: those of
        runs acting for `principal` (None: runs started without one), or every
        principal's when the cache is `shared`."""
        query = (
            select(ResearchRun)
            .where(ResearchRun.thread_id == thread_id)
            .where(ResearchRun.status == "COMPLETED")
            .where(ResearchRun.embedder == embedder)
            .where(col(ResearchRun.created_at) >= since)
        )
        if not shared:
            owner = col(ResearchRun.principal)
            query = query.where(owner.is_(None) if principal is None else owner == principal)
        with Session(self._engine) as session:
            rows = session.exec(
                query.order_by(col(ResearchRun.created_at).desc()).limit(MAX_CANDIDATES)
            ).all()
            return [r for r in rows if aware(r.created_at) >= since]

    def evidence(self, ref: str) -> str | None:
        return BlobStore(self._engine).content(ref)
