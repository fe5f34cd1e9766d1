"""Large documents of ordinary prose: sentences about companies trading lithium and
batteries, in paragraphs, as a long report or a scraped archive reads."""

from __future__ import annotations

import random
from pathlib import Path

COMPANIES = (
    "Albemarle Corporation", "Ganfeng Lithium", "Tianqi Lithium", "Pilbara Minerals",
    "Livent Corporation", "Mineral Resources", "Allkem Limited", "Tesla", "Panasonic Energy",
    "Contemporary Amperex Technology", "LG Energy Solution", "Samsung SDI", "BYD Company",
    "Northvolt", "Umicore", "Glencore", "Rio Tinto", "BHP Group", "Orkneyport",
)  # fmt: skip
DEALS = (
    "supplies lithium to", "signed a supply contract with", "acquired a stake in",
    "sells battery cells to", "formed a joint venture with", "ships spodumene to",
)  # fmt: skip
ENDINGS = (
    "in 2023.", "this quarter.", "according to its annual report.", "after long talks.",
    "under a five-year agreement.", "despite the fall in prices.",
)  # fmt: skip


def prose(chars: int, seed: int = 7) -> str:
    """About `chars` characters of paragraphs of three to eight sentences each."""
    rng = random.Random(seed)
    paragraphs: list[str] = []
    size = 0
    while size < chars:
        sentences = []
        for _ in range(rng.randint(3, 8)):
            seller, buyer = rng.sample(COMPANIES, 2)
            sentences.append(f"{seller} {rng.choice(DEALS)} {buyer} {rng.choice(ENDINGS)}")
        paragraphs.append(" ".join(sentences))
        size += len(paragraphs[-1]) + 2
    return "\n\n".join(paragraphs)


def write_report(path: Path, chars: int) -> Path:
    """A plain-text report of about `chars` characters at `path`."""
    path.write_text("Lithium trade notes\n\n" + prose(chars), encoding="utf-8")
    return path
