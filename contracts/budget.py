"""Budget limits of a run and of each subagent (pure models: the contract imports them)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Limits(BaseModel):
    model_config = ConfigDict(extra="forbid")

    modelCalls: int | None = Field(default=None, ge=1)
    tokens: int | None = Field(default=None, ge=1, description="input + output tokens")
    seconds: int | None = Field(default=None, ge=1, description="wall time")


class Budget(BaseModel):
    """Generous defaults: a rules run at maxIterations 10 makes 13 model calls."""

    model_config = ConfigDict(extra="forbid")

    run: Limits = Field(
        default_factory=lambda: Limits(modelCalls=150, tokens=3_000_000, seconds=3600)
    )
    subagent: Limits = Field(
        default_factory=lambda: Limits(modelCalls=60, tokens=1_500_000, seconds=1800)
    )
