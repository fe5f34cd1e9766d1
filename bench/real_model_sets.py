"""One question of each labeled set beside the project, for bench/real_model.py (issue 25).

A set's data dir is made as a user makes it, by bench/shared_sets.py's `load_set`
(`kminer dkg load dkg.json`, `kminer corpus add docs/`); its first answerable question
(one with relevant sources: a no-evidence question has no gold pairs to recall) is then
mined by the caller, and its answer scored by the sets' own score.py, as
bench/shared_sets.py scores a whole set.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench.shared_sets import parse_score, run_scorer


def first_answerable(set_dir: Path) -> tuple[int, dict[str, Any]]:
    """The index and entry of the set's first question that has evidence to find."""
    questions = json.loads((set_dir / "gold.json").read_text())["questions"]
    for i, q in enumerate(questions):
        if q.get("relevant_sources") or q.get("relevant_docs"):
            return i, q
    raise SystemExit(f"{set_dir.name}: gold.json has no answerable question")


def score_one(
    set_dir: Path, question: dict[str, Any], answer_json: str, out_dir: Path
) -> dict[str, Any]:
    """The scorer's figures for one question: it reads q0.json .. qN.json for every
    question of the gold file it is given, so it is given a gold file of this one only."""
    out_dir.mkdir(parents=True, exist_ok=True)
    gold = out_dir / "gold.json"
    gold.write_text(json.dumps({"questions": [question]}))
    (out_dir / "q0.json").write_text(answer_json)
    scored = run_scorer(set_dir, gold, out_dir)
    return parse_score(scored.stdout + scored.stderr)
