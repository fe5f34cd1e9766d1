"""SPARQL that cannot take the service down: queries run in evaluator processes.

pyoxigraph parses and evaluates in native code: a query it cannot handle overflows the
stack (a segfault that ends the API, the worker and the dev server with it), exhausts
memory, or computes for minutes with no way to stop it from Python. So every query of an
on-disk store is screened first (`sparql_guard.screen_query`: size, nesting, operators,
no SERVICE) and then parsed and evaluated by a `storage.dkg.sparql_evaluator` process
over a read-only view of the same store, with hard limits:

- time: the caller's `timeout_s`, from the call to the answer (waiting for a free
  evaluator included); past it the evaluator is killed, so no CPU keeps burning;
- memory: `memory_mb` of address space per evaluator (RLIMIT_AS in the child);
- rows: the caller's `row_limit`, applied while the evaluator reads the result.

The pool is small and persistent (`processes` evaluators, started on first use and
restarted after one is killed), so an ordinary query costs a pipe round trip more than
evaluating in process. Each limit hit is a `SparqlRefused` that names it.
"""

from __future__ import annotations

import json
import os
import queue
import select
import signal
import subprocess
import sys
import threading
import time
import weakref
from pathlib import Path
from typing import IO, Any, cast

from pyoxigraph import Store

from storage.dkg.interface import SparqlResult
from storage.dkg.sparql_evaluator import evaluate
from storage.dkg.sparql_guard import (
    TRIPLE_COLUMNS,
    SparqlRefused,
    query_form,
    screen_query,
    syntax_refusal,
)

DEFAULT_EVALUATORS = 2
DEFAULT_MEMORY_MB = 1024
_STOP_WAIT_S = 2.0
# The directory holding the `storage` package, for the evaluator's `python -m`.
_CODE_ROOT = str(Path(__file__).resolve().parents[2])


class _TimedOut(Exception):
    pass


class _Died(Exception):
    def __init__(self, returncode: int | None) -> None:
        super().__init__(returncode)
        self.returncode = returncode


class _Evaluator:
    """One evaluator process and its pipes; used by one query at a time."""

    def __init__(self, memory_mb: int) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (_CODE_ROOT, env.get("PYTHONPATH")) if p)
        # Few malloc arenas: each reserves 64 MB of address space per thread otherwise,
        # which the memory limit (RLIMIT_AS) would count against the query.
        env["MALLOC_ARENA_MAX"] = "2"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "storage.dkg.sparql_evaluator", str(memory_mb)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            # Its own session: a Ctrl-C at the terminal is the parent's to handle.
            start_new_session=True,
        )
        self._stdin = cast(IO[bytes], self.process.stdin)
        self._stdout = cast(IO[bytes], self.process.stdout)

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None

    def ask(self, request: dict[str, Any], deadline: float) -> dict[str, Any]:
        try:
            self._stdin.write(json.dumps(request).encode() + b"\n")
            self._stdin.flush()
        except (BrokenPipeError, OSError):
            raise _Died(self.process.wait()) from None
        # poll, not select: the pipe's descriptor may be past select's 1024 in a busy server.
        waiting = select.poll()
        waiting.register(self._stdout, select.POLLIN)
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not waiting.poll(remaining * 1000):
            raise _TimedOut
        line = self._stdout.readline()  # the whole answer is written at once, with its "\n"
        if not line.endswith(b"\n"):
            raise _Died(self.process.wait())
        return cast(dict[str, Any], json.loads(line))

    def kill(self) -> None:
        """Stop it now and reap it: no defunct child, no CPU left burning."""
        if self.alive():
            self.process.kill()
        self.process.wait()
        self._close_pipes()

    def stop(self) -> None:
        """Let it exit on its own (end of input), else kill it."""
        try:
            self._stdin.close()
            self.process.wait(_STOP_WAIT_S)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self.kill()

    def _close_pipes(self) -> None:
        for pipe in (self._stdin, self._stdout):
            try:
                pipe.close()
            except OSError:
                pass


