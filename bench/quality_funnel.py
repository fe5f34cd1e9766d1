"""Where the gold facts of bench/quality are lost: a funnel over the rules pipeline.

    .venv/bin/python bench/quality_funnel.py [--set demo|heldout] [--show]

The same tools discovery and enrichment call (corpus search, `extract_statements`'s
reading and relevance, `propose_knowledge_assets`), run in-process without Temporal so a
change can be judged in seconds. For every gold fact it reports the first stage it fails:

  extractable   some statement of the whole corpus (every passage) states it
  retrieved     ... one of those statements comes from a passage the search returned
  relevant      ... and passes the relevance floor (asserted, not hedged)
  proposed      ... and is among the claims enrichment proposes

and the same stages for every labeled new entity, as an end (or the goods) of a statement
that the DKG does not resolve (a new entity only becomes a candidate through a proposed
claim, or as where a proposed new organisation is).

`bench/quality.py` stays the measure (real workflows); this explains its figures.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
warnings.filterwarnings("ignore")

from activities.embeddings import shared_minilm  # noqa: E402
from activities.enrichment import EnrichmentActivities  # noqa: E402
from activities.search import CorpusSearch  # noqa: E402
from bench.labeled_sets import open_set  # noqa: E402
from bench.quality import score  # noqa: E402
from bench.quality_labels import claim_view  # noqa: E402
from contracts.tools import (  # noqa: E402
    ProposeArgs,
    SourceDocument,
    Statement,
    search_hit_documents,  # noqa: E402
)
from mining.entities import EntityResolver  # noqa: E402
from mining.extraction import read_statements  # noqa: E402
from mining.facts import _as_product  # noqa: E402
from mining.nlp import Resolver  # noqa: E402
from mining.passage_selection import context_before, names_part, part_names  # noqa: E402
from mining.question import question_entities  # noqa: E402
from mining.relevance import RELEVANCE_FLOOR  # noqa: E402
from mining.relevance_scoring import score_relevance  # noqa: E402
from storage.corpus.index import CorpusIndex, _hit  # noqa: E402
from storage.corpus.models import _HIT_COLUMNS  # noqa: E402

SEARCH_RESULTS = 12  # what the rules policy asks for at maxIterations 4
MAX_CANDIDATES = 20  # CLAIMS_PER_ITERATION (workflows/subagents.py) x maxIterations 4
STAGES = ("extractable", "retrieved", "relevant", "proposed")


def _view(st: Statement, entities: EntityResolver) -> dict[str, Any]:
    s = entities.ref(st.subject, st.subjectType, st.subjectUal)
    o = entities.ref(st.object, st.objectType, st.objectUal)
    return {"predicate": st.predicate, "subject": (s.name, s.ual), "object": (o.name, o.ual)}


def all_passages(index: CorpusIndex) -> list[dict[str, Any]]:
    """Every passage of the corpus as a search hit (what a perfect search could return)."""
    sql = f"SELECT {_HIT_COLUMNS} FROM passages p JOIN documents d ON d.id = p.document_id"
    with sqlite3.connect(index.db_path) as conn:
        rows = conn.execute(sql).fetchall()
    hits = [_hit(row, 0.0).model_dump() | {"url": row[0]} for row in rows]
    for h in hits:  # the context and the document's names a search hit carries
        h["context"] = context_before(index.document_text(h["documentId"]) or "", h["start"])
        first, end = names_part(h["start"])
        part = index.document_slice(h["documentId"], first, end) or ""
        h["names"] = part_names(part, first == 0)
    return hits


def _new_ends(statements: list[Statement], entities: EntityResolver) -> list[str]:
    """Names of the statement ends the DKG does not know (what a new entity can come from)."""
    names = []
    for st in statements:
        for name, kind, ual in ((st.subject, st.subjectType, st.subjectUal),
                                (st.object, st.objectType, st.objectUal)):  # fmt: skip
            ref = entities.ref(name, kind, ual)
            if name == st.object:
                ref = _as_product(ref, st.predicate)
            if ref.new_id:
                names.append(ref.name)
        if st.goods:  # what a supply or contract is for (mining/facts.py)
            goods = _as_product(entities.ref(st.goods, st.goodsType, st.goodsUal), "produces")
            names += [goods.name] if goods.new_id else []
    return names


def searched_statements(
    query: str, search: Any, gazetteer: Any, resolver: Any, embedder: Any, dkg: Any
) -> tuple[list[Statement], list[Statement]]:
    """(every statement of the passages one search returns, scored; the relevant,
    asserted ones): what the rules policy's discovery keeps for one question."""
    hits = search.search(query, SEARCH_RESULTS)
    texts: dict[str, str] = {}
    names: dict[str, list[str]] = {}
    found: list[Statement] = []
    for doc in (SourceDocument(**d) for d in search_hit_documents(hits)):
        names[doc.source] = doc.names
        for st in read_statements(doc, gazetteer, resolver):
            texts[f"{st.source}#{st.passageId or ''}"] = doc.text
            found.append(st)
    asked = question_entities(query, gazetteer, resolver)
    score_relevance(found, texts, query, embedder, asked, gazetteer, dkg.places_of, names)
    return found, [s for s in found if s.relevance >= RELEVANCE_FLOOR and not s.hedged]


