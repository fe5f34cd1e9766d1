"""Benchmark of the embedded DKG at scale: build, label lookup, duplicate check, SPARQL.

    .venv/bin/python bench/dkg.py [--assets 100000] [--lookups 2000] [--dir PATH]
                                  [--seed 42] [--loader bulk|publish]

Generates N synthetic but realistic Knowledge Assets (Organizations, Products, Places
and Events named from combinatorial word lists, with identifiers, descriptions,
relations between them, stakes of 1,000-500,000 and ~2% deliberate near-duplicates;
bench/dkg_corpus.py), bulk-loads them into an EmbeddedDkg (a temp dir, or --dir, which
is reused when it already holds a store built for the same size, seed and generator
version), then times seeded random calls of the agent-facing lookups:

  (a) find_related(label): half exact labels, half partial / token queries;
  (b) find_duplicates(asset): half candidates duplicating a stored asset, half novel;
  (c) a SPARQL metadata query (stake > 50,000, LIMIT 100), for reference.

The first lookup builds the in-memory label index and is reported apart as
"index build". This is a benchmark, not a test: it always exits 0 and states the
PASS/FAIL of each latency target in its last lines.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import resource
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.dkg_corpus import (  # noqa: E402
    GENERATOR_VERSION,
    KIND_WEIGHTS,
    Corpus,
    candidate,
    partial_query,
)
from storage.dkg.embedded import EmbeddedDkg  # noqa: E402

LABEL_TARGET_MS = 20.0
DUPLICATE_TARGET_MS = 20.0
STAKE_QUERY = (
    "SELECT ?ual ?stake ?label WHERE { GRAPH <did:dkg:metadata> {"
    " ?ual dkg:stakeAmount ?stake ; rdfs:label ?label FILTER(?stake > 50000) } } LIMIT 100"
)
COUNT_ALL = "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }"
COUNT_META = "SELECT (COUNT(*) AS ?n) WHERE { GRAPH <did:dkg:metadata> { ?s ?p ?o } }"


# -- measurement ----------------------------------------------------------------------------


def percentile(sorted_ms: list[float], pct: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    rank = max(1, math.ceil(pct / 100 * len(sorted_ms)))
    return sorted_ms[min(rank, len(sorted_ms)) - 1]


@dataclass
class Timings:
    name: str
    ms: list[float]

    def row(self) -> str:
        s = sorted(self.ms)
        cells = [percentile(s, 50), percentile(s, 95), percentile(s, 99), s[-1]]
        return f"{self.name:<32}{len(s):>6}" + "".join(f"{c:>10.2f}" for c in cells)

    @property
    def p95(self) -> float:
        return percentile(sorted(self.ms), 95)


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    out = fn()
    return (time.perf_counter() - started) * 1000, out


def rss_mb() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return peak_rss_mb()


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def dir_mb(path: Path) -> float:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 2**20


def count(dkg: EmbeddedDkg, sparql: str) -> int:
    value = dkg.query(sparql, timeout_s=600).rows[0]["n"]
    return int(value) if isinstance(value, int | float | str) else 0


# -- main -----------------------------------------------------------------------------------


def open_store(args: argparse.Namespace, root: Path) -> tuple[EmbeddedDkg, Corpus, Path]:
    corpus = Corpus(args.assets, args.seed)
    name = f"dkg-{args.assets}-seed{args.seed}-v{GENERATOR_VERSION}"
    path, marker = root / name, root / f"{name}.json"
    if marker.exists() and path.is_dir():
        info = json.loads(marker.read_text(encoding="utf-8"))
        dkg = EmbeddedDkg(path)
        for _ in corpus.items():  # regenerate the records (names, UALs) without storing
            pass
        print(f"reusing store {path} (built {info['built_at']} in {info['build_s']:.1f} s)")
        return dkg, corpus, path
    if path.exists():  # an interrupted build of ours
        shutil.rmtree(path)
    dkg = EmbeddedDkg(path)
    print(f"building {args.assets:,} assets into {path} (loader: {args.loader}) ...", flush=True)
    started = time.perf_counter()
    if args.loader == "bulk":
        created = dkg.bulk_load(corpus.items())
    else:
        created = 0
        for item in corpus.items():
            meta = item["metadata"]
            result = dkg.publish(
                item["asset"],
                publisher=meta["publisher"],
                stake_amount=float(meta["stakeAmount"]),
                domain=meta["domain"],
                publish_time=meta["publishTime"],
                update_count=meta["updateCount"],
            )
            created += int(result.created)
    build_s = time.perf_counter() - started
    print(
        f"build: {created:,} assets in {build_s:.1f} s ({created / build_s:,.0f} assets/s), "
        f"{corpus.near_duplicates:,} deliberate near-duplicates "
        f"({corpus.near_duplicates / max(created, 1):.1%})"
    )
    built_at = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    marker.write_text(json.dumps({"build_s": build_s, "built_at": built_at}), encoding="utf-8")
    return dkg, corpus, path


def run(args: argparse.Namespace, root: Path) -> None:
    wall = time.perf_counter()
    dkg, corpus, path = open_store(args, root)
    try:
        kinds = {k: sum(r.kind == k for r in corpus.records) for k in KIND_WEIGHTS}
        print("mix: " + ", ".join(f"{k} {v:,}" for k, v in kinds.items()))
        if dkg.count_assets() != len(corpus.records):
            print(f"WARNING: store holds {dkg.count_assets():,} assets, expected "
                  f"{len(corpus.records):,}; quality figures below are unreliable")  # fmt: skip
        count_ms, total = timed(lambda: count(dkg, COUNT_ALL))
        meta = count(dkg, COUNT_META)
        print(
            f"triples: {total:,} (SPARQL COUNT, {count_ms / 1000:.1f} s): "
            f"{total - meta:,} in asset graphs + {meta:,} metadata; "
            f"store on disk {dir_mb(path):,.0f} MB; RSS {rss_mb():,.0f} MB"
        )

        rng = random.Random(f"{args.seed}-lookups")
        probe = rng.sample(corpus.records, min(20, len(corpus.records)))
        mismatched = [
            r.ual for r in probe if (m := dkg.get_metadata(r.ual)) is None or m.label != r.name
        ]
        if mismatched:
            print(f"WARNING: UALs do not match the generated records: {mismatched[:3]}")

        index_ms, _ = timed(lambda: dkg.find_related(corpus.records[0].name))
        print(f"index build (first lookup): {index_ms / 1000:.2f} s; RSS {rss_mb():,.0f} MB")

        # (a) label lookups, exact and partial interleaved in a seeded random order.
        half = args.lookups // 2
        queries = [(True, r, r.name) for r in rng.choices(corpus.records, k=half)]
        queries += [
            (False, r, partial_query(r, rng))
            for r in rng.choices(corpus.records, k=args.lookups - half)
        ]
        rng.shuffle(queries)
        exact_ms, partial_ms = Timings("  exact label", []), Timings("  partial / token query", [])
        exact_hits = partial_hits = partial_nonempty = 0
        for exact, rec, text in queries:
            ms, hits = timed(lambda text=text: dkg.find_related(text))
            found = any(h.ual == rec.ual for h in hits)
            if exact:
                exact_ms.ms.append(ms)
                exact_hits += found
            else:
                partial_ms.ms.append(ms)
                partial_hits += found
                partial_nonempty += bool(hits)
        label = Timings("label lookup (find_related)", exact_ms.ms + partial_ms.ms)

        # (b) duplicate checks.
        cands = [(True, candidate(corpus, rng, True)) for _ in range(half)]
        cands += [(False, candidate(corpus, rng, False)) for _ in range(args.lookups - half)]
        rng.shuffle(cands)
        dup_ms, novel_ms = Timings("  duplicate candidates", []), Timings("  novel candidates", [])
        dup_flagged = novel_flagged = 0
        for is_dup, doc in cands:
            ms, found = timed(lambda doc=doc: dkg.find_duplicates(doc))
            (dup_ms if is_dup else novel_ms).ms.append(ms)
            if is_dup:
                dup_flagged += bool(found)
            else:
                novel_flagged += bool(found)
        dups = Timings("duplicate check (find_dupl.)", dup_ms.ms + novel_ms.ms)

        # (c) SPARQL over the metadata graph, for reference.
        sparql = Timings("SPARQL stake>50k LIMIT 100", [])
        rows = 0
        for _ in range(args.lookups):
            ms, result = timed(lambda: dkg.query(STAKE_QUERY))
            sparql.ms.append(ms)
            rows = len(result.rows)

        print()
        print(f"{'operation':<32}{'n':>6}{'p50 ms':>10}{'p95 ms':>10}{'p99 ms':>10}{'max ms':>10}")
        print("-" * 78)
        for t in (label, exact_ms, partial_ms, dups, dup_ms, novel_ms, sparql):
            if t.ms:
                print(t.row())
        print("-" * 78)
        print(
            f"quality: exact label -> asset in top 10: {exact_hits / max(half, 1):.1%}; "
            f"partial -> non-empty {partial_nonempty / max(len(partial_ms.ms), 1):.1%}, "
            f"asset in top 10 {partial_hits / max(len(partial_ms.ms), 1):.1%}"
        )
        print(
            f"         duplicates flagged {dup_flagged / max(len(dup_ms.ms), 1):.1%}; "
            f"novel flagged {novel_flagged / max(len(novel_ms.ms), 1):.1%}; "
            f"SPARQL rows {rows}"
        )
        print(
            f"total {time.perf_counter() - wall:.1f} s; "
            f"RSS {rss_mb():,.0f} MB (peak {peak_rss_mb():,.0f} MB)"
        )
        print()
        for what, t, target in (
            ("label lookup", label, LABEL_TARGET_MS),
            ("duplicate check", dups, DUPLICATE_TARGET_MS),
        ):
            verdict = "PASS" if t.p95 < target else "FAIL"
            print(f"{what} p95 < {target:g} ms: {verdict} ({t.p95:.2f} ms)")
    finally:
        dkg.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--assets", type=int, default=100_000, help="assets to generate")
    parser.add_argument("--lookups", type=int, default=2_000, help="timed calls per operation")
    parser.add_argument("--dir", type=Path, help="keep (and reuse) the store under this dir")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument(
        "--loader",
        choices=("bulk", "publish"),
        default="bulk",
        help="bulk_load (default) or one publish() per asset, to compare",
    )
    args = parser.parse_args(argv)
    if args.assets < 1 or args.lookups < 2:
        parser.error("--assets must be >= 1 and --lookups >= 2")
    print(
        f"DKG benchmark: {args.assets:,} assets, {args.lookups:,} lookups per operation, "
        f"seed {args.seed}"
    )
    if args.dir is not None:
        args.dir.mkdir(parents=True, exist_ok=True)
        run(args, args.dir)
    else:
        with tempfile.TemporaryDirectory(prefix="kminer-dkg-bench-") as tmp:
            run(args, Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
