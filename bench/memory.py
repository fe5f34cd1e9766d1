"""Long-term memory under load: 20 writers appending to a note of 10,000 run sections.

    .venv/bin/python bench/memory.py [--databases sqlite,postgres] [--sections 10000]
                                     [--writers 20] [--appends 25] [--rounds 5]
                                     [--notes 1000] [--reads 200] [--postgres URL]
                                     [--no-record]

For each database (SQLite in a temp dir; Postgres as a new database on the server of
--postgres, default the local one, dropped afterwards; left out with a line when it does
not answer) it makes the schema at head and writes, as rows, one hot note of --sections
run sections of ~640 characters (a discovery note after 10,000 runs on one tag: 6.4 MB
of text) and --notes other notes of one section each. Then, at once:

  (a) --writers threads each append --appends sections to the hot note (one engine, as a
      worker's activity threads share one), every append its own (run, step);
  (b) one reader reads the hot note as a run does (`read_tags` with the default
      KM_MEMORY_NOTE_CHARS: its head and latest sections) until the writers are done.

That is a round; there are --rounds of them, one after another, and a figure's p95 is the
median of the rounds' p95s (each round's is recorded too): on a shared machine a commit's
fsync or a thread's turn on the CPU now and then waits for other processes, and one such
stretch would otherwise decide the figure. p50 is over every append (or read). Before the
rounds, --reads reads alone give `quiet_read_p95_ms`.

It checks that every appended section is in the note once, times one read of the whole
note (as `GET /api/memory/{tag}/{note}` returns it), and prints the figures last:
`memory_append_p95_ms` and `memory_read_p95_ms` per database (target: append p95 < 20 ms).
They go to bench/results.json as those two top-level keys (per database) and, in detail,
under `memory` (per database). A benchmark, not a test: exit 0 unless sections were lost
or doubled.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import create_engine, insert, text  # noqa: E402
from sqlalchemy.engine import Engine, make_url  # noqa: E402

from bench.results_file import read_results, write_results  # noqa: E402
from contracts.run import NOTE_NAMES  # noqa: E402
from storage.sql.db import make_engine  # noqa: E402
from storage.sql.memory_repo import MemoryRepository  # noqa: E402
from storage.sql.note_view import DEFAULT_NOTE_CHARS, section_text  # noqa: E402
from storage.sql.tables import MemorySection, utcnow  # noqa: E402

HOT_TAG, HOT_NOTE = "supply_chain", "discovery-notes"
LOCAL_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
TARGET_APPEND_P95_MS = 20.0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def finding(rng: random.Random, n: int) -> list[str]:
    """About 550 characters of discovery lines, as a run writes them."""
    words = ["lithium", "supplier", "refinery", "export", "licence", "cobalt", "Chile", "risk"]
    return [f"finding {n}.{k}: " + " ".join(rng.choices(words, k=14)) for k in range(5)]


def fill(engine: Engine, sections: int, notes: int) -> None:
    """The hot note's sections and the other notes, written as rows in bulk."""
    rng = random.Random(7)
    others = [(f"tag{n // len(NOTE_NAMES)}", NOTE_NAMES[n % len(NOTE_NAMES)]) for n in range(notes)]
    rows = [(HOT_TAG, HOT_NOTE, f"seed-{n:05d}") for n in range(sections)]
    rows += [(tag, name, f"other-{n}") for n, (tag, name) in enumerate(others)]
    for start in range(0, len(rows), 2000):
        with engine.begin() as conn:
            conn.execute(insert(MemorySection), [
                {"domain_tag": tag, "name": name, "run_id": run, "step": "discovery",
                 "content": section_text(run, "discovery", finding(rng, n)),
                 "created_at": utcnow()}
                for n, (tag, name, run) in enumerate(rows[start:start + 2000], start)
            ])  # fmt: skip
    with engine.connect() as conn:
        if engine.dialect.name == "postgresql":
            conn.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql(
                "VACUUM ANALYZE memorysection"
            )
        else:
            conn.exec_driver_sql("ANALYZE")


def run_round(repo: MemoryRepository, args: argparse.Namespace, number: int) -> dict[str, Any]:
    """--writers threads appending --appends sections each to the hot note, and one reader
    reading it as a run does until they are done: their latencies (ms)."""
    appends: list[float] = []
    reads: list[float] = []
    lock = threading.Lock()
    writing = threading.Event()
    start = threading.Barrier(args.writers + 1)

    def writer(w: int) -> None:
        start.wait()
        for k in range(args.appends):
            lines = [f"round {number} writer {w} append {k}: a supplier and its refinery"]
            began = time.perf_counter()
            repo.append(run_id=f"r{number}w{w}", step=f"s{k}", tag=HOT_TAG, name=HOT_NOTE,
                        lines=lines)  # fmt: skip
            elapsed = (time.perf_counter() - began) * 1000
            with lock:
                appends.append(elapsed)

    def reader() -> None:
        start.wait()
        while writing.is_set() or len(reads) < 10:
            began = time.perf_counter()
            repo.read_tags([HOT_TAG], DEFAULT_NOTE_CHARS)
            reads.append((time.perf_counter() - began) * 1000)

    writing.set()
    threads = [threading.Thread(target=writer, args=(w,)) for w in range(args.writers)]
    watcher = threading.Thread(target=reader)
    for thread in [*threads, watcher]:
        thread.start()
    began = time.perf_counter()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - began
    writing.clear()
    watcher.join()
    return {"appends": appends, "reads": reads, "seconds": seconds}


