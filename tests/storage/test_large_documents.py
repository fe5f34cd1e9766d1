"""Large documents: every pass over one is linear in its size, a file past the size limit
is refused with the reason (the others are indexed), no passage outgrows its limit, and a
search over a long document reads only the parts of it its hits need."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

import storage.corpus.documents.pdf as pdf_reader
from activities.search import CorpusSearch
from mining.passage_selection import (
    NAMES_PART_CHARS,
    WHOLE_DOCUMENT_PASSAGES,
    context_before,
    document_names,
    names_part,
    part_names,
)
from storage.corpus.documents import UnreadableDocument, read_document
from storage.corpus.index import CorpusIndex
from storage.corpus.models import MAX_DOCUMENT_BYTES
from storage.corpus.passages import MAX_PASSAGE_CHARS, split_passages
from tests.support.large_text import write_report

TOO_LARGE = (
    f"{(MAX_DOCUMENT_BYTES + 1) / 1e6:.1f} MB, over the {MAX_DOCUMENT_BYTES / 1e6:g} MB"
    " a document may have; split it into smaller files"
)


def sparse_file(path: Path, size: int) -> Path:
    """A file of `size` bytes that takes no disk space (and is never read)."""
    with path.open("wb") as out:
        out.truncate(size)
    return path


def test_a_file_past_the_size_limit_is_refused_and_the_others_are_indexed(
    tmp_path: Path,
) -> None:
    index = CorpusIndex(tmp_path / "index.db", tmp_path / "shipped")
    big = sparse_file(tmp_path / "archive.txt", MAX_DOCUMENT_BYTES + 1)
    small = write_report(tmp_path / "report.txt", 5_000)
    report = index.add([big, small])
    assert report.added == [small]
    assert report.errors == [(big, TOO_LARGE)]
    assert [doc.path for doc in index.documents()] == [str(small.resolve())]


def test_a_shipped_file_past_the_size_limit_is_left_out(tmp_path: Path) -> None:
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    write_report(shipped / "notes.md", 5_000)
    sparse_file(shipped / "dump.md", MAX_DOCUMENT_BYTES + 1)
    index = CorpusIndex(tmp_path / "index.db", shipped)
    assert [Path(doc.path).name for doc in index.documents()] == ["notes.md"]


def test_no_passage_is_longer_than_the_limit_and_only_a_run_without_spaces_is_cut_inside() -> None:
    blob = "Q" * (3 * MAX_PASSAGE_CHARS + 10)  # a pasted blob: no whitespace at all
    long_words = " ".join(["Pneumonoultramicroscopicsilicovolcanoconiosis" * 4] * 200)
    text = f"An opening paragraph.\n\n{blob}\n\n{long_words}\n\nA closing line."
    blob_start = text.index(blob)
    passages = split_passages(text)
    assert all(text[p.start : p.end] == p.text for p in passages)
    assert max(len(p.text) for p in passages) <= MAX_PASSAGE_CHARS
    blob_end = blob_start + len(blob)
    covered = sum(max(0, min(p.end, blob_end) - max(p.start, blob_start)) for p in passages)
    assert covered == len(blob)  # cut, never dropped
    for p in passages:
        for edge in (p.start, p.end):
            in_blob = blob_start < edge < blob_end
            on_space = edge in (0, len(text)) or text[edge - 1].isspace() or text[edge].isspace()
            assert in_blob or on_space, (edge, text[edge - 5 : edge + 5])


def test_deeply_nested_page_furniture_reads_in_linear_time() -> None:
    depth = 100_000  # each end tag scanned the open elements: this took minutes
    page = (
        "<html><body><nav>" + "<div>" * depth + "</span>" * depth + "</nav>"
        "<p>The Quokkastone brine field doubled its output.</p></body></html>"
    )
    started = time.perf_counter()
    doc = read_document(Path("page.html"), page.encode())
    assert time.perf_counter() - started < 20
    assert doc.content == "The Quokkastone brine field doubled its output."


def test_a_pdf_past_its_reading_budget_is_refused_with_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("Helvetica", size=12)
    for number in range(3):
        pdf.add_page()
        pdf.multi_cell(0, 8, f"Page {number}: the brine field doubled its output.")
    path = tmp_path / "report.pdf"
    pdf.output(str(path))
    assert "doubled its output" in read_document(path).content
    monkeypatch.setattr(pdf_reader, "READ_BUDGET_S", 0.0)
    with pytest.raises(
        UnreadableDocument, match=r"^its text took over 0 s to read \(page 1 of 3\)"
    ):
        read_document(path)


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> tuple[CorpusIndex, int, str]:
    """An index holding one report of two and a half name parts: (index, id, body)."""
    root = tmp_path_factory.mktemp("archive")
    path = write_report(root / "archive.txt", int(2.5 * NAMES_PART_CHARS))
    index = CorpusIndex(root / "index.db", root / "shipped")
    assert index.add([path]).added == [path]
    (doc,) = index.documents()
    return index, doc.id, index.document_text(doc.id) or ""


def test_a_search_reads_a_long_document_a_part_at_a_time(
    archive: tuple[CorpusIndex, int, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    index, doc_id, body = archive
    asked: list[int | None] = []
    whole = index.document_passages

    def passages(document_id: int, limit: int | None = None) -> list:
        asked.append(limit)
        return whole(document_id, limit)

    monkeypatch.setattr(index, "document_passages", passages)
    hits = CorpusSearch(index).search("Orkneyport spodumene agreement", 5)
    assert hits and {h["documentId"] for h in hits} == {doc_id}
    # Read on: the document's first passages that no hit holds, never all 5,000 of them.
    ranked = len(hits) - WHOLE_DOCUMENT_PASSAGES
    assert asked == [WHOLE_DOCUMENT_PASSAGES + ranked]
    for hit in hits:
        assert hit["context"] == context_before(body, hit["start"])
        first, end = names_part(hit["start"])
        assert hit["names"] == part_names(body[first:end], first == 0)
        assert "Orkneyport" in hit["names"]  # a one-word name it uses again and again


def test_a_part_of_a_document_is_read_from_its_first_whole_word_to_its_last() -> None:
    text = " Ganfeng Lithium signed with Rio Tinto. Orkneyport shipped it. Orkneyport paid."
    assert part_names("la" + text, first=False) == document_names(text)
    assert part_names("la" + text, first=True) == document_names("la" + text)
    cut_short = text + " Later Ganfeng Lithium met Rio Tin"  # a part that fills its size
    full = "and so on " * ((NAMES_PART_CHARS - len(cut_short)) // 10 + 1)
    full = full[: NAMES_PART_CHARS - len(cut_short)] + cut_short
    assert len(full) == NAMES_PART_CHARS and "Rio Tin" in document_names(full)
    assert part_names(full, first=True) == document_names(full[: full.rindex(" ")])
    assert "Rio Tin" not in part_names(full, first=True)
