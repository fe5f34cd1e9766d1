"""Model calls of the offline rules policy: decided in the workflow itself.

The plugin's `TemporalModel` sends every generation to the task queue as an activity:
right for a provider model, whose answer is nondeterministic, takes seconds, may be
rate-limited and must heartbeat. The `rules` policy (`workflows/agents/policy.py`) is
none of that: a pure function of the conversation, answering in microseconds. As an
activity, even a local one, each of a run's nine calls serialized the whole conversation
(10 to 25 kB), crossed to the activity worker and back, and cost a workflow activation:
more worker CPU than the decision itself. `LocalModel` therefore decides in the
workflow, as any deterministic workflow logic does (50 concurrent runs on one worker:
p95 10.1 s -> 8.9 s, bench/throughput.py, 2026-11-25).

Being workflow code has the workflow-code rule: a change to what the policy decides goes
behind a patch (asked at the start of the run, workflows/patches.py), or a run recorded
before it (one waiting in review, say) diverges on replay.
tests/workflows/test_replay_previous_release.py replays histories recorded with the policy
deciding here, so such a change fails CI.

Only a run whose model is `rules` and which has no model queue gets it (`model_for`);
any other model keeps the plugin's queued call. Runs recorded before replay their model
calls as they made them: as queued activities (no `LOCAL_MODEL_PATCH`) or as local
activities (no `POLICY_IN_WORKFLOW_PATCH`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from temporalio import workflow

from workflows.patches import LOCAL_MODEL_PATCH, POLICY_IN_WORKFLOW_PATCH, patched
from workflows.run_clock import run_clock

with workflow.unsafe.imports_passed_through():
    from langchain_core.messages import BaseMessage
    from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
    from temporalio.deepagents import TemporalModel
    from temporalio.deepagents import _activity as plugin_activity
    from temporalio.deepagents import _serde as plugin_serde
    from temporalio.deepagents._model import _as_message_chunk

    from workflows.agents.policy import RulesPolicyModel

# The policy computed beside the workflow, whose calls are short enough to run locally.
LOCAL_POLICY = "rules"
# Options a local activity keeps; queue and heartbeat options are for queued ones only,
# and a call of milliseconds gets its own timeout.
LOCAL_OPTIONS = ("schedule_to_close_timeout", "retry_policy")
LOCAL_TIMEOUT = timedelta(seconds=30)


class LocalModel(TemporalModel):
    """`TemporalModel` of the rules policy, deciding in the workflow (see the module doc)."""

    def bind_tools(self, tools: Sequence[Any], *, tool_choice: Any = None, **kwargs: Any) -> Any:
        # The rules policy knows its tools by role and ignores any binding
        # (`RulesPolicyModel.bind_tools`). Their JSON schemas, 9 to 18 kB a call, would be
        # built for every call (and, replaying a run whose calls were activities, serialized
        # into each) only to be ignored.
        if tool_choice is not None:
            kwargs["tool_choice"] = tool_choice
        return self.bind(**kwargs)

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        if patched(POLICY_IN_WORKFLOW_PATCH):
            return RulesPolicyModel()._generate(messages)
        if not patched(LOCAL_MODEL_PATCH):
            return await super()._agenerate(messages, stop, run_manager, **kwargs)
        options = {k: v for k, v in (self.activity_options or {}).items() if k in LOCAL_OPTIONS}
        options["start_to_close_timeout"] = LOCAL_TIMEOUT
        output = await run_clock().local_activity(
            plugin_activity.INVOKE_MODEL,
            self._build_input(messages, None, stop=stop, **kwargs),
            result_type=plugin_activity.ModelActivityOutput,
            summary=self._summary(),
            **options,
        )
        message = plugin_serde.load_object(output.message)
        return ChatResult(generations=[ChatGeneration(message=message)])

    async def _astream(self, *args: Any, **kwargs: Any) -> Any:
        # One response-level chunk, as the plugin streams without a topic.
        result = await self._agenerate(*args, **kwargs)
        yield ChatGenerationChunk(message=_as_message_chunk(result.generations[0].message))


class ClockedModel(TemporalModel):
    """The plugin's queued model call, whose result moves the run's clock on.

    The call is a non-local activity that the plugin schedules, not `RunClock.activity`:
    live, its result may come in the same workflow task as a late local activity's, and
    the clock would go on holding that activity's start for what the run stamps next (its
    log entries), where a replay reads the task's time (workflows/run_clock.py)."""

    async def _agenerate(self, *args: Any, **kwargs: Any) -> ChatResult:
        try:
            return await super()._agenerate(*args, **kwargs)
        finally:
            run_clock().moved()

    async def _astream(self, *args: Any, **kwargs: Any) -> Any:
        stream = super()._astream(*args, **kwargs)
        while True:
            try:
                chunk = await anext(stream)  # the plugin yields once its activity returned
            except StopAsyncIteration:
                return
            finally:
                run_clock().moved()
            yield chunk


def model_for(name: str, options: dict[str, Any]) -> TemporalModel:
    """The durable model of a run: local calls for the rules policy when its options send
    the calls to no model queue of their own."""
    if name == LOCAL_POLICY and "task_queue" not in options:
        return LocalModel(model=name, activity_options=dict(options))
    return ClockedModel(model=name, activity_options=dict(options))
