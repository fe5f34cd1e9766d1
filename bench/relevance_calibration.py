"""Calibrate the relevance formula (activities/relevance.py) on the labeled demo questions.

    .venv/bin/python bench/relevance_calibration.py

For every demo question: search the corpus as discovery does, extract every statement
(no floor), and label it positive when it matches a gold or acceptable fact of that
question. The formula's constants are searched on the odd-numbered questions and checked
on the even-numbered ones, so a setting that only fits the questions it was tuned on
shows up as a drop on the others. It prints how the current constants do and the best
settings found, on both halves; it changes nothing.
"""

from __future__ import annotations

import itertools
import sys
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
warnings.filterwarnings("ignore")

from activities import relevance as R  # noqa: E402
from activities.agents.policy import _documents  # noqa: E402
from activities.embeddings import shared_minilm  # noqa: E402
from activities.entities import EntityResolver  # noqa: E402
from activities.extraction import read_statements  # noqa: E402
from activities.nlp import Resolver  # noqa: E402
from activities.search import CorpusSearch  # noqa: E402
from activities.statements import question_entities  # noqa: E402
from bench.quality_labels import load  # noqa: E402
from storage.corpus_index import CorpusIndex  # noqa: E402
from storage.dkg_index import normalise_name  # noqa: E402
from storage.dkg_store import SEED_DIR, EmbeddedDkg  # noqa: E402
from workflows.predicates import sentence_for  # noqa: E402
from workflows.tool_contracts import SourceDocument  # noqa: E402

SEARCH_RESULTS = 16
MODEL = "all-MiniLM-L6-v2-int8"
Row = tuple[str, int, dict[str, float]]


def collect() -> list[Row]:
    """(question id, label, features) for every statement discovery would read."""
    dkg = EmbeddedDkg(None)
    dkg.ensure_seeded(SEED_DIR)
    gazetteer = dkg.gazetteer()
    by_name: dict[str, set[str]] = {}
    for label, ual, _ in gazetteer:
        by_name.setdefault(normalise_name(label), set()).add(ual)
    _, questions = load("demo", lambda n: by_name.get(normalise_name(n), set()))
    embedder = shared_minilm()
    index = CorpusIndex(Path(tempfile.mkdtemp()) / "c.db", Path("storage/corpus"))
    search = CorpusSearch(index, embedder)
    resolver, entities = Resolver(gazetteer), EntityResolver(gazetteer, {})
    rows: list[Row] = []
    for q in questions:
        asked = question_entities(q.query, gazetteer, resolver)
        facts = q.gold + q.acceptable
        for doc in [
            SourceDocument(**d) for d in _documents(search.search(q.query, SEARCH_RESULTS))
        ]:
            for st in read_statements(doc, gazetteer, resolver):
                if st.negated or st.hedged:
                    continue
                s = entities.ref(st.subject, st.subjectType, st.subjectUal)
                o = entities.ref(st.object, st.objectType, st.objectUal)
                view = {"predicate": st.predicate, "subject": (s.name, s.ual),
                        "object": (o.name, o.ual)}  # fmt: skip
                claim = sentence_for(st.predicate, s.name, o.name)
                v = embedder.embed([q.query, st.sentence, claim, doc.text])
                ends = {st.subjectUal, st.objectUal} - {None}
                ends |= {normalise_name(st.subject), normalise_name(st.object)}
                anchored = R.anchor(asked, ends, st.sentence)  # type: ignore[arg-type]
                features = {
                    "sentence": max(float(v[1] @ v[0]), float(v[2] @ v[0])),
                    "passage": float(v[3] @ v[0]),
                    "lexical": R.lexical(q.query, f"{st.sentence} {doc.title or ''}"),
                    "anchor": -1.0 if anchored is None else anchored,
                }
                rows.append((q.id, int(any(f.matches(view) for f in facts)), features))
    return rows


def scorer(ws: float, wp: float, wl: float, low: float, high: float, wa: float) -> Callable:
    def sem(c: float) -> float:
        return min(1.0, max(0.0, (c - low) / (high - low)))

    def score(f: dict[str, float]) -> float:
        base = ws * sem(f["sentence"]) + wp * sem(f["passage"]) + wl * f["lexical"]
        return base if f["anchor"] < 0 else (1 - wa) * base + wa * f["anchor"]

    return score


def f1(rows: list[Row], score: Callable, floor: float) -> tuple[float, float, float]:
    tp = sum(1 for _, y, f in rows if y and score(f) >= floor)
    fp = sum(1 for _, y, f in rows if not y and score(f) >= floor)
    fn = sum(1 for _, y, f in rows if y and score(f) < floor)
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def main() -> None:
    rows = collect()
    odd = [r for r in rows if int(r[0].split("-")[1]) % 2]
    even = [r for r in rows if not int(r[0].split("-")[1]) % 2]
    print(f"{len(rows)} statements, {sum(r[1] for r in rows)} positive")
    low, high = R.CALIBRATION[MODEL]
    current = scorer(R.W_SENTENCE, R.W_PASSAGE, R.W_LEXICAL, low, high, R.W_ANCHOR)
    for name, part in (("tuning (odd)", odd), ("check (even)", even)):
        p, r, f = f1(part, current, R.RELEVANCE_FLOOR)
        print(f"current constants, {name}: precision {p:.2f} recall {r:.2f} F1 {f:.2f}")
    found = []
    for ws, wp, low, high, wa, floor in itertools.product(
        (0.4, 0.5, 0.6), (0.0, 0.1, 0.2), (0.1, 0.2), (0.6, 0.7), (0.0, 0.3),
        (0.35, 0.4, 0.45, 0.5, 0.55, 0.6),
    ):  # fmt: skip
        wl = round(1 - ws - wp, 2)
        score = scorer(ws, wp, wl, low, high, wa)
        p, r, f = f1(odd, score, floor)
        found.append((f, p, r, (ws, wp, wl, low, high, wa, floor), score))
    found.sort(key=lambda b: -b[0])
    for f, p, r, params, score in found[:6]:
        ep, er, ef = f1(even, score, params[-1])
        print(
            "w_sentence {} w_passage {} w_lexical {} low {} high {} w_anchor {} floor {}: ".format(
                *params
            )
            + f"tuning P {p:.2f} R {r:.2f} F1 {f:.2f} | check P {ep:.2f} R {er:.2f} F1 {ef:.2f}"
        )


if __name__ == "__main__":
    main()
