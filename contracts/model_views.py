"""What a model is shown of a statement: the compact row, without its provenance.

A statement carries its sentence and provenance (source, passage, offsets, date): about
300 bytes each, most of a statement list's size. A model linking names or judging what
was found needs the ends, the relation and the relevance; the full statements stay with
the workflow, behind `statementsRef` (workflows/statement_refs.py), and a model reading
`extract_statements`' answer is shown these rows (activities/model_view.py).
"""

from __future__ import annotations

from typing import Any

# What the model needs to link a statement's names and judge it; the rest is provenance.
VIEW_FIELDS = ("subject", "subjectUal", "subjectType", "predicate", "object", "objectUal",
               "objectType", "goods", "goodsUal", "goodsType", "relevance")  # fmt: skip
# Flags worth showing only when set.
VIEW_FLAGS = ("negated", "hedged")
# What a model judging what was found needs of it (links come later, from enrichment):
# a UAL is some 30 tokens, the most of a row.
FOUND_FIELDS = ("subject", "predicate", "object", "goods", "relevance")


def statement_view(
    index: int, statement: dict[str, Any], fields: tuple[str, ...] = VIEW_FIELDS
) -> dict[str, Any]:
    """One statement as the model sees it: what it relates, without its provenance."""
    view: dict[str, Any] = {"id": index}
    view.update({k: statement[k] for k in fields if statement.get(k) is not None})
    view.update({k: True for k in VIEW_FLAGS if statement.get(k)})
    return view


def statement_views(
    statements: list[dict[str, Any]], fields: tuple[str, ...] = VIEW_FIELDS
) -> list[dict[str, Any]]:
    return [statement_view(i, s, fields) for i, s in enumerate(statements)]
