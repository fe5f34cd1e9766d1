"""Documents a user can index: one reader per format family, chosen by file suffix.

`read_document` is the single entry point the corpus index uses, so adding a
format means adding a reader module and a suffix here. Every failure a user can
cause (wrong type, unreadable, corrupt, nothing to index) is an
`UnreadableDocument` with a short reason, never a stack trace.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from storage.corpus.documents.html import read_html
from storage.corpus.documents.pdf import read_pdf
from storage.corpus.documents.text import (
    ParsedDoc,
    UnreadableDocument,
    parse_document,
    read_markdown,
    read_plain_text,
)

__all__ = [
    "SUPPORTED_SUFFIXES",
    "ParsedDoc",
    "UnreadableDocument",
    "find_documents",
    "parse_document",
    "read_document",
]

Reader = Callable[[Path, bytes], ParsedDoc]
_READERS: dict[str, Reader] = {
    ".md": read_markdown,
    ".markdown": read_markdown,
    ".txt": read_plain_text,
    ".html": read_html,
    ".htm": read_html,
    ".pdf": read_pdf,
}
SUPPORTED_SUFFIXES = frozenset(_READERS)


def read_document(path: Path, data: bytes | None = None) -> ParsedDoc:
    """Parse one file (or its already-read bytes) into metadata and body text."""
    path = Path(path)
    reader = _READERS.get(path.suffix.lower())
    if reader is None:
        raise UnreadableDocument(f"unsupported file type {path.suffix or '(no suffix)'!r}")
    if data is None:
        try:
            data = path.read_bytes()
        except IsADirectoryError:
            raise UnreadableDocument("is a directory") from None
        except OSError as exc:
            raise UnreadableDocument(f"cannot read the file ({exc.strerror or exc})") from None
    if not data.strip():
        raise UnreadableDocument("empty file")
    doc = reader(path, data)
    if not doc.content.strip():
        raise UnreadableDocument("no extractable text (a scanned or empty document?)")
    return doc


def find_documents(paths: Iterable[Path]) -> tuple[list[Path], list[tuple[Path, str]]]:
    """Files to index under `paths` (folders recursively), sorted, plus paths that are errors.

    Inside folders only supported suffixes are taken and hidden files or folders
    are skipped; a file named explicitly is always taken (its reader decides).
    """
    found: dict[Path, Path] = {}
    errors: list[tuple[Path, str]] = []
    for given in paths:
        given = Path(given)
        if given.is_dir():
            for folder, dirs, files in os.walk(given):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in files:
                    candidate = Path(folder) / name
                    if name.startswith("."):
                        continue
                    if candidate.suffix.lower() in SUPPORTED_SUFFIXES and candidate.is_file():
                        found.setdefault(candidate.resolve(), candidate)
        elif given.exists():
            found.setdefault(given.resolve(), given)
        else:
            errors.append((given, "no such file or directory"))
    return [found[key] for key in sorted(found, key=str)], errors
