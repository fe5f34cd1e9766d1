"""Local document search: SQLite FTS5 with BM25 over passages of shipped and added documents.

The offline stand-in for web search, and the user's own library. Two origins
share one index: the shipped demo folder (`*.md`, kept in step by mtime, size
and sha256 on every `refresh()`), and documents a user `add`s (any supported
format, never touched by `refresh()`). Ranking is per passage, so a hit points
at the few sentences that matter, with character offsets into the document body.

Several processes may use one database file (a worker searches while
`kminer corpus add` writes): every call opens its own connection, the file is in
WAL mode, and every write runs inside `BEGIN IMMEDIATE`, so SQLite's own lock
orders writers across processes and readers never block.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from storage.corpus.documents import ParsedDoc, UnreadableDocument, find_documents, read_document
from storage.corpus.models import (
    _BODY_WEIGHT,
    _HIT_COLUMNS,
    _PASSAGE_ID,
    _SCHEMA,
    _TITLE_WEIGHT,
    SCHEMA_VERSION,
    TIERS,
    AddReport,
    DocumentInfo,
    SearchHit,
    _PathState,
    fts_query,
    too_large,
)
from storage.corpus.passages import split_passages


def _hit(row: Sequence, score: float) -> SearchHit:
    url, title, text, published, sha256, ordinal, start, end, doc_id, tier = row
    return SearchHit(
        url=url, title=title, content=text, score=score, published=published,
        passageId=f"{sha256[:12]}:{ordinal}", start=start, end=end, documentId=doc_id, tier=tier,
    )  # fmt: skip


class CorpusIndex:
    def __init__(self, db_path: Path, corpus_dir: Path) -> None:
        self.db_path = Path(db_path)
        self.corpus_dir = Path(corpus_dir)
        self.db_path.parent.mkdir(parents=True, exist_ok=True)
        self._migrate()
        self.refresh()

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        # One connection per call: safe from any thread, and from other processes.
        conn = sqlite3.connect(self.db_path, timeout=30, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            yield conn
        finally:
            conn.close()

    @staticmethod
    @contextmanager
    def _write(conn: sqlite3.Connection) -> Iterator[None]:
        """A write transaction that holds SQLite's write lock from its first statement."""
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def _migrate(self) -> None:
        """Create the schema; an older layout (whole documents, no passages) is rebuilt."""
        with self._connect() as conn, self._write(conn):
            if conn.execute("PRAGMA user_version").fetchone()[0] >= SCHEMA_VERSION:
                return
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
            for table in ("documents_fts", "passages_fts", "passages", "documents"):
                if table in tables:  # the old schema only ever held the shipped documents
                    conn.execute(f"DROP TABLE {table}")
            for statement in _SCHEMA:
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    # -- writing ------------------------------------------------------------------------------

    @staticmethod
    def _delete(conn: sqlite3.Connection, doc_id: int, passages_only: bool = False) -> None:
        ids = "(SELECT id FROM passages WHERE document_id = ?)"
        conn.execute(f"DELETE FROM passages_fts WHERE rowid IN {ids}", (doc_id,))
        conn.execute("DELETE FROM passages WHERE document_id = ?", (doc_id,))
        if not passages_only:
            conn.execute("DELETE FROM documents WHERE id = ?", (doc_id,))

    @classmethod
    def _store(
        cls,
        conn: sqlite3.Connection,
        key: str,
        stat: os.stat_result,
        digest: str,
        doc: ParsedDoc,
        origin: str,
        tier: str | None,
        doc_id: int | None,
    ) -> None:
        values = (stat.st_mtime_ns, stat.st_size, digest, doc.url, doc.title, doc.published)
        if doc_id is None:
            doc_id = conn.execute(
                "INSERT INTO documents (mtime_ns, size, sha256, url, title, published, content,"
                " path, origin, tier, added_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*values, doc.content, key, origin, tier, datetime.now(UTC).isoformat()),
            ).lastrowid
        else:
            conn.execute(
                "UPDATE documents SET mtime_ns = ?, size = ?, sha256 = ?, url = ?, title = ?,"
                " published = ?, content = ?, tier = COALESCE(?, tier) WHERE id = ?",
                (*values, doc.content, tier, doc_id),
            )
            cls._delete(conn, doc_id, passages_only=True)
        conn.executemany(
            'INSERT INTO passages (document_id, ordinal, start, "end", text)'
            " VALUES (?, ?, ?, ?, ?)",
            [(doc_id, p.ordinal, p.start, p.end, p.text) for p in split_passages(doc.content)],
        )
        conn.execute(
            "INSERT INTO passages_fts (rowid, title, text)"
            " SELECT id, ?, text FROM passages WHERE document_id = ?",
            (doc.title, doc_id),
        )

    def refresh(self) -> int:
        """Bring the shipped documents in line with the folder; returns how many changed."""
        files = {str(p.resolve()): p for p in sorted(self.corpus_dir.glob("*.md"))}
        changed = 0
        with self._connect() as conn, self._write(conn):
            rows = conn.execute("SELECT path, origin, mtime_ns, size, sha256, id FROM documents")
            known: dict[str, list] = {}
            added: set[str] = set()
            for path, origin, *rest in rows:
                if origin == "shipped":
                    known[path] = rest
                else:
                    added.add(path)
            for key in set(known) - set(files):
                self._delete(conn, known[key][3])
                changed += 1
            for key, path in files.items():
                if key in added:
                    continue  # a user added this very file: it is theirs, not the folder's
                stat = path.stat()
                old = known.get(key)
                if old and (old[0], old[1]) == (stat.st_mtime_ns, stat.st_size):
                    continue
                if too_large(stat.st_size):  # as an unreadable one: not in the index
                    if old:
                        self._delete(conn, old[3])
                        changed += 1
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
                try:
                    doc = read_document(path, raw)
                except UnreadableDocument:
                    if old:  # an emptied shipped file leaves the index
                        self._delete(conn, old[3])
                        changed += 1
                    continue
                self._store(conn, key, stat, digest, doc, "shipped", None, old[3] if old else None)
                changed += 1
        return changed

    def add(self, paths: Sequence[Path], tier: str | None = None) -> AddReport:
        """Index files and folders; idempotent per path and bytes. See `AddReport`."""
        if tier is not None and tier not in TIERS:
            raise ValueError(f"tier must be one of {', '.join(TIERS)}")
        files, missing = find_documents(paths)
        report = AddReport(errors=list(missing))
        with self._connect() as conn:
            for path in files:
                self._add_one(conn, path, tier, report)
        return report

    @staticmethod
    def _state(conn: sqlite3.Connection, key: str, digest: str) -> _PathState:
        row = conn.execute(
            "SELECT id, sha256, origin, tier FROM documents WHERE path = ?", (key,)
        ).fetchone()
        if row and row[1] == digest:
            return _PathState("unchanged", row[0], row[2], row[3])
        other = conn.execute(
            "SELECT path FROM documents WHERE sha256 = ? AND path != ? ORDER BY id LIMIT 1",
            (digest, key),
        ).fetchone()
        if other:
            return _PathState("duplicate", row[0] if row else None, duplicate_of=other[0])
        return _PathState("changed", row[0], row[2], row[3]) if row else _PathState("new")

    def _add_one(
        self, conn: sqlite3.Connection, path: Path, tier: str | None, report: AddReport
    ) -> None:
        key = str(path.resolve())
        try:
            stat = path.stat()  # before reading: a later write moves mtime past this
            if refused := too_large(stat.st_size):
                report.errors.append((path, refused))
                return
            raw = path.read_bytes()
        except OSError as exc:
            report.errors.append((path, f"cannot read the file ({exc.strerror or exc})"))
            return
        digest = hashlib.sha256(raw).hexdigest()
        doc: ParsedDoc | None = None
        try:
            # Parse outside the write lock (a PDF can take a while), decide again inside it.
            if self._state(conn, key, digest).kind in ("new", "changed"):
                doc = read_document(path, raw)
            with self._write(conn):
                state = self._state(conn, key, digest)
                if state.kind == "unchanged":
                    conn.execute(
                        "UPDATE documents SET mtime_ns = ?, size = ?, tier = COALESCE(?, tier)"
                        " WHERE id = ?",
                        (stat.st_mtime_ns, stat.st_size, tier, state.doc_id),
                    )
                    retiered = tier is not None and tier != state.tier
                    (report.updated if retiered else report.unchanged).append(path)
                elif state.kind == "duplicate":
                    if state.doc_id is not None:  # this path's old bytes are gone from disk
                        self._delete(conn, state.doc_id)
                    report.duplicates.append((path, state.duplicate_of or ""))
                else:
                    doc = doc or read_document(path, raw)
                    self._store(conn, key, stat, digest, doc, state.origin, tier, state.doc_id)
                    (report.added if state.kind == "new" else report.updated).append(path)
        except UnreadableDocument as exc:
            report.errors.append((path, str(exc)))

    def remove(self, ref: str) -> int:
        """Remove added documents by id, path or source URL; returns how many went.

        Shipped documents follow their folder (the next `refresh()` would bring them back).
        """
        ref = ref.strip()
        keys = {ref, str(Path(ref).expanduser().resolve())} if ref else set()
        doc_id = int(ref) if ref.isdigit() else -1
        with self._connect() as conn, self._write(conn):
            ids = [
                row[0]
                for row in conn.execute(
                    "SELECT id FROM documents WHERE origin = 'added' AND (id = ? OR url = ?"
                    f" OR path IN ({', '.join('?' * len(keys)) or 'NULL'}))",
                    (doc_id, ref, *sorted(keys)),
                )
            ]
            for found in ids:
                self._delete(conn, found)
        return len(ids)

    # -- reading ------------------------------------------------------------------------------

    def count(self) -> int:
        with self._connect() as conn:
            return int(conn.execute("SELECT COUNT(*) FROM documents").fetchone()[0])

    def documents(self) -> list[DocumentInfo]:
        sql = (
            "SELECT d.id, d.path, d.origin, d.url, d.title, d.published, COUNT(p.id), d.tier,"
            " d.size FROM documents d LEFT JOIN passages p ON p.document_id = d.id"
            " GROUP BY d.id ORDER BY d.id"
        )
        names = list(DocumentInfo.model_fields)
        with self._connect() as conn:
            rows = conn.execute(sql).fetchall()
        return [DocumentInfo(**dict(zip(names, row, strict=True))) for row in rows]

    def search(self, query: str, max_results: int = 5, per_document: int = 2) -> list[SearchHit]:
        """The best passages for `query`, at most `per_document` from any one document."""
        match = fts_query(query or "")
        if not match or max_results <= 0:
            return []
        sql = (
            "WITH ranked AS (SELECT p.id, p.document_id, bm25(passages_fts, ?, ?) AS rank"
            " FROM passages_fts JOIN passages p ON p.id = passages_fts.rowid"
            " WHERE passages_fts MATCH ?),"
            " numbered AS (SELECT id, rank, ROW_NUMBER() OVER"
            " (PARTITION BY document_id ORDER BY rank, id) AS nth FROM ranked)"
            f" SELECT {_HIT_COLUMNS}, n.rank FROM numbered n JOIN passages p ON p.id = n.id"
            " JOIN documents d ON d.id = p.document_id"
            " WHERE n.nth <= ? ORDER BY n.rank, p.id LIMIT ?"
        )
        args = (_TITLE_WEIGHT, _BODY_WEIGHT, match, max(1, per_document), int(max_results))
        try:
            with self._connect() as conn:
                rows = conn.execute(sql, args).fetchall()
        except sqlite3.OperationalError:
            # Quoting makes this unreachable for user text; a corrupt index must not crash a run.
            return []
        # bm25() is lower-is-better and negative for matches; flip it so higher is better.
        return [_hit(row[:-1], round(-row[-1], 6)) for row in rows]

    def passage(self, passage_id: str) -> SearchHit | None:
        """One passage back by its id (`<sha256[:12]>:<ordinal>`), score 0."""
        parsed = _PASSAGE_ID.match(passage_id.strip().lower())
        if not parsed:
            return None
        prefix, ordinal = parsed.group(1), int(parsed.group(2))
        sql = (
            f"SELECT {_HIT_COLUMNS} FROM documents d JOIN passages p ON p.document_id = d.id"
            " WHERE d.sha256 >= ? AND d.sha256 < ? AND p.ordinal = ? ORDER BY d.id LIMIT 1"
        )
        with self._connect() as conn:
            row = conn.execute(sql, (prefix, prefix + "g", ordinal)).fetchone()
        return _hit(row, 0.0) if row else None

    def document_passages(self, document_id: int, limit: int | None = None) -> list[SearchHit]:
        """The passages of one document in reading order (the first `limit`), score 0."""
        sql = (
            f"SELECT {_HIT_COLUMNS} FROM documents d JOIN passages p ON p.document_id = d.id"
            " WHERE d.id = ? ORDER BY p.ordinal LIMIT ?"
        )
        with self._connect() as conn:
            rows = conn.execute(sql, (document_id, -1 if limit is None else limit)).fetchall()
        return [_hit(row, 0.0) for row in rows]

    def document_text(self, document_id: int) -> str | None:
        with self._connect() as conn:
            row = conn.execute(
                "SELECT content FROM documents WHERE id = ?", (document_id,)
            ).fetchone()
        return row[0] if row else None

    def document_slice(self, document_id: int, start: int, end: int) -> str | None:
        """Characters `start` to `end` of a document's body (`document_text()[start:end]`),
        without handing the whole body to Python: a search reads the text around a passage
        of a 20 MB document many times."""
        start = max(0, start)
        with self._connect() as conn:
            row = conn.execute(
                "SELECT substr(content, ?, ?) FROM documents WHERE id = ?",
                (start + 1, max(0, end - start), document_id),
            ).fetchone()
        return row[0] if row else None
