"""Documents in the local corpus index over time (storage/corpus/index.py): the shipped
folder reindexed as it changes, documents a user adds, refreshes that leave those alone,
removal by id, path or URL, and a database of the old whole-document layout rebuilt."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from storage.corpus.documents import parse_document
from storage.corpus.index import CorpusIndex
from tests.storage.shipped_corpus import CORPUS_DIR, DOCS


def test_reindex_is_idempotent_and_tracks_changes(tmp_path: Path) -> None:
    corpus = tmp_path / "docs"
    shutil.copytree(CORPUS_DIR, corpus)
    db = tmp_path / "idx.db"
    idx = CorpusIndex(db, corpus)
    assert idx.count() == len(DOCS)
    assert idx.refresh() == 0
    assert CorpusIndex(db, corpus).count() == len(DOCS)  # reopening does not duplicate

    target = corpus / DOCS[0].name
    stat = target.stat()
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000_000))
    assert idx.refresh() == 0  # touched, same bytes

    target.write_text(target.read_text(encoding="utf-8") + "\nZanzibarite deposits too.\n")
    assert idx.refresh() == 1
    assert (
        idx.search("zanzibarite")[0].title
        == parse_document(target.read_text(encoding="utf-8"), "").title
    )

    new = corpus / "zz_new.md"
    new.write_text("# New doc\nSource: https://news.example.org/new\n\nQuokkastone found.\n")
    (corpus / DOCS[1].name).unlink()
    assert idx.refresh() == 2
    assert idx.count() == len(DOCS)
    assert idx.search("quokkastone")[0].published is None
    assert idx.refresh() == 0


def test_add_reports_each_file_and_is_idempotent(tmp_path: Path) -> None:
    docs = tmp_path / "mine"
    (docs / "sub").mkdir(parents=True)
    (docs / "a.md").write_text("# Alpha\nSource: https://a.example.org/x\n\nAlphaword here.\n")
    (docs / "b.txt").write_text("Beta notes\n\nBetaword there.\n")
    (docs / "sub" / "c.html").write_text("<title>Gamma</title><p>Gammaword inside.</p>")
    shutil.copy(docs / "a.md", docs / "sub" / "copy-of-a.md")
    (docs / "empty.txt").write_text("")
    (docs / "broken.pdf").write_bytes(b"%PDF-1.4 nonsense")
    (docs / "photo.png").write_bytes(b"\x89PNG")  # not a document type: skipped silently
    (docs / ".draft.md").write_text("# Hidden\n\nHiddenword.\n")
    idx = CorpusIndex(tmp_path / "idx.db", CORPUS_DIR)

    first = idx.add([docs, tmp_path / "missing.md"], tier="high")
    assert first.added == [docs / "a.md", docs / "b.txt", docs / "sub" / "c.html"]
    assert first.duplicates == [(docs / "sub" / "copy-of-a.md", str((docs / "a.md").resolve()))]
    assert sorted(p.name for p, _ in first.errors) == ["broken.pdf", "empty.txt", "missing.md"]
    assert all(reason for _, reason in first.errors)
    assert idx.count() == len(DOCS) + 3
    assert idx.search("hiddenword") == [] and idx.search("alphaword")[0].tier == "high"

    again = idx.add([docs])
    assert again.unchanged == first.added and not again.added and not again.updated
    assert len(again.duplicates) == 1 and len(again.errors) == 2

    (docs / "b.txt").write_text("Beta notes\n\nBetaword changed to deltaword.\n")
    third = idx.add([docs / "b.txt"], tier="low")
    assert third.updated == [docs / "b.txt"] and idx.search("deltaword")[0].tier == "low"
    assert idx.search("betaword")[0].content == "Beta notes\n\nBetaword changed to deltaword."
    assert idx.add([docs / "a.md"], tier="medium").updated == [docs / "a.md"]  # a new tier
    with pytest.raises(ValueError, match="tier"):
        idx.add([docs], tier="certain")

    added = {d.title: d for d in idx.documents() if d.origin == "added"}
    assert {t: d.tier for t, d in added.items()} == {
        "Alpha": "medium",
        "Beta notes": "low",
        "Gamma": "high",
    }
    assert idx.refresh() == 0 and idx.count() == len(DOCS) + 3  # refresh leaves them alone


def test_refresh_never_touches_added_documents(tmp_path: Path) -> None:
    corpus = tmp_path / "shipped"
    shutil.copytree(CORPUS_DIR, corpus)
    note = tmp_path / "note.md"
    note.write_text("# Note\n\nOwlstone sightings.\n")
    idx = CorpusIndex(tmp_path / "idx.db", corpus)
    idx.add([note])
    shutil.rmtree(corpus)
    corpus.mkdir()
    assert idx.refresh() == len(DOCS)
    assert [d.title for d in idx.documents()] == ["Note"]
    assert idx.search("owlstone")[0].title == "Note"


def test_remove_by_id_path_or_url(tmp_path: Path) -> None:
    idx = CorpusIndex(tmp_path / "idx.db", CORPUS_DIR)
    (tmp_path / "one.md").write_text("# One\n\nFirstword text.\n")
    (tmp_path / "two.txt").write_text("Two\n\nSecondword text.\n")
    (tmp_path / "three.md").write_text("# Three\nSource: https://x.example.org/3\n\nThirdword.\n")
    idx.add([tmp_path])
    by_name = {Path(d.path).name: d for d in idx.documents() if d.origin == "added"}
    assert idx.remove(str(by_name["one.md"].id)) == 1
    assert idx.remove(str(tmp_path / "two.txt")) == 1
    assert idx.remove("https://x.example.org/3") == 1
    assert idx.search("firstword secondword thirdword") == []
    assert idx.remove("https://x.example.org/3") == 0 and idx.remove("no-such-doc") == 0
    shipped = idx.documents()[0]
    assert idx.remove(shipped.url) == 0 and idx.remove(str(shipped.id)) == 0  # folder-managed
    assert idx.count() == len(DOCS)
    with sqlite3.connect(tmp_path / "idx.db") as conn:
        orphans = conn.execute(
            "SELECT COUNT(*) FROM passages WHERE document_id NOT IN (SELECT id FROM documents)"
        ).fetchone()[0]
        fts_rows = conn.execute("SELECT COUNT(*) FROM passages_fts").fetchone()[0]
        passages = conn.execute("SELECT COUNT(*) FROM passages").fetchone()[0]
    assert orphans == 0 and fts_rows == passages


def test_an_old_whole_document_database_is_rebuilt(tmp_path: Path) -> None:
    db = tmp_path / "corpus.db"
    with sqlite3.connect(db) as conn:
        conn.executescript(
            "CREATE TABLE documents (id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL,"
            " mtime_ns INTEGER NOT NULL, size INTEGER NOT NULL, sha256 TEXT NOT NULL,"
            " url TEXT NOT NULL, title TEXT NOT NULL, published TEXT, content TEXT NOT NULL);"
            "CREATE VIRTUAL TABLE documents_fts USING fts5(title, content);"
            "INSERT INTO documents VALUES (1, '/gone.md', 1, 1, 'x', 'u', 't', NULL, 'old');"
            "INSERT INTO documents_fts (rowid, title, content) VALUES (1, 't', 'old');"
        )
    conn.close()
    idx = CorpusIndex(db, CORPUS_DIR)
    assert idx.count() == len(DOCS)
    assert idx.search("Greenbushes")[0].passageId
    assert CorpusIndex(db, CORPUS_DIR).count() == len(DOCS)
