"""Assemble the demo seed from every domain's curated entities and write storage/dkg/seed/.

`python -m storage.dkg.seed_build` runs `write`; a rebuild is byte-identical.
"""

from __future__ import annotations

import json
from pathlib import Path

from storage.dkg.seed_build.climate import climate
from storage.dkg.seed_build.clinical_trials import clinical_trials
from storage.dkg.seed_build.general_risk import general_risk
from storage.dkg.seed_build.procurement import procurement
from storage.dkg.seed_build.seed import SEED_DIR, Seed
from storage.dkg.seed_build.supply_chain import supply_chain


def build() -> Seed:
    seed = Seed()
    for fill in (supply_chain, general_risk, climate, procurement, clinical_trials):
        fill(seed)
    seed.check_refs()
    return seed


def write(seed_dir: Path = SEED_DIR) -> dict[str, int]:
    seed_dir.mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = {}
    for domain, items in build().items.items():
        text = json.dumps(items, indent=1, ensure_ascii=False) + "\n"
        (seed_dir / f"{domain}.json").write_text(text, encoding="utf-8")
        counts[domain] = len(items)
    return counts
