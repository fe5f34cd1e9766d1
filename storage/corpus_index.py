"""Local document search: SQLite FTS5 with BM25 over a folder of Markdown files.

The offline stand-in for web search. Each document starts with a `# Title`, a
`Source: <url>` and a `Published: YYYY-MM-DD` line; the rest is the body. The
index is kept in step with the folder by (mtime, size, sha256), so rebuilding
is cheap and idempotent.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel

_SCHEMA = """
CREATE TABLE IF NOT EXISTS documents (
    id INTEGER PRIMARY KEY,
    path TEXT UNIQUE NOT NULL,
    mtime_ns INTEGER NOT NULL,
    size INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    url TEXT NOT NULL,
    title TEXT NOT NULL,
    published TEXT,
    content TEXT NOT NULL
);
CREATE VIRTUAL TABLE IF NOT EXISTS documents_fts USING fts5(
    title, content, tokenize = 'unicode61 remove_diacritics 2'
);
"""
_STOPWORDS = frozenset(
    """a an and are as at be by for from has have how in is it its of on or that the this to
    was were what when where which who why will with about into over than then there their
    these those does do did not no any all can could should would may might""".split()
)
# Titles matter more than body text for "which document is about X".
_TITLE_WEIGHT, _BODY_WEIGHT = 3.0, 1.0
_MAX_TERMS = 32


class SearchHit(BaseModel):
    url: str
    title: str
    content: str
    score: float
    published: str | None = None


@dataclass
class ParsedDoc:
    url: str
    title: str
    published: str | None
    content: str


def parse_document(text: str, fallback_url: str) -> ParsedDoc:
    """Split the header lines (title, Source, Published) from the body."""
    title, url, published = "", fallback_url, None
    body: list[str] = []
    in_header = True
    for line in text.splitlines():
        stripped = line.strip()
        if in_header and not title and stripped.startswith("# "):
            title = stripped[2:].strip()
        elif in_header and stripped.lower().startswith("source:"):
            url = stripped.split(":", 1)[1].strip() or fallback_url
        elif in_header and stripped.lower().startswith("published:"):
            published = stripped.split(":", 1)[1].strip() or None
        elif in_header and not stripped:
            continue
        else:
            in_header = False
            body.append(line)
    return ParsedDoc(url, title or Path(fallback_url).stem, published, "\n".join(body).strip())


def fts_query(text: str) -> str:
    """Free text -> an FTS5 OR-query of quoted word tokens; '' when nothing is left.

    Every token is a double-quoted string, so operators, parentheses, stars or
    quotes typed by a user (or a model) are plain words, never FTS syntax.
    """
    words = [w.lower() for w in re.findall(r"\w+", text)]
    kept = [w for w in dict.fromkeys(words) if w not in _STOPWORDS and len(w) > 1]
    return " OR ".join('"' + w.replace('"', '""') + '"' for w in kept[:_MAX_TERMS])


class CorpusIndex:
    def __init__(self, db_path: Path, corpus_dir: Path) -> None:
        self.db_path = Path(db_path)
        self.corpus_dir = Path(corpus_dir)
        self.db_path.parent.mkdir(parents=True, exist_ok=True)
        self._write_lock = threading.Lock()
        with self._connect() as conn:
            conn.executescript(_SCHEMA)
        self.refresh()

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        # One connection per call: safe from any thread, including activity executors.
        conn = sqlite3.connect(self.db_path, timeout=30)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            with conn:
                yield conn
        finally:
            conn.close()

    def refresh(self) -> int:
        """Bring the index in line with the folder; returns how many documents changed."""
        files = {str(p.resolve()): p for p in sorted(self.corpus_dir.glob("*.md"))}
        changed = 0
        with self._write_lock, self._connect() as conn:
            # Take the write lock before reading, so two processes cannot both insert a path.
            conn.execute("BEGIN IMMEDIATE")
            known = {
                row[0]: row[1:]
                for row in conn.execute("SELECT path, mtime_ns, size, sha256, id FROM documents")
            }
            for key in set(known) - set(files):
                conn.execute("DELETE FROM documents_fts WHERE rowid = ?", (known[key][3],))
                conn.execute("DELETE FROM documents WHERE id = ?", (known[key][3],))
                changed += 1
            for key, path in files.items():
                stat = path.stat()
                old = known.get(key)
                if old and (old[0], old[1]) == (stat.st_mtime_ns, stat.st_size):
                    continue
                raw = path.read_bytes()
                digest = hashlib.sha256(raw).hexdigest()
                if old and old[2] == digest:
                    # Touched but unchanged: remember the new stat, skip re-tokenising.
                    conn.execute(
                        "UPDATE documents SET mtime_ns = ?, size = ? WHERE id = ?",
                        (stat.st_mtime_ns, stat.st_size, old[3]),
                    )
                    continue
                self._upsert(conn, key, path, raw, digest, old[3] if old else None)
                changed += 1
        return changed

    @staticmethod
    def _upsert(
        conn: sqlite3.Connection, key: str, path: Path, raw: bytes, digest: str, doc_id: int | None
    ) -> None:
        doc = parse_document(raw.decode("utf-8", errors="replace"), path.resolve().as_uri())
        stat = path.stat()
        values = (stat.st_mtime_ns, stat.st_size, digest, doc.url, doc.title, doc.published)
        if doc_id is None:
            cur = conn.execute(
                "INSERT INTO documents (mtime_ns, size, sha256, url, title, published, content,"
                " path) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (*values, doc.content, key),
            )
            doc_id = cur.lastrowid
        else:
            conn.execute(
                "UPDATE documents SET mtime_ns = ?, size = ?, sha256 = ?, url = ?, title = ?,"
                " published = ?, content = ? WHERE id = ?",
                (*values, doc.content, doc_id),
            )
            conn.execute("DELETE FROM documents_fts WHERE rowid = ?", (doc_id,))
        conn.execute(
            "INSERT INTO documents_fts (rowid, title, content) VALUES (?, ?, ?)",
            (doc_id, doc.title, doc.content),
        )

    def count(self) -> int:
        with self._connect() as conn:
            return int(conn.execute("SELECT COUNT(*) FROM documents").fetchone()[0])

    def search(self, query: str, max_results: int = 5) -> list[SearchHit]:
        match = fts_query(query or "")
        if not match or max_results <= 0:
            return []
        sql = (
            "SELECT d.url, d.title, d.content, d.published, bm25(documents_fts, ?, ?) AS rank"
            " FROM documents_fts JOIN documents d ON d.id = documents_fts.rowid"
            " WHERE documents_fts MATCH ? ORDER BY rank LIMIT ?"
        )
        try:
            with self._connect() as conn:
                rows = conn.execute(
                    sql, (_TITLE_WEIGHT, _BODY_WEIGHT, match, int(max_results))
                ).fetchall()
        except sqlite3.OperationalError:
            # Quoting makes this unreachable for user text; a corrupt index must not crash a run.
            return []
        # bm25() is lower-is-better and negative for matches; flip it so higher is better.
        return [
            SearchHit(url=url, title=title, content=content, score=round(-rank, 6),
                      published=published)
            for url, title, content, published, rank in rows
        ]  # fmt: skip
