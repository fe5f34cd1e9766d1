"""docs/operations.md's environment table matches the code and docker-compose.yml."""

from __future__ import annotations

import re

from tests.support.compose import COMPOSE_FILE, ROOT, kminer_services, load_compose

DOC = (ROOT / "docs/operations.md").read_text()
# Read by a library, not by our code: OpenTelemetry's resource detector.
LIBRARY_READS = {"OTEL_SERVICE_NAME"}
# kminer/config.py's parsing helpers, which read the variable they are named with.
READER = r"_(?:positive_int(?:_or_none)?|positive_float|switch|http_urls?)\(\"([A-Z][A-Z0-9_]+)\""


def _read_by_code() -> set[str]:
    names: set[str] = set()
    for folder in ("kminer", "api", "storage", "activities", "workflows"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text()
            names |= set(re.findall(r"environ(?:\.get\(|\[)\s*\"([A-Z][A-Z0-9_]+)\"", text))
            names |= set(re.findall(READER, text))
    return names


def _documented() -> set[str]:
    section = DOC.split("## Environment", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([A-Z][A-Z0-9_]+)` \|", section, re.M))


def test_every_variable_the_code_reads_is_documented() -> None:
    code = _read_by_code()
    assert {"DATABASE_URL", "KM_TOOL_TASK_QUEUE", "KM_WORKER_CONCURRENCY"} <= code
    assert code - _documented() == set()


def test_every_documented_variable_is_read() -> None:
    assert _documented() - _read_by_code() - LIBRARY_READS == set()


def test_the_compose_variables_are_documented() -> None:
    compose = kminer_services(load_compose({"KM_JWT_SECRET": "x" * 40}))
    given = {var for svc in compose.values() for var in svc["environment"]}
    assert given - _documented() == set()
    compose_only = re.search(r"Compose-file only.*?\n\n", DOC, re.S)
    assert compose_only is not None
    raw = COMPOSE_FILE.read_text()
    interpolated = set(re.findall(r"\$\{([A-Z][A-Z0-9_]+)", raw))
    listed = set(re.findall(r"`([A-Z][A-Z0-9_]+)`", compose_only.group(0)))
    # Each variable the file interpolates is either passed to kminer or listed there.
    assert interpolated - given - listed == set()
    assert listed <= interpolated
