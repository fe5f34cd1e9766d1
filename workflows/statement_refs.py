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


def resolve_statements(
    args: ProposeToolArgs, statements: list[dict[str, Any]], room: int | None = None
) -> ProposeArgs:
    """The activity's arguments: every discovery statement, and the statements the model
    wrote itself after them. Passed or left out, the reference stands: a small model may
    leave it out and write a few statements of its own, and proposing from those alone
    would drop the run's research. Likewise a call that leaves maxCandidates out gets
    `room`, the run's room its task names, not the field's default of 8."""
    given = [s.model_dump() for s in args.statements]
    by_ref = list(statements)
    fields = {**args.model_dump(), "statements": by_ref + given}
    if room is not None and "maxCandidates" not in args.model_fields_set:
        fields["maxCandidates"] = room  # the run's room, not the field's default of 8
    # ProposeArgs has no statementsRef (it ignores the key); the statements are replaced.
    return ProposeArgs.model_validate(fields)


__all__ = ["STATEMENTS_FILE", "resolve_statements", "statement_view", "statement_views"]
