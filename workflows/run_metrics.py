"""Run metrics recorded from inside the workflow through Temporal's workflow metric meter.

The meter skips recording while a workflow replays, so a phase is counted once however
often its history is replayed. `temporal_client/telemetry.py` carries the figures on to the
Prometheus registry that `/metrics` serves.
"""

from __future__ import annotations

from datetime import datetime

from temporalio import workflow

from contracts.run import Usage

PHASE_SECONDS = "kminer_phase_duration_seconds"
MODEL_TOKENS = "kminer_model_tokens"
MODEL_CALLS = "kminer_model_calls"
RUNS_ENDED = "kminer_runs_ended"
# The meter's counters take integers: the cost estimate travels in micro-dollars.
MODEL_COST = "kminer_model_cost_microusd"


def phase_finished(phase: str, began: datetime) -> None:
    seconds = max(0.0, (workflow.now() - began).total_seconds())
    workflow.metric_meter().create_histogram_float(
        PHASE_SECONDS, "Time a run spent in a phase", "s"
    ).with_additional_attributes({"phase": phase}).record(seconds)


def run_ended(outcome: str, model: str, usage: Usage) -> None:
    meter = workflow.metric_meter().with_additional_attributes({"model": model})
    meter.create_counter(RUNS_ENDED, "Runs that ended, by outcome").add(1, {"outcome": outcome})
    tokens = meter.create_counter(MODEL_TOKENS, "Model tokens used by runs")
    for kind, count in (("input", usage.inputTokens), ("output", usage.outputTokens)):
        if count > 0:
            tokens.add(count, {"kind": kind})
    if usage.modelCalls > 0:
        meter.create_counter(MODEL_CALLS, "Model calls made by runs").add(usage.modelCalls)
    if usage.costUsd:
        micro = round(usage.costUsd * 1_000_000)
        if micro > 0:
            meter.create_counter(MODEL_COST, "Estimated model cost of runs", "uUSD").add(micro)
