"""Document readers (Markdown, text, HTML, PDF) and the passage splitter."""

from __future__ import annotations

import io
from datetime import datetime
from pathlib import Path

import pytest
from fpdf import FPDF
from PIL import Image

from storage.corpus.documents import UnreadableDocument, find_documents, read_document
from storage.corpus.passages import Passage, split_passages
from tests.support.paths import SHIPPED_CORPUS

CORPUS_DIR = SHIPPED_CORPUS
PDF_SENTENCE = "The Quokkastone brine field doubled its output in March 2024."


def make_pdf(path: Path, pages: list[str], title: str | None = None) -> Path:
    pdf = FPDF()
    pdf.set_font("Helvetica", size=12)
    if title:
        pdf.set_title(title)
    pdf.set_creation_date(datetime(2024, 3, 5, 10, 30))
    for text in pages:
        pdf.add_page()
        pdf.multi_cell(0, 8, text)
    pdf.output(str(path))
    return path


def make_image_only_pdf(path: Path) -> Path:
    picture = io.BytesIO()
    Image.new("RGB", (120, 80), (200, 30, 30)).save(picture, format="PNG")
    pdf = FPDF()
    pdf.add_page()
    pdf.image(picture, x=10, y=10, w=100)
    pdf.output(str(path))
    return path


# -- readers -------------------------------------------------------------------------------------

HTML_PAGE = """<!doctype html>
<html><head>
<title>Brine &amp; lithium: a field report</title>
<link rel="stylesheet" href="/s.css"><link rel="canonical" href="https://news.example.org/brine">
<meta property="og:url" content="https://news.example.org/og-brine">
<meta property="article:published_time" content="2024-06-01T08:30:00+00:00">
<style>body { color: red; } .hidden-style-text {}</style>
<script>var trackingScriptText = "do not index";</script>
</head><body>
<header><h1>Site banner headline</h1></header>
<nav><ul><li>Home</li><li>Navigation link text</li></ul></nav>
<article>
<p>Salar   brine is pumped
   into ponds &amp; left to evaporate.</p>
<p>Engineers&nbsp;measured <b>lithium</b> at 1,500&nbsp;mg/l.<br>A second line.</p>
<div>Table follows<table><tr><td>Cell one</td><td>Cell two</td></tr></table></div>
<noscript>Enable JavaScript noscript text</noscript>
<template><p>Template text</p></template>
<aside>Aside advert text</aside>
</article>
<footer>Footer copyright text</footer>
<script>console.log("late script")</script>
</body></html>
"""


def test_html_reader_keeps_the_readable_text_and_the_page_metadata(tmp_path: Path) -> None:
    path = tmp_path / "report.html"
    path.write_text(HTML_PAGE, encoding="utf-8")
    doc = read_document(path)
    assert doc.title == "Brine & lithium: a field report"
    assert doc.url == "https://news.example.org/brine"  # canonical wins over og:url
    assert doc.published == "2024-06-01"
    assert doc.content.split("\n\n") == [
        "Salar brine is pumped into ponds & left to evaporate.",
        "Engineers measured lithium at 1,500 mg/l.",
        "A second line.",
        "Table follows",
        "Cell one Cell two",
    ]
    for noise in ("tracking", "color", "banner", "Navigation", "noscript", "Template", "Aside",
                  "Footer", "late script", "<", "&amp;"):  # fmt: skip
        assert noise not in doc.content, noise


def test_html_fallbacks_for_title_source_and_date(tmp_path: Path) -> None:
    path = tmp_path / "plain.htm"
    path.write_text(
        "<html><head><meta property='og:url' content='https://x.example.com/a'>"
        "<meta name='date' content='not a date'></head><body>"
        "<h1>The  heading\n title</h1><p>Body <time datetime='2023-02-28'>then</time>.</p>"
        "</body></html>",
        encoding="utf-8",
    )
    doc = read_document(path)
    assert (doc.title, doc.url, doc.published) == (
        "The heading title",
        "https://x.example.com/a",
        "2023-02-28",
    )
    assert doc.content == "The heading title\n\nBody then."

    bare = tmp_path / "bare.html"
    bare.write_text("<p>Only a paragraph, no head.</p>", encoding="utf-8")
    doc = read_document(bare)
    assert doc.url == bare.resolve().as_uri() and doc.published is None
    assert doc.title == "Only a paragraph, no head."


