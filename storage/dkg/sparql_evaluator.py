"""The SPARQL evaluator process: parses and evaluates queries away from the serving process.

Run by `storage.dkg.sparql_sandbox` as `python -m storage.dkg.sparql_evaluator MEMORY_MB`.
It reads one JSON request per line on stdin and writes one JSON answer per line on
stdout. Whatever a query does to this process (a stack overflow in pyoxigraph's parser,
memory exhausted, an evaluation that never ends) ends here: the sandbox kills it or sees
it die, and answers the caller with the limit that was hit.

A request: {"store": directory or null, "generation": int or null, "query": text,
"prefixes": {...}, "unionDefaultGraph": bool, "rowLimit": n, "shapeOnly": bool,
"cpuSeconds": n}. With no store the query is parsed against an empty store (the remote
DKG's check); with `shapeOnly` its result is not iterated. The store is opened read-only
and kept open while `generation` stays the same (the owner bumps it on every write, and
a read-only store sees only what was written before it was opened); a null generation
opens it afresh for each query.

An answer: {"kind": "select" | "ask" | "triples", "variables": [...], "rows": [...],
"boolean": bool, "truncated": bool}, or {"error": "syntax" | "query" | "memory", "message"}.
"""

from __future__ import annotations

import json
import math
import resource
import sys
from typing import Any

from pyoxigraph import QueryBoolean, QuerySolutions, Store

from storage.dkg.jsonld_rdf import term_value

# A writer's compaction may delete a table file between a read-only store reading its list
# of files and opening one of them; opening again sees the new list.
_REOPEN_ATTEMPTS = 3


class _Snapshots:
    """The read-only store of the last request, kept while its generation holds."""

    def __init__(self) -> None:
        self._key: tuple[str, int] | None = None
        self._store: Store | None = None

    def get(self, path: str | None, generation: int | None, *, fresh: bool = False) -> Store:
        if path is None:
            return Store()
        key = (path, generation) if generation is not None else None
        if fresh or key is None or key != self._key or self._store is None:
            self._store = None  # release the old snapshot's files first
            self._store = self._open(path)
            self._key = key
        return self._store

    @staticmethod
    def _open(path: str) -> Store:
        attempts = _REOPEN_ATTEMPTS
        while True:
            try:
                return Store.read_only(path)
            except (OSError, RuntimeError):
                attempts -= 1
                if not attempts:
                    raise


def _limit_cpu(seconds: float) -> None:
    """This process dies of SIGXCPU once this query has used `seconds` of CPU: a backstop
    should the sandbox that would kill it be gone (its end of the pipe closing is seen only
    between queries)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    used = usage.ru_utime + usage.ru_stime
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = math.ceil(used + seconds) + 1
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def _rows(
    result: Any, kind: str, variables: list[str], row_limit: int
) -> tuple[list[dict[str, Any]], bool]:
    rows: list[dict[str, Any]] = []
    for item in result:
        if len(rows) >= row_limit:
            return rows, True
        if kind == "select":
            rows.append({v: term_value(item[v]) for v in variables})
        else:
            terms = (item.subject, item.predicate, item.object)
            rows.append(
                dict(zip(("subject", "predicate", "object"), map(term_value, terms), strict=True))
            )
    return rows, False


def evaluate(store: Store, request: dict[str, Any]) -> dict[str, Any]:
    options = {"use_default_graph_as_union": True} if request.get("unionDefaultGraph") else {}
    result = store.query(request["query"], prefixes=request.get("prefixes") or {}, **options)
    if isinstance(result, QueryBoolean):
        return {"kind": "ask", "boolean": bool(result)}
    kind = "select" if isinstance(result, QuerySolutions) else "triples"
    variables = [v.value for v in result.variables] if kind == "select" else []
    if request.get("shapeOnly"):
        return {"kind": kind, "variables": variables}
    rows, truncated = _rows(result, kind, variables, int(request["rowLimit"]))
    return {"kind": kind, "variables": variables, "rows": rows, "truncated": truncated}


def answer(snapshots: _Snapshots, request: dict[str, Any]) -> dict[str, Any]:
    """The answer to one request; a failing query is an answer too, never an exit."""
    path, generation = request.get("store"), request.get("generation")
    try:
        try:
            return evaluate(snapshots.get(path, generation), request)
        except (OSError, RuntimeError):
            if path is None:
                raise
            # A table file the snapshot expected is gone (the owner compacted): reopen once.
            return evaluate(snapshots.get(path, generation, fresh=True), request)
    except SyntaxError as exc:
        return {"error": "syntax", "message": str(exc)}
    except MemoryError:
        return {"error": "memory", "message": "out of memory"}
    except Exception as exc:  # evaluation errors (type errors, I/O) are the query's answer
        return {"error": "query", "message": f"{type(exc).__name__}: {exc}"}


def main(argv: list[str]) -> int:
    memory_mb = int(argv[1])
    # Virtual memory: the store's own reservations are small with few malloc arenas (the
    # sandbox sets MALLOC_ARENA_MAX), so this caps what a query can allocate.
    resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, resource.RLIM_INFINITY))
    snapshots = _Snapshots()
    for line in sys.stdin.buffer:
        request = json.loads(line)
        _limit_cpu(float(request.get("cpuSeconds", 10)))
        sys.stdout.write(json.dumps(answer(snapshots, request)) + "\n")
        sys.stdout.flush()
    return 0  # the sandbox closed its end of the pipe: it is done with this evaluator


if __name__ == "__main__":
    sys.exit(main(sys.argv))
