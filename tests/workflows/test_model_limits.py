"""Model-call activity options from the worker's limits, or a request's own over them:
unset limits keep the defaults each call site always had."""

from __future__ import annotations

from datetime import timedelta

import pytest
from pydantic import ValidationError
from temporalio.common import RetryPolicy

from contracts.model_calls import ModelLimits
from contracts.run import MiningRequest, RuntimeConfig
from workflows.model_limits import agent_options, on_queue, planner_options, run_limits

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


def test_a_requests_own_limits_go_over_the_workers_field_by_field() -> None:
    limits = ModelLimits(callSeconds=300, heartbeatSeconds=20)
    worker = RuntimeConfig(model="rules", search="corpus", dkg="embedded", modelLimits=limits)
    slow_model = MiningRequest(query="q", modelLimits={"callSeconds": 1200, "attempts": 2})
    assert run_limits(slow_model, worker) == ModelLimits(
        callSeconds=1200, heartbeatSeconds=20, attempts=2
    )
    assert run_limits(MiningRequest(query="q"), worker) == worker.modelLimits
    unset = RuntimeConfig(model="rules", search="corpus", dkg="embedded")
    assert run_limits(slow_model, unset) == slow_model.modelLimits


@pytest.mark.parametrize(
    "limits",
    [
        {"callSeconds": 0},
        {"attempts": 21},
        {"callSeconds": 60, "heartbeatSeconds": 60},
        {"callSeconds": 60, "retries": 2},
    ],
)
def test_a_request_with_limits_no_model_call_can_keep_is_refused(limits: dict) -> None:
    with pytest.raises(ValidationError):
        MiningRequest(query="q", modelLimits=limits)


def test_a_requests_limits_over_the_workers_never_raise_in_the_workflow() -> None:
    # Each side is valid alone; merged, the heartbeat is above the call's timeout. The
    # merge runs in workflow code, so it is taken as it is rather than refused there.
    worker = RuntimeConfig(
        model="rules", search="corpus", dkg="embedded", modelLimits=ModelLimits(callSeconds=30)
    )
    late = MiningRequest(query="q", modelLimits={"heartbeatSeconds": 60})
    assert run_limits(late, worker) == ModelLimits.model_construct(
        callSeconds=30, heartbeatSeconds=60, attempts=None
    )
