"""SQL tables (SQLModel). One table a concept; no business rules here."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Index
from sqlmodel import Field, SQLModel, UniqueConstraint


def utcnow() -> datetime:
    return datetime.now(UTC)


class MemoryNote(SQLModel, table=True):
    """The head of a long-term memory note (e.g. /memories/knowledge/supply_chain/
    discovery-notes.md): its title and what people wrote above its first run section.

    `version` counts the head's edits (optimistic: an edit names the version it read); the
    run sections are `MemorySection` rows, so an append changes no row here. A note a run
    started has no head row until someone edits it (its head is then its title). The head
    is kept in the column `content`, which held the whole note before revision 0005 (a
    migration does not rename what a previous release's processes still read).
    """

    __table_args__ = (UniqueConstraint("domain_tag", "name"),)

    id: int | None = Field(default=None, primary_key=True)
    domain_tag: str = Field(index=True, max_length=64)
    name: str = Field(max_length=64)
    head: str = Field(default="", sa_column_kwargs={"name": "content"})
    version: int = 0
    updated_at: datetime = Field(default_factory=utcnow)
    updated_by_run: str | None = None


class MemorySection(SQLModel, table=True):
    """One run section of a memory note, its text as it stands in the note
    (`\\n## Run <run> (<step>)\\n- line...`). Written once per (run, note, step): the unique
    key makes a retried append insert nothing. Sections carried over from a note's text by
    revision 0005 whose heading named no run, or a (run, step) already taken, have no key.
    The note is its head and its sections in `id` order; `ix_memorysection_note` reads
    the latest ones."""

    __table_args__ = (
        UniqueConstraint("domain_tag", "name", "run_id", "step"),
        Index("ix_memorysection_note", "domain_tag", "name", "id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    domain_tag: str = Field(max_length=64)
    name: str = Field(max_length=64)
    run_id: str | None = None
    step: str | None = None
    content: str
    created_at: datetime = Field(default_factory=utcnow)


class MemoryAppend(SQLModel, table=True):
    """The append ledger of releases before revision 0005 (one row per (run, note, step)
    they appended), left for their processes during an upgrade; nothing writes it now:
    a `MemorySection`'s own key makes an append idempotent."""

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