def measure(url: str, args: argparse.Namespace) -> dict[str, Any]:
    engine = make_engine(url)
    # A worker's activity threads share one engine; give each writer a connection.
    if engine.dialect.name != "sqlite":
        engine.dispose()
        engine = create_engine(url, pool_size=args.writers + 2, pool_pre_ping=True)
    repo = MemoryRepository(engine)
    began = time.perf_counter()
    fill(engine, args.sections, args.notes)
    fill_s = time.perf_counter() - began
    repo.read_tags([HOT_TAG], DEFAULT_NOTE_CHARS)  # warm the pool and the caches
    quiet: list[float] = []
    for _ in range(args.reads):
        began = time.perf_counter()
        repo.read_tags([HOT_TAG], DEFAULT_NOTE_CHARS)
        quiet.append((time.perf_counter() - began) * 1000)
    load_1m = os.getloadavg()[0]

    rounds = [run_round(repo, args, n) for n in range(args.rounds)]
    appends = [ms for r in rounds for ms in r["appends"]]
    reads = [ms for r in rounds for ms in r["reads"]]
    append_p95s = [round(percentile(r["appends"], 0.95), 2) for r in rounds]
    read_p95s = [round(percentile(r["reads"], 0.95), 2) for r in rounds]

    began = time.perf_counter()
    note = repo.read(HOT_TAG, HOT_NOTE)
    whole_read_ms = (time.perf_counter() - began) * 1000
    content = note.content if note else ""
    written = [
        f"- round {n} writer {w} append {k}: "
        for n in range(args.rounds)
        for w in range(args.writers)
        for k in range(args.appends)
    ]
    lost = sum(1 for line in written if line not in content)
    doubled = sum(1 for line in written if content.count(line) > 1)
    engine.dispose()
    return {
        "sections": args.sections,
        "other_notes": args.notes,
        "fill_s": round(fill_s, 2),
        "writers": args.writers,
        "rounds": args.rounds,
        "appends": len(appends),
        "append_p50_ms": round(statistics.median(appends), 2),
        "append_p95_ms": statistics.median(append_p95s),
        "append_p95_ms_rounds": append_p95s,
        "appends_per_second": round(len(appends) / sum(r["seconds"] for r in rounds), 1),
        "quiet_reads": len(quiet),
        "quiet_read_p95_ms": round(percentile(quiet, 0.95), 2),
        "reads": len(reads),
        "read_p50_ms": round(statistics.median(reads), 2),
        "read_p95_ms": statistics.median(read_p95s),
        "read_p95_ms_rounds": read_p95s,
        "note_chars": len(content),
        "whole_read_ms": round(whole_read_ms, 1),
        "load_1m": round(load_1m, 1),
        "lost_sections": lost,
        "doubled_sections": doubled,
    }


@contextlib.contextmanager
def database(kind: str, args: argparse.Namespace, tmp: Path) -> Iterator[str | None]:
    """A new database of `kind`, or None (with a line) when there is none to use."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp / 'memory.db'}"
        return
    server = make_url(args.postgres)
    name = f"km_bench_memory_{uuid.uuid4().hex[:8]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as exc:  # noqa: BLE001  (no server, no driver: measure the others)
        print(f"postgres: left out ({type(exc).__name__}: {str(exc).splitlines()[0]})")
        admin.dispose()
        yield None
        return
    try:
        yield server.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--databases", default="sqlite,postgres")
    parser.add_argument("--sections", type=int, default=10_000, help="in the hot note")
    parser.add_argument("--writers", type=int, default=20)
    parser.add_argument("--appends", type=int, default=25, help="per writer and round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--notes", type=int, default=1000, help="other notes")
    parser.add_argument("--reads", type=int, default=200, help="alone, before the writers")
    parser.add_argument("--postgres", default=LOCAL_POSTGRES, help="a server's URL")
    parser.add_argument("--no-record", action="store_true", help="do not write results.json")
    args = parser.parse_args()
    figures: dict[str, dict[str, Any]] = {}
    for kind in args.databases.split(","):
        with tempfile.TemporaryDirectory(prefix="kminer-bench-memory-") as tmp:
            with database(kind, args, Path(tmp)) as url:
                if url is not None:
                    figures[kind] = measure(url, args)
    for kind, fig in figures.items():
        print(
            f"{kind}: a note of {fig['sections']:,} run sections ({fig['note_chars']:,} chars; "
            f"whole read {fig['whole_read_ms']} ms); {fig['writers']} writers, "
            f"{fig['appends']} appends: p50 {fig['append_p50_ms']} ms, "
            f"p95 by round {fig['append_p95_ms_rounds']}, "
            f"{fig['appends_per_second']}/s; {fig['reads']} bounded reads meanwhile: "
            f"p50 {fig['read_p50_ms']} ms, p95 by round {fig['read_p95_ms_rounds']} "
            f"(alone: p95 {fig['quiet_read_p95_ms']} ms); "
            f"load {fig['load_1m']}; {fig['lost_sections']} lost, "
            f"{fig['doubled_sections']} doubled"
        )
    if not args.no_record and figures:
        results = read_results()
        memory = {k: v for k, v in results.get("memory", {}).items() if k in ("sqlite", "postgres")}
        for kind, fig in figures.items():
            memory[kind] = {"measured": date.today().isoformat(), **fig}
            for key, value in (("memory_append_p95_ms", fig["append_p95_ms"]),
                               ("memory_read_p95_ms", fig["read_p95_ms"])):  # fmt: skip
                results.setdefault(key, {})[kind] = value
        results["memory"] = memory
        write_results(results)
    for key, field in (("memory_append_p95_ms", "append_p95_ms"),
                       ("memory_read_p95_ms", "read_p95_ms")):  # fmt: skip
        shown = ", ".join(f"{kind} {fig[field]}" for kind, fig in figures.items())
        print(f"{key}: {shown}")
    bad = any(fig["lost_sections"] or fig["doubled_sections"] for fig in figures.values())
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
