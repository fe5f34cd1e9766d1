"""`read_statements` memoised by content: the document and the gazetteer it was read with.

Reading a text (spaCy's parse, mentions, relation rules) is the worker's largest CPU cost
and it is pure given the document and the gazetteer (`mining/extraction.py`): the
same passage, or the same DKG description, read again while the DKG's names have not
changed gives the same statements. Concurrent runs of one question read the same
passages; enrichment's corroboration reads the same asset descriptions in every run.

The key is the document's JSON and a digest of the whole gazetteer, so a published asset
(a new name) is a new key, never a stale answer. Callers get their own copies of the
statements: they set relevance on them in place.
"""

from __future__ import annotations

from contracts.tools import SourceDocument, Statement
from mining import extraction
from mining.extraction import ReadingOverBudget, read_statements
from mining.extraction_patterns import Gazetteer
from mining.memo import BoundedMemo
from mining.nlp import Resolver, gazetteer_digest

# Passages and descriptions a worker reads over and over; each entry is a few statements.
READS_KEPT = 4096

_reads: BoundedMemo[tuple[str, str], tuple[Statement, ...]] = BoundedMemo(READS_KEPT)
_over_budget: BoundedMemo[tuple[str, str], bool] = BoundedMemo(READS_KEPT)


class StatementReader:
    """Reads documents against one gazetteer (digested once), through the shared memo."""

    def __init__(
        self, gazetteer: Gazetteer, resolver: Resolver, digest: str | None = None
    ) -> None:
        self._gazetteer = gazetteer
        self._resolver = resolver
        self._digest = digest or gazetteer_digest(gazetteer)
        self.skipped: list[str] = []  # texts over their reading budget, as source#passage

    def read(self, doc: SourceDocument) -> list[Statement]:
        """The text's statements; none for a text over its reading budget, which is
        remembered as read (empty) and listed in `skipped`, so no retry reads it again."""
        key = (self._digest, doc.model_dump_json())

        def read_once() -> tuple[Statement, ...]:
            try:
                budget = extraction.READING_BUDGET_S  # read now: tests lower it
                return tuple(read_statements(doc, self._gazetteer, self._resolver, budget))
            except ReadingOverBudget:
                _over_budget.get(key, lambda: True)
                return ()

        found = _reads.get(key, read_once)
        if not found and key in _over_budget:
            self.skipped.append(f"{doc.source}#{doc.passageId or ''}")
        return [st.model_copy() for st in found]


def shared_reads() -> BoundedMemo[tuple[str, str], tuple[Statement, ...]]:
    """The process's memo (tests look at it)."""
    return _reads