def test_pdf_reader_extracts_every_page_and_the_metadata(tmp_path: Path) -> None:
    path = make_pdf(
        tmp_path / "brine.pdf",
        [PDF_SENTENCE + " Engineers credit the new ponds.", "Page two lists Wombatite reserves."],
        title="Quarterly brine report",
    )
    doc = read_document(path)
    assert doc.title == "Quarterly brine report"
    assert doc.published == "2024-03-05"
    assert doc.url == path.resolve().as_uri()
    assert PDF_SENTENCE in " ".join(doc.content.split())
    first, second = doc.content.split("\n\n")
    assert "Quokkastone" in first and second == "Page two lists Wombatite reserves."


def test_pdf_without_a_title_uses_its_first_short_line(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "untitled.pdf", ["Annual water survey\n" + PDF_SENTENCE])
    assert read_document(path).title == "Annual water survey"


def test_plain_text_title_encoding_and_body(tmp_path: Path) -> None:
    short = tmp_path / "notes.txt"
    short.write_bytes(b"\xef\xbb\xbfField notes\r\n\r\nCaf\xc3\xa9 owners near the salar.\r\n")
    doc = read_document(short)
    assert doc.title == "Field notes"
    assert doc.content == "Field notes\n\nCafé owners near the salar."
    assert doc.url == short.resolve().as_uri() and doc.published is None

    long_first_line = tmp_path / "long-line.txt"
    long_first_line.write_bytes(("word " * 40).encode() + b"\n\nCaf\xe9 in latin-1.")
    doc = read_document(long_first_line)
    assert doc.title == "long-line"
    assert doc.content.endswith("Café in latin-1.")


def test_markdown_header_is_metadata_not_body(tmp_path: Path) -> None:
    path = tmp_path / "note.md"
    path.write_text(
        "# A titled note\nSource: https://notes.example.org/n1\nPublished: 2025-01-02\n\n"
        "First paragraph.\n\nSecond paragraph.\n",
        encoding="utf-8",
    )
    doc = read_document(path)
    assert (doc.title, doc.url, doc.published) == (
        "A titled note",
        "https://notes.example.org/n1",
        "2025-01-02",
    )
    assert doc.content == "First paragraph.\n\nSecond paragraph."

    headless = tmp_path / "headless.markdown"
    headless.write_text("Just a body line.\n", encoding="utf-8")
    doc = read_document(headless)
    assert (doc.title, doc.url) == ("headless", headless.resolve().as_uri())


def test_shipped_corpus_documents_read_as_before() -> None:
    doc = read_document(CORPUS_DIR / "lithium_03_tianqi_greenbushes.md")
    assert doc.title == "Tianqi Lithium and the economics of the Greenbushes stake"
    assert doc.url == "https://minerals-wire.example.com/2024/08/tianqi-greenbushes-stake"
    assert doc.published == "2024-08-20"
    assert doc.content.startswith("Tianqi Lithium holds a stake")


@pytest.mark.parametrize(
    ("name", "payload", "reason"),
    [
        ("empty.txt", b"", "empty"),
        ("blank.md", b"  \n\n\t\n", "empty"),
        ("garbage.pdf", bytes(range(256)) * 20, "not a readable PDF"),
        ("truncated.pdf", b"%PDF-1.7\n1 0 obj\n<<", "not a readable PDF"),
        ("picture.png", b"\x89PNG\r\n\x1a\n", "unsupported file type '.png'"),
        ("no-suffix", b"text", "unsupported file type"),
        ("binary.txt", b"abc\x00\x01\x02def", "binary"),
        ("only-markup.html", b"<html><script>x()</script><nav>menu</nav></html>", "no extract"),
    ],
)
def test_unreadable_files_are_refused_with_a_reason(
    tmp_path: Path, name: str, payload: bytes, reason: str
) -> None:
    path = tmp_path / name
    path.write_bytes(payload)
    with pytest.raises(UnreadableDocument, match=reason):
        read_document(path)


