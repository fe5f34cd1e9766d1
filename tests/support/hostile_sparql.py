"""The SPARQL queries of issue 24 that took the whole service down, and the helpers that
check an evaluator process is gone and idle, shared by the storage, API and CLI tests."""

from __future__ import annotations

import os
from pathlib import Path

P = "<urn:p>"

# Each crashed pyoxigraph with a stack overflow (a segfault of the serving process).
CRASHING = {
    "12,000-term sum": "SELECT * WHERE { ?s ?p ?o FILTER("
    + "+".join(["1"] * 12_000)
    + ") } LIMIT 1",
    "6,000 || comparisons": "SELECT * WHERE { ?s ?p ?o FILTER("
    + "||".join(["?o=1"] * 6_000)
    + ") } LIMIT 1",
    "3,400 path alternatives": "SELECT * WHERE { ?s " + "|".join([P] * 3_400) + " ?o } LIMIT 1",
    "3,400 path steps": "SELECT * WHERE { ?s " + "/".join([P] * 3_400) + " ?o } LIMIT 1",
}

# Nothing matches, so no row ever comes back to check a clock between: only killing the
# evaluation stops these (the two-pattern one ran minutes, the three-pattern one forever).
_NEVER = "FILTER(STRLEN(STR(?c)) + STRLEN(STR(?f)) < 0)"
ENDLESS = {
    "two-pattern cross product": f"SELECT * WHERE {{ ?a ?b ?c . ?d ?e ?f {_NEVER} }}",
    "three-pattern cross product": f"SELECT * WHERE {{ ?a ?b ?c . ?d ?e ?f . ?g ?h ?i {_NEVER} }}",
}

# Exhausts any memory: every pair of quads sorted before the first is answered.
MEMORY_HOG = "SELECT ?a ?d WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i } ORDER BY ?a ?d ?g LIMIT 1"

ORDINARY = (
    "SELECT ?ual ?label WHERE { GRAPH <did:dkg:metadata> { ?ual rdfs:label ?label } } LIMIT 5"
)


def alive(pid: int) -> bool:
    """The process exists and is not a zombie waiting to be reaped."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def cpu_seconds(pid: int) -> float:
    """User and system CPU time the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def evaluators_of(parent: int) -> list[int]:
    """The SPARQL evaluator processes `parent` started (storage.dkg.sparql_sandbox)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            command = (stat.parent / "cmdline").read_bytes()
        except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
            continue
        if ppid == parent and b"storage.dkg.sparql_evaluator" in command:
            found.append(int(stat.parent.name))
    return found
