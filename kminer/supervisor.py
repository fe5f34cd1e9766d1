"""`kminer up` keeps its parts running: the dev server and the workers are restarted when
they die, with backoff, and what happened is reported (`/healthz`, `/readyz`).

Each part is a `Child`: started, watched until it ends by itself, and stopped. A dev server
that exits is reaped at once (`Popen.poll`, so no defunct process is left) and launched
again on the same port and database file, so the client, the workers and the runs carry
on; a worker whose polling failed for good (a fatal error, or a server that was down when
it started) is built and started again. The delay before a restart doubles from
`FIRST_DELAY` up to `LONGEST_DELAY`, and starts over once a part has run `CALM` seconds.
A stop is bounded (`stop_seconds` for the workers, then the dev server), so SIGTERM ends
`kminer up` within seconds even while an activity is stuck.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from temporalio.worker import Worker

from kminer.devserver import DevServer

FIRST_DELAY = 0.5
LONGEST_DELAY = 30.0
CALM = 60.0  # seconds a part must run before its next restart is quick again
WATCH_SECONDS = 0.5  # how often a dev server process is looked at
STOP_SECONDS = 5.0
# In a stack, what a running activity gets to finish when the stack stops: less than the
# workers' STOP_SECONDS, so Temporal cancels what is still running (a corpus read stops
# at its next step) and the cancellation reaches the server before the server stops.
STACK_GRACE_SECONDS = 3.0
SERVER_START_SECONDS = 60.0


@dataclass
class ChildState:
    """What `/healthz` and `/readyz` say of one part."""

    state: str = "starting"  # running | restarting | stopped
    restarts: int = 0
    last_exit: str | None = None
    pid: int | None = None

    def report(self) -> dict[str, Any]:
        return {
            "state": self.state,
            "restarts": self.restarts,
            "lastExit": self.last_exit,
            "pid": self.pid,
        }


class Child(Protocol):
    name: str

    async def start(self) -> int | None:
        """Start the part (raise if it cannot); its pid, if it is a process."""
        ...

    async def ended(self) -> str:
        """Wait until the part ends by itself; how it ended."""
        ...

    async def stop(self, timeout: float) -> None: ...


@dataclass
class Backoff:
    delay: float = FIRST_DELAY
    started: float = field(default_factory=time.monotonic)

    def next(self) -> float:
        """The wait before the next start (quick again after a calm run)."""
        if time.monotonic() - self.started >= CALM:
            self.delay = FIRST_DELAY
        wait, self.delay = self.delay, min(self.delay * 2, LONGEST_DELAY)
        return wait

    def started_now(self) -> None:
        self.started = time.monotonic()


def exit_of(returncode: int) -> str:
    if returncode < 0:
        try:
            return f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"killed by signal {-returncode}"
    return f"exited with code {returncode}"


class DevServerChild:
    """The embedded Temporal dev server: relaunched on its port and database file."""

    name = "dev-server"

    def __init__(self, server: DevServer, on_start: Callable[[DevServer], None]) -> None:
        self.server = server
        self._on_start = on_start  # e.g. record the new pid in the stack file

    async def start(self) -> int | None:
        # Launched from the loop's (main) thread: the parent-death signal follows it.
        process = self.server.launch()
        await asyncio.to_thread(self.server.wait_listening, SERVER_START_SECONDS)
        self._on_start(self.server)
        return process.pid

    async def ended(self) -> str:
        process = self.server.process
        assert process is not None, "started before it is watched"
        while (code := process.poll()) is None:  # poll() reaps: no defunct child
            await asyncio.sleep(WATCH_SECONDS)
        return exit_of(code)

    async def stop(self, timeout: float) -> None:
        await asyncio.to_thread(self.server.stop, timeout)


class WorkerChild:
    """One in-process Temporal worker, run as a task (not `async with`, whose fatal error
    would cancel the whole stack); a new one is built for each start."""

    def __init__(self, build: Callable[[], Worker]) -> None:
        self._build = build
        self.worker = build()
        self.name = f"worker:{self.worker.task_queue}"
        self._started = False
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> int | None:
        if self._started:  # a worker runs once: its replacement is built anew
            self.worker = self._build()
        self._started = True
        self._task = asyncio.create_task(self.worker.run())
        return None

    async def ended(self) -> str:
        assert self._task is not None, "started before it is watched"
        await asyncio.wait([self._task])
        if self._task.cancelled():
            return "cancelled"
        error = self._task.exception()
        return f"failed: {error!r}" if error is not None else "stopped"

    async def stop(self, timeout: float) -> None:
        worker, task = self.worker, self._task
        if task is None or task.done():
            return
        # The worker's own graceful shutdown lets activities finish; `kminer up` waits only
        # `timeout`: what is still running is retried by Temporal after the next start.
        shutdown = asyncio.ensure_future(worker.shutdown())
        await asyncio.wait([shutdown, task], timeout=timeout)
        for pending in (shutdown, task):
            pending.cancel()
        await asyncio.wait([shutdown, task], timeout=1.0)
        for done in (shutdown, task):
            if done.done() and not done.cancelled():
                done.exception()  # seen: a fatal error here is the end of this worker


class Supervision:
    """Watches the children of one stack until `stop`."""

    def __init__(self, children: list[Child], stop_seconds: float = STOP_SECONDS) -> None:
        self.children = children
        self.states = {child.name: ChildState() for child in children}
        self.stop_seconds = stop_seconds
        self._stopping = asyncio.Event()
        self._watchers: list[asyncio.Task[None]] = []

    def report(self) -> dict[str, dict[str, Any]]:
        return {name: state.report() for name, state in self.states.items()}

    def watch(self, child: Child, pid: int | None = None) -> None:
        """Watch `child`, already started (pid: its process), until the stack stops."""
        state = self.states[child.name]
        state.state, state.pid = "running", pid
        self._watchers.append(asyncio.create_task(self._supervise(child)))

    async def start(self, child: Child) -> None:
        """Start `child` and watch it."""
        self.watch(child, await child.start())

    async def _supervise(self, child: Child) -> None:
        state, backoff = self.states[child.name], Backoff()
        while True:
            why = await child.ended()
            if self._stopping.is_set():
                return
            state.state, state.last_exit = "restarting", why
            while not self._stopping.is_set():
                wait = backoff.next()
                _say(f"{child.name} {why}; restarting in {wait:g} s")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stopping.wait(), wait)
                if self._stopping.is_set():
                    return
                try:
                    state.pid = await child.start()
                except Exception as exc:  # noqa: BLE001  (try again later, and say why)
                    why = f"could not start: {exc}".splitlines()[0]
                    state.last_exit = why
                    continue
                backoff.started_now()
                state.state, state.restarts = "running", state.restarts + 1
                _say(f"{child.name} running again (restart {state.restarts})")
                break

    async def stop(self) -> None:
        """Stop watching, then stop the children in reverse order of `children` (the
        workers before the server they talk to), each within `stop_seconds`."""
        self._stopping.set()
        for watcher in self._watchers:
            watcher.cancel()
        await asyncio.gather(*self._watchers, return_exceptions=True)
        for child in reversed(self.children):
            await child.stop(self.stop_seconds)
            self.states[child.name].state = "stopped"


def _say(line: str) -> None:
    print(f"kminer up: {line}", file=sys.stderr, flush=True)
