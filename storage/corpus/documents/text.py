"""Markdown and plain-text documents, and the shapes every reader returns.

Markdown files in the corpus carry a small header (`# Title`, `Source: <url>`,
`Published: YYYY-MM-DD`) that becomes metadata, not searchable body. Plain text
has no header: its first short line is the best title there is. `ParsedDoc` and
`UnreadableDocument` live here because the text family is the base every other
reader (HTML, PDF) builds on, and the package's `__init__` re-exports them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path

MAX_TITLE_CHARS = 120


def date_from_match(match: re.Match[str] | None) -> str | None:
    """YYYY-MM-DD from a match of (year, month, day) groups; None if no real date."""
    if not match:
        return None
    try:
        return date(*(int(part) for part in match.groups()[:3])).isoformat()
    except ValueError:
        return None


class UnreadableDocument(ValueError):
    """A file that cannot be indexed; the message is a short reason for a human."""


@dataclass
class ParsedDoc:
    url: str
    title: str
    published: str | None
    content: str


def decode_text(raw: bytes) -> str:
    """UTF-8 (a BOM is dropped), latin-1 only when UTF-8 fails; NUL bytes mean binary."""
    if b"\x00" in raw:
        raise UnreadableDocument("binary data, not text")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    return text.replace("\r\n", "\n").replace("\r", "\n")


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


def title_from_text(content: str, fallback: str) -> str:
    """The first non-empty line when it is short enough to be a title, else `fallback`."""
    for line in content.splitlines():
        line = " ".join(line.split())
        if line:
            return line if len(line) <= MAX_TITLE_CHARS else fallback
    return fallback


def read_markdown(path: Path, raw: bytes) -> ParsedDoc:
    return parse_document(decode_text(raw), path.resolve().as_uri())


def read_plain_text(path: Path, raw: bytes) -> ParsedDoc:
    content = decode_text(raw).strip()
    return ParsedDoc(path.resolve().as_uri(), title_from_text(content, path.stem), None, content)