def _stop_all(lock: threading.Lock, started: set[_Evaluator]) -> None:
    with lock:
        evaluators = list(started)
        started.clear()
    for evaluator in evaluators:
        evaluator.stop()


class SparqlSandbox:
    """A bounded pool of SPARQL evaluator processes over one on-disk store (or none: with
    `store=None` queries are parsed against an empty store, for the remote DKG's check)."""

    def __init__(
        self,
        store: Path | None,
        *,
        processes: int = DEFAULT_EVALUATORS,
        memory_mb: int = DEFAULT_MEMORY_MB,
    ) -> None:
        if processes < 1:
            raise ValueError("processes must be >= 1")
        self._store = str(store) if store is not None else None
        self.processes = processes
        self.memory_mb = memory_mb
        # A slot per evaluator, None until started; last in, first out, so a lone caller
        # keeps reusing one warm evaluator and the others start only under concurrency.
        self._slots: queue.LifoQueue[_Evaluator | None] = queue.LifoQueue()
        for _ in range(processes):
            self._slots.put(None)
        self._lock = threading.Lock()
        self._started: set[_Evaluator] = set()
        self._closed = False
        # Stops the evaluators also when the pool is dropped unclosed, or at exit.
        self._stop_all = weakref.finalize(self, _stop_all, self._lock, self._started)

    def pids(self) -> list[int]:
        """The evaluator processes alive now."""
        with self._lock:
            return [e.pid for e in self._started if e.alive()]

    def close(self) -> None:
        with self._lock:
            self._closed = True
        self._stop_all()

    def _start(self) -> _Evaluator:
        with self._lock:
            if self._closed:
                raise SparqlRefused("the DKG store is closed")
            evaluator = _Evaluator(self.memory_mb)
            self._started.add(evaluator)
            return evaluator

    def _discard(self, evaluator: _Evaluator) -> None:
        evaluator.kill()
        with self._lock:
            self._started.discard(evaluator)

    def evaluate(
        self,
        sparql: str,
        *,
        prefixes: dict[str, str],
        row_limit: int,
        timeout_s: float,
        generation: int | None = None,
        union_default_graph: bool = False,
        shape_only: bool = False,
    ) -> dict[str, Any]:
        """The evaluator's answer to a screened query (see `sparql_evaluator`), or
        SparqlRefused naming the time or memory limit or the crash."""
        started = time.monotonic()
        try:
            evaluator = self._slots.get(timeout=max(timeout_s, 0.0))
        except queue.Empty:
            raise SparqlRefused(
                f"query exceeds the {timeout_s:g} s time limit: all {self.processes}"
                " SPARQL evaluators stayed busy"
            ) from None
        request = {
            "store": self._store,
            "generation": generation,
            "query": sparql,
            "prefixes": prefixes,
            "unionDefaultGraph": union_default_graph,
            "rowLimit": row_limit,
            "shapeOnly": shape_only,
            "cpuSeconds": max(timeout_s, 0.0) + 1.0,
        }
        try:
            if evaluator is None or not evaluator.alive():
                if evaluator is not None:
                    self._discard(evaluator)
                evaluator = None
                before = time.monotonic()
                evaluator = self._start()
                started += time.monotonic() - before  # starting one is not the query's time
            return evaluator.ask(request, started + timeout_s)
        except BaseException as exc:
            # Whatever went wrong, this evaluator's state is unknown: it goes.
            if evaluator is not None:
                self._discard(evaluator)
                evaluator = None
            if isinstance(exc, _TimedOut):
                raise SparqlRefused(
                    f"query exceeds the {timeout_s:g} s time limit (its evaluation was stopped)"
                ) from None
            if isinstance(exc, _Died):
                raise SparqlRefused(self._death(exc.returncode)) from None
            raise
        finally:
            self._release(evaluator)

    def _release(self, evaluator: _Evaluator | None) -> None:
        with self._lock:
            closed = self._closed
        if closed and evaluator is not None:
            self._discard(evaluator)
            evaluator = None
        self._slots.put(evaluator)

    def _death(self, returncode: int | None) -> str:
        if self._closed:
            return "the DKG store is closed"
        code = returncode or 0
        if code == -signal.SIGABRT:  # Rust aborts when an allocation fails
            return f"query exceeds the {self.memory_mb:,} MB memory limit of SPARQL evaluation"
        if code == -signal.SIGXCPU:
            return "query exceeds its CPU time limit (its evaluation was stopped)"
        if code == -signal.SIGSEGV:
            return (
                "query crashed the SPARQL evaluator (SIGSEGV: too deep for the parser or"
                " evaluator); simplify it"
            )
        reason = signal.Signals(-code).name if code < 0 else f"exit code {code}"
        return f"the SPARQL evaluator stopped while evaluating the query ({reason})"


