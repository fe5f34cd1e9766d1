"""Large bodies kept out of workflow history, and who may read them.

A body is stored once by its SHA-256; each run that writes it adds a `BlobOwner` row with
the principal the run acted for. A reader sees a blob only through a run it may see: a
reviewer or admin every run's, anyone else the runs of its own principal.
"""

from __future__ import annotations

import hashlib

from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from storage.sql.tables import Blob, BlobOwner


def blob_digest(content: str) -> str:
    return hashlib.sha256(content.encode()).hexdigest()


class BlobStore:
    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def store(self, content: str, run_id: str | None, principal: str | None) -> str:
        """Keep `content` (written once) owned by `run_id`; returns its SHA-256.

        Idempotent: a retried activity or a concurrent writer of the same body adds
        nothing. A body written outside a run (`run_id` None) has no owner and is read
        by reviewers and admins only.
        """
        digest = blob_digest(content)
        self._insert_once(Blob, (digest,), Blob(sha256=digest, content=content, size=len(content)))
        if run_id is not None:
            owner = BlobOwner(sha256=digest, run_id=run_id, principal=principal)
            self._insert_once(BlobOwner, (digest, run_id), owner)
        return digest

    def _insert_once(self, table: type, key: tuple[str, ...], row: Blob | BlobOwner) -> None:
        with Session(self._engine) as session:
            if session.get(table, key) is not None:
                return
            session.add(row)
            try:
                session.commit()
            except IntegrityError:
                session.rollback()  # a concurrent writer stored the same row first

    def content(self, digest: str) -> str | None:
        """The body, for the worker's own reads (no reader to check)."""
        with Session(self._engine) as session:
            blob = session.get(Blob, digest)
            return blob.content if blob is not None else None

    def readable(self, digest: str, principal: str, sees_every_run: bool) -> Blob | None:
        """The blob if `principal` may see a run that wrote it; None otherwise, so a
        refused reader learns nothing of its existence."""
        with Session(self._engine) as session:
            blob = session.get(Blob, digest)
            if blob is None or sees_every_run:
                return blob
            mine = session.exec(
                select(BlobOwner.run_id)
                .where(BlobOwner.sha256 == digest)
                .where(BlobOwner.principal == principal)
                .limit(1)
            ).first()
            return blob if mine is not None else None
