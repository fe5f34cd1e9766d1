"""What the model calls of a run share across layers: their limits, how a reply was read,
and the record of a step that degraded.

A small model served behind `OPENAI_BASE_URL` answers slowly, writes its tool calls as
text, or stops answering. The worker reads such a reply (activities/chat_model.py) and
marks it in the reply's `response_metadata`; the workflow counts the marks in the run's
usage. A step whose model fails for good degrades instead of failing the run
(workflows/degradation.py) and is named in the workspace, the answer and the report.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

# `response_metadata` keys of a model reply: tool calls the worker read from the reply's
# text, and replies it refused back to the model once (a tool call it could not use, or a
# reply cut at the token limit).
PARSED_FROM_TEXT = "kminerToolCallsFromText"
REFUSED = "kminerRepliesRefused"
# Why the worker gives up on a reply it refused twice (an activity error of this type,
# not retried: the step degrades instead).
UNUSABLE_REPLY = "UnusableModelReply"
# An agent's model call by default: 5 minutes, heartbeat within 10 s, 5 attempts.
AGENT_CALL_SECONDS = 300
AGENT_HEARTBEAT_SECONDS = 10
AGENT_ATTEMPTS = 5


class ModelLimits(BaseModel):
    """Limits of one model-call activity: the worker's (KM_MODEL_*) or a request's own
    (`MiningRequest.modelLimits`, field by field over the worker's); None: each call
    site's default."""

    model_config = ConfigDict(extra="forbid")

    callSeconds: int | None = Field(default=None, ge=1, le=86_400, description="start-to-close")
    heartbeatSeconds: int | None = Field(default=None, ge=1, le=3_600)
    attempts: int | None = Field(default=None, ge=1, le=20, description="maximum attempts")

    @model_validator(mode="after")
    def _heartbeat_within_the_call(self) -> ModelLimits:
        if self.callSeconds and self.heartbeatSeconds and self.heartbeatSeconds >= self.callSeconds:
            raise ValueError(
                f"heartbeatSeconds ({self.heartbeatSeconds}) must be less than callSeconds "
                f"({self.callSeconds})"
            )
        return self

    def over(self, base: ModelLimits | None) -> ModelLimits:
        """These limits where set, `base`'s (the worker's) where not.

        Not validated again: each side was when it was read, and this runs in workflow
        code, where a raise would fail the run's task over and over. A request's heartbeat
        above the worker's call timeout ({"heartbeatSeconds": 60} over callSeconds 30) only
        never fires before the call's own timeout does."""
        return (base or ModelLimits()).model_copy(update=self.model_dump(exclude_none=True))


class DegradedStep(BaseModel):
    """A step of the run that went on without its model: which one, why, and how."""

    step: str
    reason: str
    fallback: Literal["rules policy", "rules plan", "partial results"]

    def sentence(self) -> str:
        return (
            f"The {self.step} step degraded ({self.reason}); it went on with the {self.fallback}."
        )
