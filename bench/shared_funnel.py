"""Where the gold pairs of the shared quality sets are lost: a funnel over the rules pipeline.

    .venv/bin/python bench/shared_funnel.py [--set PATH ...] [--show]

In-process, no Temporal: the set's dkg.json in an embedded DKG (with the demo seed, as
`kminer dkg load` gives), its docs/ in a corpus index, then for every question the corpus
search the rules policy runs, `extract_statements`' reading and relevance, and
`propose_knowledge_assets`. For each gold pair, the first stage it fails:

  extractable   some statement of any passage of the corpus relates the pair
  retrieved     ... one from a passage the search returned
  relevant      ... above the relevance floor, asserted and not hedged
  proposed      ... among the claims enrichment proposes
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import warnings
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from contracts.tools import Statement

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
warnings.filterwarnings("ignore")

SHARED = ROOT.parent / "shared" / "quality-sets"


def _mentions(blob: str, name: str) -> bool:
    return re.search(r"(?<![a-z0-9])" + re.escape(name.lower()) + r"(?![a-z0-9])", blob) is not None


def _relates(subject: str, obj: str, pair: list[str]) -> bool:
    blob = f"{subject} | {obj}".lower()
    return _mentions(blob, pair[0]) and _mentions(blob, pair[1])


def _states(st: Statement, pair: list[str]) -> bool:
    """Whether a statement relates the pair under its names or the words its source used
    for them (an abbreviation the claim carries as `alternateName`)."""
    subject = f"{st.subject} {st.subjectText or ''}"
    return _relates(subject, f"{st.object} {st.objectText or ''}", pair)


def run(set_dir: Path, show: bool) -> Counter[str]:
    from activities.embeddings import shared_minilm
    from activities.enrichment import EnrichmentActivities
    from activities.search import CorpusSearch
    from bench.quality_funnel import MAX_CANDIDATES, all_passages, searched_statements
    from contracts.tools import ProposeArgs, SourceDocument, search_hit_documents
    from mining.extraction import read_statements
    from mining.nlp import resolver_for
    from storage.corpus.index import CorpusIndex
    from storage.dkg.embedded import EmbeddedDkg

    tmp = Path(tempfile.mkdtemp(prefix=f"kminer-funnel-{set_dir.name}-"))
    dkg = EmbeddedDkg(None)
    dkg.ensure_seeded()
    dkg.load_jsonld_file(set_dir / "dkg.json")
    gazetteer = dkg.gazetteer()
    resolver = resolver_for(gazetteer)
    index = CorpusIndex(tmp / "corpus.db", tmp / "none")
    index.add(sorted((set_dir / "docs").iterdir()))
    embedder = shared_minilm()
    search = CorpusSearch(index, embedder)
    enrich = EnrichmentActivities(dkg, embedder, None)  # type: ignore[arg-type]
    every: list[Statement] = []
    for hit in all_passages(index):
        first = SourceDocument(**search_hit_documents([hit])[0])
        every.extend(read_statements(first, gazetteer, resolver))
    lost: Counter[str] = Counter()
    gold = json.loads((set_dir / "gold.json").read_text())["questions"]
    for qi, q in enumerate(gold):
        if not q["gold_pairs"]:
            continue
        found, kept = searched_statements(q["q"], search, gazetteer, resolver, embedder, dkg)
        rows = enrich.propose(
            ProposeArgs(statements=kept, query=q["q"], maxCandidates=MAX_CANDIDATES),
            "2026-01-01T00:00:00",
        )
        claims = [r["asset"] for r in rows if r["kind"] == "claim"]
        if show:
            for c in claims:
                print("   claim:", c.get("name"))
        if show:
            print(f"{set_dir.name} q{qi}: {len(found)} statements, "
                  f"{len(kept)} relevant, {len(claims)} claims")  # fmt: skip
        for pair in q["gold_pairs"]:
            asserted = [s for s in every if not s.negated]
            if not any(_states(s, pair) for s in asserted):
                stage = "extractable"
            elif not any(_states(s, pair) for s in found if not s.negated):
                stage = "retrieved"
            elif not any(_states(s, pair) for s in kept if not s.negated):
                stage = "relevant"
            elif not any(_relates(json.dumps(c.get("about", {})), "", pair) for c in claims):
                stage = "proposed"
            else:
                stage = "ok"
            lost[stage] += 1
            if show and stage != "ok":
                best = [s.relevance for s in found if _states(s, pair)]
                print(f"   lost at {stage:11} {pair[0]} | {pair[1]}"
                      + (f"  (rel {max(best):.2f})" if best else ""))  # fmt: skip
    return lost


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", action="append", type=Path)
    parser.add_argument("--show", action="store_true")
    args = parser.parse_args()
    sets = args.set or sorted(p for p in SHARED.iterdir() if (p / "gold.json").exists())
    for set_dir in sets:
        lost = run(set_dir, args.show)
        total = sum(lost.values())
        stages = ("extractable", "retrieved", "relevant", "proposed", "ok")
        counts = "  ".join(f"{stage} {lost[stage]}" for stage in stages)
        print(f"{set_dir.name:12} {counts}  of {total}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
