"""Discovery statements by reference: the enrichment model sees a compact view of each.

A statement carries its sentence and provenance (source, passage, offsets, date): about
300 bytes of a 17 kB list for a typical question. Every model call carries the whole
conversation, so that list, shown in the enrichment task and repeated in the call to
`propose_knowledge_assets`, was sent again with every later call and recorded each time.
Instead the task shows one compact row per statement (its ends, relation and relevance:
what linking and choosing need) and the model passes `statementsRef`; the workflow hands
the activity the full statements it stands for (as `workflows/candidate_refs.py` does for
candidates).
"""

from __future__ import annotations

from typing import Any

from contracts.tools import ProposeArgs, ProposeToolArgs

# The reference the model passes: the research file the statements are written to.
STATEMENTS_FILE = "/research/statements.json"
# What the model needs to link a statement's names and judge it; the rest is provenance.
VIEW_FIELDS = ("subject", "subjectUal", "subjectType", "predicate", "object", "objectUal",
               "objectType", "goods", "goodsUal", "goodsType", "relevance")  # fmt: skip
# Flags worth showing only when set.
VIEW_FLAGS = ("negated", "hedged")


def statement_view(index: int, statement: dict[str, Any]) -> dict[str, Any]:
    """One statement as the model sees it: what it relates, without its provenance."""
    view: dict[str, Any] = {"id": index}
    view.update({k: statement[k] for k in VIEW_FIELDS if statement.get(k) is not None})
    view.update({k: True for k in VIEW_FLAGS if statement.get(k)})
    return view


def statement_views(statements: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [statement_view(i, s) for i, s in enumerate(statements)]


def resolve_statements(args: ProposeToolArgs, statements: list[dict[str, Any]]) -> ProposeArgs:
    """The activity's arguments: the reference stands for every discovery statement, and
    statements the model wrote itself follow them."""
    given = [s.model_dump() for s in args.statements]
    by_ref = list(statements) if args.statementsRef == STATEMENTS_FILE else []
    # ProposeArgs has no statementsRef (it ignores the key); the statements are replaced.
    return ProposeArgs.model_validate({**args.model_dump(), "statements": by_ref + given})