def test_image_only_pdf_and_missing_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(UnreadableDocument, match="no extractable text"):
        read_document(make_image_only_pdf(tmp_path / "scan.pdf"))
    with pytest.raises(UnreadableDocument, match="cannot read"):
        read_document(tmp_path / "missing.txt")
    assert isinstance(UnreadableDocument("x"), ValueError)


def test_find_documents_walks_folders_in_sorted_order(tmp_path: Path) -> None:
    for rel in ("b/z.md", "b/a.txt", "a.HTML", ".secret/s.md", "b/.hidden.md", "c.png", "d.pdf"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x")
    found, errors = find_documents([tmp_path, tmp_path / "b" / "z.md", tmp_path / "nope"])
    assert [p.relative_to(tmp_path).as_posix() for p in found] == [
        "a.HTML",
        "b/a.txt",
        "b/z.md",
        "d.pdf",
    ]
    assert errors == [(tmp_path / "nope", "no such file or directory")]


# -- passages ------------------------------------------------------------------------------------


def assert_well_formed(content: str, passages: list[Passage]) -> None:
    assert [p.ordinal for p in passages] == list(range(len(passages)))
    previous_end = 0
    for p in passages:
        assert content[p.start : p.end] == p.text
        assert p.text == p.text.strip() and p.text
        assert p.start >= previous_end
        previous_end = p.end
        # never inside a word: a cut sits at the text's edge or next to whitespace
        assert p.start == 0 or content[p.start - 1].isspace()
        assert p.end == len(content) or content[p.end].isspace()
    covered = "".join(p.text for p in passages)
    assert "".join(covered.split()) == "".join(content.split())  # nothing lost


@pytest.mark.parametrize("path", sorted(CORPUS_DIR.glob("*.md")), ids=lambda p: p.name)
def test_every_shipped_document_splits_into_exact_passages(path: Path) -> None:
    content = read_document(path).content
    passages = split_passages(content)
    assert passages
    assert_well_formed(content, passages)
    assert all(len(p.text.split()) <= 160 for p in passages)


def test_short_paragraphs_are_merged_up_to_the_target() -> None:
    content = "\n\n".join(f"Line {i} has five words." for i in range(40))
    passages = split_passages(content, target_words=20, max_words=40)
    assert_well_formed(content, passages)
    assert [len(p.text.split()) for p in passages] == [20] * 10
    assert passages[0].text == content[: passages[0].end]
    assert "\n\n" in passages[0].text  # merged paragraphs keep their original separators


def test_long_paragraph_is_cut_at_sentence_ends_not_after_abbreviations() -> None:
    sentence = "Acme Co. Ltd. hired Dr. Rivera in the U.S. to survey brines near Uyuni for years."
    content = " ".join([sentence, "2024 was dry.", sentence] * 6)
    passages = split_passages(content, target_words=40, max_words=60)
    assert_well_formed(content, passages)
    assert len(passages) > 1
    for p in passages:
        assert p.text.endswith((".",)) and p.text[0] in "A2"
        for abbreviation in ("Co.", "Ltd.", "Dr.", "U.S."):
            assert not p.text.endswith(abbreviation)
        assert len(p.text.split()) <= 60


def test_run_on_text_is_cut_between_words() -> None:
    content = "alpha " * 99 + "omega"
    passages = split_passages(content, target_words=30, max_words=50)
    assert_well_formed(content, passages)
    assert [len(p.text.split()) for p in passages] == [30, 30, 30, 10]
    assert all(set(p.text.split()) <= {"alpha", "omega"} for p in passages)


def test_split_passages_edge_cases_and_determinism() -> None:
    assert split_passages("") == []
    assert split_passages(" \n\n \t") == []
    assert split_passages("  One line.  ") == [Passage(0, 2, 11, "One line.")]
    content = read_document(CORPUS_DIR / "lithium_01_ganfeng_tesla.md").content
    assert split_passages(content) == split_passages(content)
    tiny_then_big = "Heading\n\n" + "word " * 100
    first = split_passages(tiny_then_big, target_words=90, max_words=160)[0]
    assert first.text.startswith("Heading\n\nword")  # a lone heading is not its own passage