def _answer_error(answer: dict[str, Any], words: list[str], memory_mb: int) -> SparqlRefused:
    error, message = answer["error"], str(answer.get("message", ""))
    if error == "syntax":
        return syntax_refusal(words, message)
    if error == "memory":
        return SparqlRefused(
            f"query exceeds the {memory_mb:,} MB memory limit of SPARQL evaluation"
        )
    return SparqlRefused(f"query failed: {message}")


def run_read_query(
    sandbox: SparqlSandbox,
    sparql: str,
    *,
    prefixes: dict[str, str],
    row_limit: int,
    timeout_s: float,
    generation: int | None = None,
    union_default_graph: bool = False,
    shape_only: bool = False,
) -> SparqlResult:
    """A read-only query screened, then evaluated in the sandbox; SparqlRefused otherwise.

    With `shape_only` the result carries its kind and variables but no rows."""
    words = screen_query(sparql)
    answer = sandbox.evaluate(
        sparql,
        prefixes=prefixes,
        row_limit=row_limit,
        timeout_s=timeout_s,
        generation=generation,
        union_default_graph=union_default_graph,
        shape_only=shape_only,
    )
    if "error" in answer:
        raise _answer_error(answer, words, sandbox.memory_mb)
    return result_from_answer(answer, sparql)


def result_from_answer(answer: dict[str, Any], sparql: str) -> SparqlResult:
    """The evaluator's answer as the DKG's SparqlResult (a graph's kind named by the query)."""
    if answer["kind"] == "ask":
        return SparqlResult(kind="ask", boolean=bool(answer["boolean"]))
    if answer["kind"] == "select":
        kind, variables = "select", list(answer["variables"])
    else:
        kind = "describe" if query_form(sparql) == "DESCRIBE" else "construct"
        variables = list(TRIPLE_COLUMNS)
    return SparqlResult(
        kind=kind,  # type: ignore[arg-type]
        variables=variables,
        rows=answer.get("rows", []),
        truncated=bool(answer.get("truncated")),
    )


def run_in_process(
    store: Store,
    sparql: str,
    *,
    prefixes: dict[str, str],
    row_limit: int,
    union_default_graph: bool = False,
) -> SparqlResult:
    """The same screening and answer for a store no other process can open (in memory:
    tests and benchmarks), evaluated here: no time or memory limit, no crash protection
    beyond the screening."""
    words = screen_query(sparql)
    request = {
        "query": sparql,
        "prefixes": prefixes,
        "rowLimit": row_limit,
        "unionDefaultGraph": union_default_graph,
    }
    try:
        answer = evaluate(store, request)
    except SyntaxError as exc:
        raise syntax_refusal(words, str(exc)) from exc
    except Exception as exc:  # evaluation errors surface while the result is read
        raise SparqlRefused(f"query failed: {exc}") from exc
    return result_from_answer(answer, sparql)
