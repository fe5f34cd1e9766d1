"""Long-term memory under load: note reads and appends with 1,000 notes and 20 writers.

    .venv/bin/python bench/memory.py [--notes 1000] [--writers 20] [--appends 25]
                                     [--reads 2000] [--database URL] [--no-record]

Creates a fresh database (SQLite in a temp dir, or --database, e.g. the local Postgres),
fills it with --notes notes over --notes/3 tags, then times:

  (a) reads: --reads random `read` calls (one note each), sequentially;
  (b) appends: --writers threads, each appending --appends times to notes drawn from a
      small hot set (so writers collide on the same note, as concurrent runs of one
      thread do), every append its own (run, step): the optimistic version check has to
      retry under contention.

It then checks that no appended line was lost. Figures go to bench/results.json under
`memory` (per database kind). A benchmark, not a test: exit 0 unless lines were lost.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import Engine, delete  # noqa: E402
from sqlmodel import Session  # noqa: E402

from bench.results_file import read_results, write_results  # noqa: E402
from contracts.run import NOTE_NAMES  # noqa: E402
from storage.sql.db import make_engine  # noqa: E402
from storage.sql.memory_repo import MemoryRepository  # noqa: E402
from storage.sql.tables import MemoryAppend, MemoryNote  # noqa: E402

HOT_NOTES = 5


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def fill(repo: MemoryRepository, notes: int, prefix: str) -> list[tuple[str, str]]:
    per_tag = len(NOTE_NAMES)
    keys = [(f"{prefix}{n // per_tag}", NOTE_NAMES[n % per_tag]) for n in range(notes)]
    for n, (tag, name) in enumerate(keys):
        repo.append(run_id=f"seed-{n}", step="seed", tag=tag, name=name, lines=[f"seed line {n}"])
    return keys


def remove(engine: Engine, prefix: str) -> None:
    with Session(engine) as session:
        for table in (MemoryNote, MemoryAppend):
            session.exec(delete(table).where(table.domain_tag.startswith(prefix)))  # type: ignore[call-overload]
        session.commit()


def measure(url: str, args: argparse.Namespace) -> dict[str, float | int | str]:
    engine = make_engine(url)
    repo = MemoryRepository(engine)
    prefix = f"bench{int(time.time())}t"
    rng = random.Random(args.seed)
    began = time.perf_counter()
    keys = fill(repo, args.notes, prefix)
    fill_s = time.perf_counter() - began

    reads: list[float] = []
    for _ in range(args.reads):
        tag, name = rng.choice(keys)
        started = time.perf_counter()
        repo.read(tag, name)
        reads.append((time.perf_counter() - started) * 1000)

    hot = keys[:HOT_NOTES]
    appends: list[float] = []
    expected: dict[tuple[str, str], list[str]] = {key: [] for key in hot}
    lock = threading.Lock()

    def writer(number: int) -> None:
        local = random.Random(args.seed + number)
        for k in range(args.appends):
            tag, name = local.choice(hot)
            line = f"writer {number} append {k}"
            started = time.perf_counter()
            repo.append(run_id=f"w{number}", step=f"s{k}", tag=tag, name=name, lines=[line])
            elapsed = (time.perf_counter() - started) * 1000
            with lock:
                appends.append(elapsed)
                expected[(tag, name)].append(line)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(args.writers)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    append_s = time.perf_counter() - began

    lost = 0
    for (tag, name), lines in expected.items():
        note = repo.read(tag, name)
        content = note.content if note else ""
        lost += sum(1 for line in lines if f"- {line}\n" not in content)
    remove(engine, prefix)  # a --database may be shared: leave nothing behind
    engine.dispose()
    return {
        "database": url.split(":", 1)[0].split("+", 1)[0],
        "notes": args.notes,
        "fill_s": round(fill_s, 2),
        "read_p50_ms": round(statistics.median(reads), 2),
        "read_p95_ms": round(percentile(reads, 0.95), 2),
        "writers": args.writers,
        "appends": len(appends),
        "append_p50_ms": round(statistics.median(appends), 2),
        "append_p95_ms": round(percentile(appends, 0.95), 2),
        "appends_per_second": round(len(appends) / append_s, 1),
        "lost_lines": lost,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--notes", type=int, default=1000)
    parser.add_argument("--writers", type=int, default=20)
    parser.add_argument("--appends", type=int, default=25, help="per writer")
    parser.add_argument("--reads", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--database", help="SQLAlchemy URL (default: SQLite in a temp dir)")
    parser.add_argument("--no-record", action="store_true", help="do not write results.json")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kminer-bench-memory-") as tmp:
        url = args.database or f"sqlite:///{Path(tmp) / 'memory.db'}"
        figures = measure(url, args)
    print(
        f"{figures['database']}: {figures['notes']} notes; read p50 {figures['read_p50_ms']} ms, "
        f"p95 {figures['read_p95_ms']} ms; {figures['writers']} writers, "
        f"{figures['appends']} appends: p50 {figures['append_p50_ms']} ms, "
        f"p95 {figures['append_p95_ms']} ms, {figures['appends_per_second']}/s; "
        f"{figures['lost_lines']} lines lost"
    )
    if not args.no_record:
        results = read_results()
        results.setdefault("memory", {})[str(figures["database"])] = {
            "measured": date.today().isoformat(),
            **figures,
        }
        write_results(results)
    return 1 if figures["lost_lines"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
