"""Latency of the SPARQL queries a mining run asks the embedded DKG (issue 24's sandbox).

    .venv/bin/python bench/sparql.py [--repeat 200]

Seeds an on-disk store in a temp dir (the demo seed, as `kminer up` does), keeps it open
as its owner (as the tools worker does), then times the queries agents and activities
send during a run: the research neighbourhood query, the validation's known publishers,
a stake filter, a label lookup and a one-row read. Prints the first query (which starts
an evaluator process) apart, then the median and 90th percentile of each. This is a
benchmark, not a test: it always exits 0.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from storage.dkg.embedded import EmbeddedDkg  # noqa: E402

QUERIES = {
    "neighbourhood (research)": (
        "SELECT ?ual ?label ?stake ?linked ?linkedLabel WHERE { "
        "GRAPH <did:dkg:metadata> { ?ual rdfs:label ?label ; dkg:stakeAmount ?stake } "
        "VALUES ?ual { %s } "
        "OPTIONAL { GRAPH ?linked { ?s ?p ?ual } FILTER(?linked != ?ual) "
        "GRAPH <did:dkg:metadata> { ?linked rdfs:label ?linkedLabel } } } "
        "ORDER BY DESC(?stake) ?linkedLabel"
    ),
    "known publishers (validation)": (
        "SELECT ?publisher (COUNT(?ual) AS ?assets) WHERE {"
        " GRAPH <did:dkg:metadata> { ?ual dkg:publisher ?publisher }"
        " } GROUP BY ?publisher HAVING (COUNT(?ual) >= 3)"
    ),
    "stake filter": (
        "SELECT ?ual ?stake ?label WHERE { GRAPH <did:dkg:metadata> {"
        " ?ual dkg:stakeAmount ?stake ; rdfs:label ?label FILTER(?stake > 50000) } } LIMIT 100"
    ),
    "label lookup": (
        "SELECT ?ual WHERE { GRAPH <did:dkg:metadata> { ?ual rdfs:label ?label } }"
        ' VALUES ?label { "Albemarle Corporation" }'
    ),
    "one row (ASK)": "ASK { ?s schema:name 'Albemarle Corporation' }",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        dkg = EmbeddedDkg(Path(tmp) / "dkg")
        dkg.ensure_seeded()
        uals = [
            str(r["ual"])
            for r in dkg.query(
                "SELECT ?ual WHERE { GRAPH <did:dkg:metadata> { ?ual rdfs:label ?l } } LIMIT 3"
            ).rows
        ]
        queries = {
            k: (q % " ".join(f"<{u}>" for u in uals) if "%s" in q else q)
            for k, q in QUERIES.items()
        }
        dkg.close()
        dkg = EmbeddedDkg(Path(tmp) / "dkg")
        started = time.perf_counter()
        dkg.query(queries["one row (ASK)"])
        print(f"first query (starts an evaluator): {(time.perf_counter() - started) * 1000:.1f} ms")
        print(f"{'query':32} {'median ms':>10} {'p90 ms':>8}")
        for name, query in queries.items():
            times = []
            for _ in range(args.repeat):
                started = time.perf_counter()
                dkg.query(query)
                times.append((time.perf_counter() - started) * 1000)
            times.sort()
            print(f"{name:32} {statistics.median(times):10.2f} {times[int(len(times) * 0.9)]:8.2f}")
        dkg.close()


if __name__ == "__main__":
    main()
