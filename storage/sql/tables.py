"""SQL tables (SQLModel). One table a concept; no business rules here."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Index
from sqlmodel import Field, SQLModel, UniqueConstraint


def utcnow() -> datetime:
    return datetime.now(UTC)


class MemoryNote(SQLModel, table=True):
    """A long-term memory note, e.g. /memories/knowledge/supply_chain/discovery-notes.md."""

    __table_args__ = (UniqueConstraint("domain_tag", "name"),)

    id: int | None = Field(default=None, primary_key=True)
    domain_tag: str = Field(index=True, max_length=64)
    name: str = Field(max_length=64)
    content: str = ""
    version: int = 0
    updated_at: datetime = Field(default_factory=utcnow)
    updated_by_run: str | None = None


class MemoryAppend(SQLModel, table=True):
    """Ledger that makes an append idempotent per (run, note, step)."""

    __table_args__ = (UniqueConstraint("run_id", "domain_tag", "name", "step"),)

    id: int | None = Field(default=None, primary_key=True)
    run_id: str = Field(index=True)
    domain_tag: str
    name: str
    step: str
    created_at: datetime = Field(default_factory=utcnow)


class PublishRecord(SQLModel, table=True):
    """One row per published candidate: the exactly-once guard across retries."""

    __table_args__ = (UniqueConstraint("run_id", "candidate_id"),)

    id: int | None = Field(default=None, primary_key=True)
    run_id: str = Field(index=True)
    candidate_id: str
    ual: str
    content_hash: str
    created_at: datetime = Field(default_factory=utcnow)


AUDIT_KINDS = ("tool", "decision", "publication", "memory")


class AuditEvent(SQLModel, table=True):
    """Who did what in a run: tool calls, review decisions, publications, memory writes.

    `principal` is the run's owner for tool calls and publications, the reviewer
    for a decision, the admin for a memory edit. `event_key` makes a retried
    activity write its event once (tool calls have none: each attempt is a call).
    """

    __table_args__ = (Index("ux_auditevent_run_key", "run_id", "event_key", unique=True),)

    id: int | None = Field(default=None, primary_key=True)
    run_id: str | None = Field(default=None, index=True)
    principal: str | None = None
    kind: str = Field(default="tool", index=True, sa_column_kwargs={"server_default": "tool"})
    event_key: str | None = None
    detail: str | None = None
    tool: str = Field(index=True)
    args_hash: str
    result_count: int = 0
    elapsed_ms: int = 0
    success: bool = True
    created_at: datetime = Field(default_factory=utcnow)


class Blob(SQLModel, table=True):
    """Content-addressed large bodies kept out of workflow history.

    Who may read one is in `BlobOwner`: the same body can come from runs of different
    principals, so it is stored once and owned by each run that wrote it.
    """

    sha256: str = Field(primary_key=True, max_length=64)
    content: str
    size: int
    created_at: datetime = Field(default_factory=utcnow)


class BlobOwner(SQLModel, table=True):
    """A run that wrote a blob, and the principal that run acted for (None: no principal,
    e.g. a `kminer mine` run, readable by reviewers and admins only)."""

    sha256: str = Field(primary_key=True, max_length=64)
    run_id: str = Field(primary_key=True)
    principal: str | None = Field(default=None, index=True)
    created_at: datetime = Field(default_factory=utcnow)


class ResearchRun(SQLModel, table=True):
    """The research cache (seed 004): one completed research task of a run.

    `embedding` is the question's unit vector (JSON list) from `embedder`; a paraphrase on
    the same thread is compared against it. The gathered evidence is a reference to a
    `Blob` (`evidence_ref`), never copied here. `principal` is whom the task's run acted
    for: a lookup finds only its own principal's tasks unless the cache is shared
    (KM_RESEARCH_CACHE_SHARED).
    """

    task_id: str = Field(primary_key=True, max_length=200)
    thread_id: str = Field(index=True, max_length=1100)
    principal: str | None = Field(default=None, index=True)
    query: str
    embedder: str = Field(max_length=100)
    embedding: str
    status: str = Field(default="COMPLETED", max_length=20)
    plan: str = ""
    evidence_ref: str = Field(max_length=64)
    statement_count: int = 0
    created_at: datetime = Field(default_factory=utcnow, index=True)
    completed_at: datetime | None = None
