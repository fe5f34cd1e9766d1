"""Model-call activity options from the worker's limits: unset limits keep the defaults
each call site always had."""

from __future__ import annotations

from datetime import timedelta

from temporalio.common import RetryPolicy

from contracts.model_calls import ModelLimits
from workflows.model_limits import agent_options, on_queue, planner_options

TWO_SECONDS = timedelta(seconds=2)


def test_unset_limits_keep_each_call_sites_defaults() -> None:
    for limits in (None, ModelLimits()):
        assert agent_options(limits) == {
            "start_to_close_timeout": timedelta(minutes=5),
            "heartbeat_timeout": timedelta(seconds=10),
            "retry_policy": RetryPolicy(maximum_attempts=5, initial_interval=TWO_SECONDS),
        }
        assert planner_options(limits) == {
            "start_to_close_timeout": timedelta(minutes=2),
            "retry_policy": RetryPolicy(maximum_attempts=3, initial_interval=TWO_SECONDS),
        }


def test_set_limits_apply_to_every_model_call() -> None:
    limits = ModelLimits(callSeconds=900, heartbeatSeconds=60, attempts=2)
    for options in (agent_options(limits), planner_options(limits)):
        assert options["start_to_close_timeout"] == timedelta(seconds=900)
        assert options["heartbeat_timeout"] == timedelta(seconds=60)
        assert options["retry_policy"].maximum_attempts == 2
    assert on_queue(agent_options(limits), "models")["task_queue"] == "models"
    assert "task_queue" not in on_queue(agent_options(limits), None)
