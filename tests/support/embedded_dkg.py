"""Embedded DKG stores for the DKG tests (fixtures registered by tests/conftest.py): `seeded`,
one per test module, holding the demo seed; `fresh`, an empty store per test; and helpers
that build an asset and read a store's UALs and triple count."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from storage.dkg.embedded import SEED_DIR, EmbeddedDkg

COUNT_ALL = "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }"


def seed_items() -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for path in sorted(SEED_DIR.glob("*.json")):
        items.extend(json.loads(path.read_text(encoding="utf-8")))
    return items


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedDkg]:
    dkg = EmbeddedDkg(tmp_path_factory.mktemp("dkg") / "store")
    dkg.ensure_seeded(SEED_DIR)
    yield dkg
    dkg.close()


@pytest.fixture()
def fresh(tmp_path: Path) -> Iterator[EmbeddedDkg]:
    dkg = EmbeddedDkg(tmp_path / "store")
    yield dkg
    dkg.close()


def asset(name: str, type_: str = "Organization", **extra: Any) -> dict[str, Any]:
    return {"@context": "https://schema.org/", "@type": type_, "name": name, **extra}


def ual_of(dkg: EmbeddedDkg, label: str) -> str:
    """The one asset whose rdfs:label is exactly `label`."""
    rows = dkg.query(
        "SELECT ?ual WHERE { GRAPH <did:dkg:metadata> { ?ual rdfs:label ?label } }"
        f" VALUES ?label {{ {json.dumps(label, ensure_ascii=False)} }}"
    ).rows
    assert len(rows) == 1, (label, rows)
    return str(rows[0]["ual"])


def triple_count(dkg: EmbeddedDkg) -> int:
    value = dkg.query(COUNT_ALL).rows[0]["n"]
    assert isinstance(value, int)
    return value
