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

from contracts.model_views import statement_view, statement_views
from contracts.tools import ProposeArgs, ProposeToolArgs

# The reference the model passes: the research file the statements are written to.
STATEMENTS_FILE = "/research/statements.json"


def resolve_statements(args: ProposeToolArgs, statements: list[dict[str, Any]]) -> ProposeArgs:
    """The activity's arguments: every discovery statement, and the statements the model
    wrote itself after them. Passed or left out, the reference stands: a small model
    often leaves it out and writes a few statements of its own, and proposing from those
    alone threw the run's research away (Qwen2.5-Coder-1.5B on the climate set: 5
    candidates where the same research gives 20 claims)."""
    given = [s.model_dump() for s in args.statements]
    by_ref = list(statements)
    # ProposeArgs has no statementsRef (it ignores the key); the statements are replaced.
    return ProposeArgs.model_validate({**args.model_dump(), "statements": by_ref + given})


__all__ = ["STATEMENTS_FILE", "resolve_statements", "statement_view", "statement_views"]
