"""PDF files through pypdf: the text layer of every page, plus the document metadata.

Only the text layer is read; a scanned PDF without one has no body and is refused
by the caller (no OCR here). pypdf's own complaints about malformed files go to
its logger, which is quietened: the reason a file cannot be read is reported once,
as an `UnreadableDocument`.
"""

from __future__ import annotations

import io
import logging
import re
import time
from pathlib import Path

from pypdf import PdfReader

from storage.corpus.documents.text import (
    ParsedDoc,
    UnreadableDocument,
    date_from_match,
    title_from_text,
)

logging.getLogger("pypdf").setLevel(logging.ERROR)

# Seconds the text layer of one PDF may take to read. pypdf's cost per page varies a lot
# with how a page was written; past this the file is refused with the reason, so one
# pathological PDF cannot hold `kminer corpus add` (checked between pages).
READ_BUDGET_S = 120.0
_PDF_DATE = re.compile(r"^(?:D:)?(\d{4})(\d{2})(\d{2})")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def pdf_date(value: object) -> str | None:
    """A PDF date string ('D:20240115103000Z') as YYYY-MM-DD, or None."""
    return date_from_match(_PDF_DATE.match(str(value or "").strip()))


def _page_text(raw: str) -> str:
    lines = (line.rstrip() for line in _CONTROL.sub(" ", raw).split("\n"))
    return "\n".join(lines).strip()


def _pages(reader: PdfReader, deadline: float) -> list[str]:
    """The text of every page, until `deadline` (time.monotonic) passes."""
    pages: list[str] = []
    total = len(reader.pages)
    for number, page in enumerate(reader.pages, 1):
        if time.monotonic() > deadline:
            raise UnreadableDocument(
                f"its text took over {READ_BUDGET_S:g} s to read (page {number} of {total})"
            )
        pages.append(_page_text(page.extract_text() or ""))
    return pages


def read_pdf(path: Path, raw: bytes) -> ParsedDoc:
    try:
        reader = PdfReader(io.BytesIO(raw))
        if reader.is_encrypted and not reader.decrypt(""):
            raise UnreadableDocument("encrypted PDF (a password is needed)")
        pages = _pages(reader, time.monotonic() + READ_BUDGET_S)
        info = reader.metadata or {}
        meta_title = " ".join(str(info.get("/Title") or "").split())
        published = pdf_date(info.get("/CreationDate"))
    except UnreadableDocument:
        raise
    except Exception as exc:  # noqa: BLE001  (pypdf raises many types on corrupt files)
        reason = str(exc).strip().splitlines()[0][:120] if str(exc).strip() else ""
        raise UnreadableDocument(
            f"not a readable PDF ({type(exc).__name__}{': ' + reason if reason else ''})"
        ) from None
    content = "\n\n".join(text for text in pages if text)
    title = meta_title or title_from_text(content, path.stem)
    return ParsedDoc(path.resolve().as_uri(), title, published, content)
