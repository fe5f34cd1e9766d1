"""A failing model degrades its step, never the run (seed 000 "Timeout Handling").

A step degrades when its model call fails for good (the activity's attempts exhausted,
its timeout reached, or a reply refused twice, activities/chat_model.py), when its
subagent ends without the tool calls its job needs (discovery without any search,
enrichment without proposing, validation without scoring), or when a budget stops it.
The step then falls back to the rules policy, the same tools in their fixed order
(workflows/agents/policy.py, deciding in the workflow), or, when its work was already
done or a budget stopped it, ends with what it has. The run goes on to COMPLETED; what
was gathered before is kept; the workspace, the answer and the report name the step.

Runs recorded before this existed failed on such a model error, or took such an ending as
the subagent's answer: behind `DEGRADE_PATCH` they replay so.
"""

from __future__ import annotations

from typing import Any, TypeVar

from temporalio.exceptions import ActivityError, ApplicationError, is_cancelled_exception

from contracts.activity_names import (
    DKG_FIND_RELATED_ASSETS,
    PROPOSE_KNOWLEDGE_ASSETS,
    SCORE_CANDIDATES,
    WEB_SEARCH,
)
from contracts.model_calls import UNUSABLE_REPLY, DegradedStep
from contracts.run import Answer

# The plugin's model-call activities (temporalio.deepagents._activity).
MODEL_ACTIVITIES = frozenset({"deepagents.invoke_model", "deepagents.invoke_model_streaming"})
# A subagent's job is done once it has called one of these.
JOB_TOOLS: dict[str, tuple[str, ...]] = {
    "discovery": (WEB_SEARCH, DKG_FIND_RELATED_ASSETS),
    "enrichment": (PROPOSE_KNOWLEDGE_ASSETS,),
    "validation": (SCORE_CANDIDATES,),
}
REASON_CHARS = 300
E = TypeVar("E", bound=BaseException)


def _cause(exc: BaseException, kind: type[E]) -> E | None:
    """`exc` or the first of its causes that is a `kind`."""
    seen: BaseException | None = exc
    while seen is not None and not isinstance(seen, kind):
        seen = seen.__cause__
    return seen


def model_failure(exc: BaseException) -> str | None:
    """Why a model call failed for good, when `exc` is that (not a cancel, not a tool's)."""
    seen = _cause(exc, ActivityError)
    if seen is None or seen.activity_type not in MODEL_ACTIVITIES:
        return None
    if is_cancelled_exception(seen):
        return None
    cause = seen.cause
    detail = getattr(cause, "message", None) or str(cause or seen)
    state = seen.retry_state
    retry = f" ({state.name.lower().replace('_', ' ')})" if state is not None else ""
    return f"its model call failed: {detail}{retry}"[:REASON_CHARS]


def spent_on_failure(exc: BaseException) -> dict[str, int]:
    """The model calls and tokens a failed call still spent: the two replies refused as
    unusable (activities/chat_model.py says them in its error's details); else none."""
    seen = _cause(exc, ApplicationError)
    if seen is None or seen.type != UNUSABLE_REPLY or not seen.details:
        return {}
    details = seen.details[0]
    if not isinstance(details, dict):
        return {}
    keys = ("modelCalls", "inputTokens", "outputTokens")
    return {k: int(details.get(k, 0)) for k in keys if isinstance(details.get(k, 0), int)}


def _called(messages: list[Any]) -> set[str]:
    return {str(m.name) for m in messages if m.type == "tool" and getattr(m, "name", None)}


def job_done(role: str, messages: list[Any]) -> bool:
    """Whether the subagent made a call its job needs (a role without one: always)."""
    needed = JOB_TOOLS.get(role)
    return needed is None or bool(_called(messages) & set(needed))


def missing_work(role: str, messages: list[Any]) -> str | None:
    """Why a subagent that ended is not done, None when it is."""
    if job_done(role, messages):
        return None
    return f"it ended without calling {' or '.join(JOB_TOOLS[role])}"


def with_degraded_lines(report: str, steps: list[DegradedStep]) -> str:
    """The synthesized report, with a line per degraded step."""
    if not steps:
        return report
    lines = "\n".join(f"- {s.sentence()}" for s in steps)
    return f"{report}\n\nDegraded steps (the run completed without their model):\n{lines}"


def with_degraded_note(answer: Answer, steps: list[DegradedStep]) -> Answer:
    """The answer, saying which steps degraded and why (it may lack what they would add)."""
    if not steps:
        return answer
    note = " ".join(s.sentence() for s in steps)
    text = f"{answer.text} {note}".strip()
    return answer.model_copy(update={"text": text})
