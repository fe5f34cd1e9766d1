"""Long reading work that stops when asked: a stop event in scope, checked between steps.

Reading a corpus (searching it, naming a document's parts, parsing passage after passage)
runs in worker threads, and a thread cannot be cancelled from outside. When the activity
that runs it ends or is cancelled (a worker's shutdown grace is over), it sets the event
of its `interruptible` scope; every `check()` inside the work then raises `Interrupted`,
so the thread ends within one step instead of reading on for seconds while its server is
already gone.

The scope is a context variable, not a parameter threaded through every reader: threads
started with `asyncio.to_thread` run in a copy of the caller's context, so the scope
reaches the readers wherever they are called from, and code run outside any scope (tests,
the CLI's own reads) never stops.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_STOP: ContextVar[threading.Event | None] = ContextVar("km_stop", default=None)


class Interrupted(RuntimeError):
    """The work was asked to stop (its activity was cancelled); nothing it did is kept as a
    result, so whoever retries it reads again."""


@contextmanager
def interruptible(stop: threading.Event) -> Iterator[threading.Event]:
    """Within this scope (and the threads it starts), `check()` raises once `stop` is set."""
    token = _STOP.set(stop)
    try:
        yield stop
    finally:
        _STOP.reset(token)


def check() -> None:
    """Raise `Interrupted` if the scope this runs in was asked to stop."""
    stop = _STOP.get()
    if stop is not None and stop.is_set():
        raise Interrupted("stopped: the activity reading this was cancelled")
