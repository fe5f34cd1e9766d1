"""The ceiling of bench/throughput.py: a trivial workflow of 3 activities that do nothing.

Its own module, with nothing at import time, because Temporal's sandbox re-imports it.
"""

from __future__ import annotations

from datetime import timedelta

from temporalio import activity, workflow

STEPS = 3


@activity.defn(name="bench_noop")
async def noop(step: int) -> int:
    return step


@workflow.defn(name="BenchTrivialWorkflow")
class TrivialWorkflow:
    @workflow.run
    async def run(self) -> int:
        total = 0
        for step in range(STEPS):
            total += await workflow.execute_activity(
                noop, step, start_to_close_timeout=timedelta(seconds=30)
            )
        return total
