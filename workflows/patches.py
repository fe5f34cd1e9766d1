"""Which patched branches a run takes, decided in its first workflow task.

`workflow.patched(id)` answers from what the worker has been told of the history so
far: on replay it is True only if the marker of `id` lies in the workflow task being
replayed (the SDK is notified of the markers task by task, and memoizes the first
answer for the whole run). Asked after a local activity, its answer depended on timing:
under load a local activity's marker can be written in one workflow task while the
workflow only learns its result in the next (a workflow task that timed out or
heartbeat in between), so the patch marker asked after it lands one task later than
where a replay, resolving the local activity from its marker at once, asks for it.
That replay gets False, and fails with "[TMPRL1100] Non-deprecated patch marker
encountered" (issue 24: 7 of 140 runs started in bursts of 50).

So a run asks one patch, `PATCHES_AT_START`, in its first activation, before it
schedules anything: there no timing can move it. A run that has it takes every branch
patched before it (`ASKED_IN_PLACE`) without asking. A run recorded without it (before
this release) asks those where it always did, so its history replays as recorded. A new
patch goes to `ASKED_AT_START`: asked at the start of every run, never in place.
"""

from __future__ import annotations

from temporalio import workflow

PATCHES_AT_START = "patches-asked-at-start"
DEGRADE_PATCH = "model-failure-degrades-step"  # a failing model degrades its step
# Signal and update handlers wait until no local activity is in flight
# (workflows/run_clock.py `handler_arrived`).
HANDLERS_WAIT_PATCH = "handlers-wait-for-local-results"
# Asked at the start of each run, in this order, after PATCHES_AT_START.
ASKED_AT_START: tuple[str, ...] = (DEGRADE_PATCH, HANDLERS_WAIT_PATCH)

# The patches shipped before PATCHES_AT_START, asked where their branch is by runs
# recorded without it.
RESEARCH_PATCH = "research-plan"  # discovery as a research plan (seed 004)
BUDGETS_PATCH = "agent-budgets"  # model-call, token and wall-time budgets
CONTINUE_AS_NEW_PATCH = "continue-as-new"  # between the stages of a long run
LOCAL_STEPS_PATCH = "local-cheap-steps"  # runtime config, notes, answer, audit: local
AUDIT_DECISIONS_PATCH = "audit-decisions"  # reviewers' decisions audited
LOCAL_TOOLS_PATCH = "local-cheap-tools"  # DKG reads and scoring: local activities
LOCAL_MODEL_PATCH = "rules-model-calls-local"  # rules policy calls: local activities
POLICY_IN_WORKFLOW_PATCH = "rules-policy-in-workflow"  # rules policy: in the workflow
ASKED_IN_PLACE = frozenset(
    {
        RESEARCH_PATCH,
        BUDGETS_PATCH,
        CONTINUE_AS_NEW_PATCH,
        LOCAL_STEPS_PATCH,
        AUDIT_DECISIONS_PATCH,
        LOCAL_TOOLS_PATCH,
        LOCAL_MODEL_PATCH,
        POLICY_IN_WORKFLOW_PATCH,
    }
)


class RunPatches:
    """One run's answers; built in the run's first activation, before any await."""

    def __init__(self) -> None:
        self.asked_at_start = workflow.patched(PATCHES_AT_START)
        self._at_start = {
            patch: self.asked_at_start and workflow.patched(patch) for patch in ASKED_AT_START
        }

    def patched(self, patch: str) -> bool:
        """Whether the run takes the patched branch of `patch`."""
        if patch in self._at_start:
            return self._at_start[patch]
        if patch not in ASKED_IN_PLACE:
            raise ValueError(f"patch {patch!r} is asked neither at the start nor in place")
        return self.asked_at_start or workflow.patched(patch)


def patched(patch: str) -> bool:
    """`RunPatches.patched` of the running workflow, for code shared by every run (tools,
    the model) that holds no reference to it; a workflow without `RunPatches` (a test's
    or a bench's) asks in place."""
    patches = getattr(workflow.instance(), "run_patches", None)
    if isinstance(patches, RunPatches):
        return patches.patched(patch)
    return workflow.patched(patch)
