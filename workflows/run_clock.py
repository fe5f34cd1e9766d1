"""The run's clock: workflow time that the live run and every replay of its history read
alike, for what the run stamps (its log entries, research statuses, decisions).

`workflow.now()` is not that clock right after a local activity. When a local activity
returns, the SDK moves workflow time to its completion as recorded in its marker, and a
replay reads it from the marker; but the live run is handed the result late whenever its
workflow task was completed before the result reached the workflow (as it is to answer
the queries a streaming client sends), and then reads the start of the next workflow
task instead. Measured on 20 concurrent runs: a research step logged at 38.721 s live
and at 37.660 s (the marker's completion time) in every replay of the same history.

So after a local activity the clock holds the time the activity was started at, for as
long as workflow time stays where the activity's return left it: the code that runs on
from the result reads the same time live and in replay. A later workflow task (an
activity's or timer's result, a signal or an update) moves workflow time on, and the
clock reads it again; so does a non-local activity's result (`moved`), which a live run
may be handed in the same workflow task as a late local one: the run's own activities
(`activity`) and the model calls the plugin queues (`workflows.local_model.ClockedModel`).

A signal or an update that reaches the run while a local activity is in flight waits for
it (`handler_arrived`, for runs that ask `HANDLERS_WAIT_PATCH`). Live, such a handler may be
handed the update in the same workflow task as a late local result, and the SDK runs it
before the code that goes on from that result; a replay resolves the local activity from
its marker a task earlier, so the same code runs before the handler. Waiting until no
local activity is in flight puts the handler after that code in both. The handler stamps
what it records no earlier than the time it arrived at, which both read alike: live, the
held start of the late local activity would stamp it earlier than the replay's.

Each run has its own clock (`MiningWorkflow._clock`); `RUN_CLOCK` hands it to the code
that runs on the run's tasks (agent tools, the local model), as `RUN_SCOPE` does the ledger.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from datetime import datetime
from typing import Any

from temporalio import workflow


class RunClock:
    def __init__(self, read: Callable[[], datetime] = workflow.now) -> None:
        self._read = read
        self._held: datetime | None = None  # the start of the local activity returned last
        self._left_at: datetime | None = None  # workflow time when it returned
        self._local_in_flight = 0

    @property
    def quiet(self) -> bool:
        """Whether no local activity is in flight."""
        return self._local_in_flight == 0

    def now(self) -> datetime:
        """The run's time: workflow time, or the held time while it stands where the
        last local activity left it. Reads only (a query may call it)."""
        current = self._read()
        if self._held is not None and current == self._left_at:
            current = self._held
        arrived = HANDLER_ARRIVAL.get()
        return current if arrived is None else max(current, arrived)

    async def local_activity(self, *args: Any, **kwargs: Any) -> Any:
        """`workflow.execute_local_activity(*args, **kwargs)`, holding the clock after."""
        began = self.now()
        self._local_in_flight += 1
        try:
            return await workflow.execute_local_activity(*args, **kwargs)
        finally:
            self._local_in_flight -= 1
            self._held, self._left_at = began, self._read()

    async def handler_arrived(self) -> None:
        """Called first by a signal or update handler: note when it arrived (for its own
        task's reads of `now`), then wait until no local activity is in flight."""
        HANDLER_ARRIVAL.set(self._read())
        await workflow.wait_condition(lambda: self.quiet)

    async def activity(self, *args: Any, **kwargs: Any) -> Any:
        """`workflow.execute_activity(*args, **kwargs)`; its result moves the clock on."""
        try:
            return await workflow.execute_activity(*args, **kwargs)
        finally:
            self.moved()

    def moved(self) -> None:
        """A result that is not a local activity's arrived: workflow time holds again."""
        self._held = None


# The workflow time a signal or an update arrived at, in its handler's task only (an
# asyncio task copies the context it is created in, so setting it there touches no other).
HANDLER_ARRIVAL: ContextVar[datetime | None] = ContextVar("kminer_handler_arrival", default=None)
RUN_CLOCK: ContextVar[RunClock] = ContextVar("kminer_run_clock")


def run_clock() -> RunClock:
    """The clock of the run whose task is running (set by `MiningWorkflow.run`)."""
    try:
        return RUN_CLOCK.get()
    except LookupError:
        raise RuntimeError("run_clock() outside a run: MiningWorkflow.run sets it") from None
