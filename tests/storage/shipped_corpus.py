"""The demo corpus the local index ships with (storage/corpus/shipped/): its folder and its
Markdown documents, for the tests of the index and of the documents added beside it."""

from __future__ import annotations

from tests.support.paths import SHIPPED_CORPUS

CORPUS_DIR = SHIPPED_CORPUS
DOCS = sorted(CORPUS_DIR.glob("*.md"))
