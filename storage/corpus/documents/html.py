"""HTML pages: readable body text and page metadata, with the standard library only.

A saved web page is mostly chrome (scripts, navigation, footers). Only the text a
reader would read is indexed, with block elements turned into blank-line
paragraph breaks so the passage splitter still sees paragraphs.

Why not trafilatura's main-text extraction (2.3.1 tried, offline, `extract` and
`extract_metadata`): two of today's reader tests fail with it.
`tests/storage/test_documents.py::test_html_reader_keeps_the_readable_text_and_the_page_metadata`:
the title is the header's `<h1>` ("Site banner headline") instead of `<title>`, the URL
is `og:url` instead of the canonical link, and the text keeps `<template>` content and
repeats the table as "| Cell one | Cell two |" (with `favor_recall` it also keeps
`<noscript>` text and runs the paragraphs together). `tests/storage/test_documents.py::
test_html_fallbacks_for_title_source_and_date`: inline elements split a paragraph
("Body", "then", "." on lines of their own), and a page of one short paragraph yields
no text at all (`extract` returns None), so it would be refused as unreadable.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from storage.corpus.documents.text import ParsedDoc, date_from_match, decode_text, title_from_text

_SKIPPED = frozenset(
    {"script", "style", "noscript", "template", "nav", "header", "footer", "aside", "head"}
)
_BLOCKS = frozenset(
    """p li h1 h2 h3 h4 h5 h6 div section article br tr blockquote pre ul ol table main
    figure figcaption dl dt dd form hr address details summary caption""".split()
)
_CELLS = frozenset({"td", "th"})
# Page furniture a reader skips whatever its tag: consent dialogs, menus, hidden parts.
_CHROME_ROLES = frozenset(
    {"dialog", "alertdialog", "navigation", "banner", "contentinfo", "complementary", "search"}
)
_VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
# A block whose text is (almost) all link text is a menu or a tool bar ("Share Print
# Gift this article"), not prose.
_LINK_SHARE = 0.9
_DATE = re.compile(r"^\s*(\d{4})-(\d{2})-(\d{2})")


def _furniture(attr: dict[str, str]) -> bool:
    """Whether an element's attributes mark it as furniture: a consent dialog, a menu,
    something hidden."""
    return (
        attr.get("role", "").lower() in _CHROME_ROLES
        or attr.get("aria-hidden", "").lower() == "true"
        or "hidden" in attr
    )


def iso_date(value: str | None) -> str | None:
    """'2024-05-01T10:00:00Z' -> '2024-05-01'; None for anything that is not a real date."""
    return date_from_match(_DATE.match(value or ""))


class _PageParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.paragraphs: list[str] = []
        self._current: list[str] = []
        self._skipping: list[str] = []
        # How often each tag is on `_skipping`: "is this end tag's element being skipped"
        # is answered without a scan of the stack (a scan per end tag made a page of
        # deeply nested furniture quadratic: 0.24 MB took 15 s).
        self._skipped: dict[str, int] = {}
        self._title: list[str] | None = None
        self._h1: list[str] | None = None
        self.title = ""
        self.h1 = ""
        self.urls: dict[str, str] = {}
        self.dates: dict[str, str] = {}
        self._links = 0  # open <a> elements
        self._link_chars = 0  # of the current block's text, inside links

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = {name.lower(): (value or "") for name, value in attrs}
        self._metadata(tag, attr)
        if tag == "title" and not self.title:
            self._title = []
        elif tag == "h1" and not self.h1:
            self._h1 = []
        if tag == "body" and self._skipped.get("head"):
            self._skipping.clear()  # an unclosed <head> ends where the body starts
            self._skipped.clear()
        if tag == "a":
            self._links += 1
        if self._skipping:
            if tag not in _VOID:
                self._skip(tag)  # nesting, so the furniture's own end ends it
        elif tag in _SKIPPED or tag == "button" or _furniture(attr):
            self._skip(tag)
        elif tag in _BLOCKS:
            self._break()
        elif tag in _CELLS:
            self._current.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title" and self._title is not None:
            self.title, self._title = " ".join("".join(self._title).split()), None
        elif tag == "h1" and self._h1 is not None:
            self.h1, self._h1 = " ".join("".join(self._h1).split()), None
        if tag == "a":
            self._links = max(0, self._links - 1)
        if self._skipped.get(tag):
            while self._skipping:
                last = self._skipping.pop()
                self._skipped[last] -= 1
                if last == tag:
                    break
        elif tag in _BLOCKS:
            self._break()
        elif tag in _CELLS:
            self._current.append(" ")

    def _skip(self, tag: str) -> None:
        self._skipping.append(tag)
        self._skipped[tag] = self._skipped.get(tag, 0) + 1

    def handle_data(self, data: str) -> None:
        for sink in (self._title, self._h1):
            if sink is not None:
                sink.append(data)
        if not self._skipping:
            self._current.append(data)
            if self._links:
                self._link_chars += len("".join(data.split()))

    def _metadata(self, tag: str, attr: dict[str, str]) -> None:
        if tag == "link" and "canonical" in attr.get("rel", "").lower().split():
            self.urls.setdefault("canonical", attr.get("href", "").strip())
        elif tag == "meta":
            key = (attr.get("property") or attr.get("name") or "").lower()
            if key in ("og:url", "article:published_time", "date"):
                target = self.urls if key == "og:url" else self.dates
                target.setdefault(key, attr.get("content", "").strip())
        elif tag == "time" and attr.get("datetime"):
            self.dates.setdefault("time", attr["datetime"])

    def _break(self) -> None:
        text = " ".join("".join(self._current).split())
        linked = self._link_chars >= _LINK_SHARE * len("".join(text.split()))
        if text and not linked:
            self.paragraphs.append(text)
        self._current = []
        self._link_chars = 0

    def close(self) -> None:
        super().close()
        self._break()


def read_html(path: Path, raw: bytes) -> ParsedDoc:
    page = _PageParser()
    page.feed(decode_text(raw))
    page.close()
    content = "\n\n".join(page.paragraphs)
    url = page.urls.get("canonical") or page.urls.get("og:url") or path.resolve().as_uri()
    published = None
    for key in ("article:published_time", "date", "time"):
        published = published or iso_date(page.dates.get(key))
    title = page.title or page.h1 or title_from_text(content, path.stem)
    return ParsedDoc(url, title, published, content)
