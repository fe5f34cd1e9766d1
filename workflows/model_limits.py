"""Activity options of the model calls, from the worker's limits (KM_MODEL_*).

A run reads the limits once, with its runtime configuration (recorded in its history),
so every call of the run, replayed or not, has the same. Unset limits keep each call
site's defaults: an agent's call 5 minutes with a heartbeat within 10 s and 5 attempts;
the research planner's 2 minutes and 3 attempts. The plugin's model activity heartbeats
from a side task at half the heartbeat timeout while the model generates, so a slow
model is told from a dead worker by the heartbeat, not by the start-to-close timeout.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from temporalio.common import RetryPolicy

from contracts.model_calls import (
    AGENT_ATTEMPTS,
    AGENT_CALL_SECONDS,
    AGENT_HEARTBEAT_SECONDS,
    ModelLimits,
)
from contracts.run import MiningRequest, RuntimeConfig

RETRY_INTERVAL = timedelta(seconds=2)
PLANNER_CALL_SECONDS = 120
PLANNER_ATTEMPTS = 3


def _options(call: int, heartbeat: int | None, attempts: int) -> dict[str, Any]:
    options: dict[str, Any] = {"start_to_close_timeout": timedelta(seconds=call)}
    if heartbeat is not None:
        options["heartbeat_timeout"] = timedelta(seconds=heartbeat)
    options["retry_policy"] = RetryPolicy(
        maximum_attempts=attempts, initial_interval=RETRY_INTERVAL
    )
    return options


def run_limits(request: MiningRequest, runtime: RuntimeConfig) -> ModelLimits | None:
    """The limits of a run's model calls: the request's own (`MiningRequest.modelLimits`)
    field by field over the worker's (`RuntimeConfig.modelLimits`); both are in the run's
    history, so replay reads the same."""
    own = request.modelLimits
    return own.over(runtime.modelLimits) if own is not None else runtime.modelLimits


def agent_options(limits: ModelLimits | None) -> dict[str, Any]:
    """An agent's model-call options (`limits` None: a run recorded before they existed)."""
    limits = limits or ModelLimits()
    return _options(
        limits.callSeconds or AGENT_CALL_SECONDS,
        limits.heartbeatSeconds or AGENT_HEARTBEAT_SECONDS,
        limits.attempts or AGENT_ATTEMPTS,
    )


def planner_options(limits: ModelLimits | None) -> dict[str, Any]:
    """The research planner's model-call options."""
    limits = limits or ModelLimits()
    return _options(
        limits.callSeconds or PLANNER_CALL_SECONDS,
        limits.heartbeatSeconds,
        limits.attempts or PLANNER_ATTEMPTS,
    )


def on_queue(options: dict[str, Any], queue: str | None) -> dict[str, Any]:
    """Model-call activity options, sent to `queue` when the run has a model queue."""
    return options if queue is None else {**options, "task_queue": queue}
