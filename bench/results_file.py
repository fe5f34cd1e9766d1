"""bench/results.json: every benchmark records its figures under its own key."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results.json"


def read_results() -> dict[str, Any]:
    return json.loads(RESULTS.read_text()) if RESULTS.exists() else {}


def write_results(results: dict[str, Any]) -> None:
    RESULTS.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")


def record(section: str, figures: Any) -> None:
    """Replace one benchmark's figures, keeping every other benchmark's."""
    results = read_results()
    results[section] = figures
    write_results(results)
