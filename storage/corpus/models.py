"""The corpus index's schema, answer models and query syntax (no I/O)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel

SCHEMA_VERSION = 2
# Bytes one file may have to be indexed: past it `add` refuses the file with the reason
# (split it into smaller files) and `refresh` leaves a shipped one out. Every pass over a
# document is linear in its size; this bounds how long one `corpus add` of a file takes.
MAX_DOCUMENT_BYTES = 32_000_000
TIERS = ("high", "medium", "low")
_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS documents (
        id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL,
        origin TEXT NOT NULL CHECK (origin IN ('shipped', 'added')),
        mtime_ns INTEGER NOT NULL, size INTEGER NOT NULL, sha256 TEXT NOT NULL,
        url TEXT NOT NULL, title TEXT NOT NULL, published TEXT, content TEXT NOT NULL,
        tier TEXT CHECK (tier IS NULL OR tier IN ('high', 'medium', 'low')),
        added_at TEXT NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS documents_sha256 ON documents (sha256)",
    "CREATE INDEX IF NOT EXISTS documents_url ON documents (url)",
    """CREATE TABLE IF NOT EXISTS passages (
        id INTEGER PRIMARY KEY, document_id INTEGER NOT NULL REFERENCES documents (id),
        ordinal INTEGER NOT NULL, start INTEGER NOT NULL, "end" INTEGER NOT NULL,
        text TEXT NOT NULL, UNIQUE (document_id, ordinal)
    )""",
    """CREATE VIRTUAL TABLE IF NOT EXISTS passages_fts USING fts5(
        title, text, tokenize = 'unicode61 remove_diacritics 2'
    )""",
)
_STOPWORDS = frozenset(
    """a an and are as at be by for from has have how in is it its of on or that the this to
    was were what when where which who why will with about into over than then there their
    these those does do did not no any all can could should would may might""".split()
)
# Titles matter more than body text for "which document is about X".
_TITLE_WEIGHT, _BODY_WEIGHT = 3.0, 1.0
_MAX_TERMS = 32
_PASSAGE_ID = re.compile(r"^([0-9a-f]{12}):(\d+)$")
_HIT_COLUMNS = (
    'd.url, d.title, p.text, d.published, d.sha256, p.ordinal, p.start, p."end", d.id, d.tier'
)


class SearchHit(BaseModel):
    url: str
    title: str
    content: str
    score: float
    published: str | None = None
    passageId: str
    start: int
    end: int
    documentId: int
    tier: str | None = None


class DocumentInfo(BaseModel):
    id: int
    path: str
    origin: str
    url: str
    title: str
    published: str | None
    passages: int
    tier: str | None
    size: int


@dataclass
class AddReport:
    added: list[Path] = field(default_factory=list)
    updated: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)
    duplicates: list[tuple[Path, str]] = field(default_factory=list)  # (path, indexed path)
    errors: list[tuple[Path, str]] = field(default_factory=list)  # (path, reason)


@dataclass(frozen=True)
class _PathState:
    """What the index holds for one path and its bytes: new, changed, unchanged or duplicate."""

    kind: str
    doc_id: int | None = None
    origin: str = "added"
    tier: str | None = None
    duplicate_of: str | None = None


def too_large(size: int) -> str | None:
    """Why a file of `size` bytes is not indexed, or None when it may be."""
    if size <= MAX_DOCUMENT_BYTES:
        return None
    return (
        f"{size / 1e6:.1f} MB, over the {MAX_DOCUMENT_BYTES / 1e6:g} MB a document may have;"
        " split it into smaller files"
    )


def fts_query(text: str) -> str:
    """Free text -> an FTS5 OR-query of quoted word tokens; '' when nothing is left.

    Every token is a double-quoted string, so operators, parentheses, stars or
    quotes typed by a user (or a model) are plain words, never FTS syntax.
    """
    words = [w.lower() for w in re.findall(r"\w+", text)]
    kept = [w for w in dict.fromkeys(words) if w not in _STOPWORDS and len(w) > 1]
    return " OR ".join('"' + w.replace('"', '""') + '"' for w in kept[:_MAX_TERMS])