def run(name: str, show: bool) -> tuple[Counter[str], Counter[str], dict[str, Any]]:
    dkg, gazetteer, questions, index = open_set(name)
    embedder = shared_minilm()
    search = CorpusSearch(index, embedder)
    resolver, entities = Resolver(gazetteer), EntityResolver(gazetteer, {})
    enrich = EnrichmentActivities(dkg, embedder, None)  # type: ignore[arg-type]

    # Extraction does not depend on the question: read every passage once.
    every: list[Statement] = []
    for hit in all_passages(index):
        doc = SourceDocument(**search_hit_documents([hit])[0])
        every.extend(read_statements(doc, gazetteer, resolver))

    lost: Counter[str] = Counter()
    lost_entities: Counter[str] = Counter()
    every_new = _new_ends([s for s in every if not s.negated], entities)
    runs: dict[str, dict[str, Any]] = {}
    for q in questions:
        found, kept = searched_statements(q.query, search, gazetteer, resolver, embedder, dkg)
        rows = enrich.propose(
            ProposeArgs(statements=kept, query=q.query, maxCandidates=MAX_CANDIDATES),
            "2026-01-01T00:00:00",
        )
        claims = [v for r in rows if r["kind"] == "claim" for v in [claim_view(r)] if v]
        runs[q.id] = {
            "candidates": [{**r["asset"], "candidateKind": r["kind"]} for r in rows],
            "published": 0, "answer": "", "seconds": 0.0,
        }  # fmt: skip
        if show:
            print(f"{q.id} {q.query}")
        for fact in q.gold:
            stage = "proposed"
            if not any(fact.matches(_view(s, entities)) for s in every if not s.negated):
                stage = "extractable"
            elif not any(fact.matches(_view(s, entities)) for s in found if not s.negated):
                stage = "retrieved"
            elif not any(fact.matches(_view(s, entities)) for s in kept if not s.negated):
                stage = "relevant"
            elif not any(fact.matches(c) for c in claims):
                stage = "proposed"
            else:
                stage = "ok"
            lost[stage] += 1
            if show and stage != "ok":
                best = [s.relevance for s in found if fact.matches(_view(s, entities))]
                print(
                    f"   lost at {stage:11} {fact.subject.names[0]} {sorted(fact.predicates)} "
                    f"{fact.object.names[0]}" + (f"  (rel {max(best):.2f})" if best else "")
                )
        stages = (
            ("extractable", every_new),
            ("retrieved", _new_ends([s for s in found if not s.negated], entities)),
            ("relevant", _new_ends([s for s in kept if not s.negated], entities)),
            ("proposed", [r["asset"].get("name", "") for r in rows if r["kind"] == "entity"]),
        )
        for entity in q.new_entities:
            stage = next(
                (st for st, names in stages if not any(entity.matches(n, None) for n in names)),
                "ok",
            )
            lost_entities[stage] += 1
            if show and stage != "ok":
                print(f"   entity lost at {stage:11} {entity.names[0]}")
    return lost, lost_entities, score(questions, runs, show=show)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", choices=["demo", "heldout"], default="demo")
    parser.add_argument("--show", action="store_true")
    args = parser.parse_args()
    lost, lost_entities, figures = run(args.set, args.show)
    for counts, what in ((lost, "gold facts"), (lost_entities, "new entities")):
        total = sum(counts.values())
        print(f"\n{args.set}: {total} {what}")
        for stage in (*STAGES, "ok"):
            label = "found" if stage == "ok" else f"lost: not {stage}"
            print(f"  {label:26} {counts[stage]:4}  {counts[stage] / max(1, total):.0%}")
    print("figures of the proposed claims (no validation, no publishing):")
    for key in (
        "precision",
        "recall",
        "off_topic_rate",
        "related_to_share",
        "new_entity_recall",
        "claims",
    ):
        print(f"  {key:26} {figures[key]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
