"""Calibrate the relevance formula (mining/relevance.py) on the labeled demo questions.

    .venv/bin/python bench/relevance_calibration.py

For every question: search the corpus as discovery does, extract every statement (no
floor), and label it positive when it matches a gold or acceptable fact of that question.
The formula's constants are searched on the odd-numbered demo questions and checked on the
even-numbered ones and on the held-out set (its own documents, other domains), so a
setting that only fits the questions it was tuned on shows up as a drop on the others. It
prints how the current constants do and the best settings found; it changes nothing.
"""

from __future__ import annotations

import itertools
import sys
import warnings
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
warnings.filterwarnings("ignore")

from activities.embeddings import shared_minilm  # noqa: E402
from activities.search import CorpusSearch  # noqa: E402
from bench.labeled_sets import open_set  # noqa: E402
from contracts.tools import SourceDocument, search_hit_documents  # noqa: E402
from mining import relevance as R  # noqa: E402
from mining.entities import EntityResolver  # noqa: E402
from mining.extraction import read_statements  # noqa: E402
from mining.extraction_patterns import find_mentions  # noqa: E402
from mining.names import normalise_name  # noqa: E402
from mining.nlp import Resolver  # noqa: E402
from mining.predicates import ASKS, sentence_for  # noqa: E402
from mining.question import asked_kind, question_entities  # noqa: E402

SEARCH_RESULTS = 16
MODEL = "all-MiniLM-L6-v2-int8"
Row = tuple[str, int, dict[str, float]]


def collect(name: str) -> list[Row]:
    """(question id, label, features) for every statement discovery would read."""
    dkg, gazetteer, questions, index = open_set(name)
    embedder = shared_minilm()
    search = CorpusSearch(index, embedder)
    resolver, entities = Resolver(gazetteer), EntityResolver(gazetteer, {})
    rows: list[Row] = []
    for q in questions:
        asked = question_entities(q.query, gazetteer, resolver)
        kind = asked_kind(q.query)
        facts = q.gold + q.acceptable
        hits = search.search(q.query, SEARCH_RESULTS)
        for doc in [SourceDocument(**d) for d in search_hit_documents(hits)]:
            for st in read_statements(doc, gazetteer, resolver):
                if st.negated or st.hedged:
                    continue
                s = entities.ref(st.subject, st.subjectType, st.subjectUal)
                o = entities.ref(st.object, st.objectType, st.objectUal)
                view = {"predicate": st.predicate, "subject": (s.name, s.ual),
                        "object": (o.name, o.ual)}  # fmt: skip
                claim = sentence_for(st.predicate, s.name, o.name)
                v = embedder.embed(
                    [q.query, st.sentence, claim, R.passage_text(doc.title, doc.text),
                     ASKS.get(st.predicate, st.predicate)]
                )  # fmt: skip
                ends = {st.subjectUal, st.objectUal} - {None}
                ends |= {p for u in list(ends) for p in dkg.places_of(u)}  # as discovery does
                ends |= {normalise_name(st.subject), normalise_name(st.object)}
                source = R.passage_text(doc.title, doc.text)
                named = [frozenset(f[1] for f in find_mentions(t, gazetteer))
                         for t in (st.sentence, source)]  # fmt: skip
                anchored = R.anchor(asked, ends, st.sentence, source, *named)  # type: ignore[arg-type]
                features = {
                    "sentence": max(float(v[1] @ v[0]), float(v[2] @ v[0])),
                    "passage": float(v[3] @ v[0]),
                    "lexical": R.lexical(q.query, f"{st.sentence} {doc.title or ''}"),
                    "source_lexical": R.lexical(q.query, R.passage_text(doc.title, doc.text)),
                    "relation": float(v[4] @ v[0]),
                    "anchor": -1.0 if anchored is None else anchored,
                    "kind": -1.0 if not kind else float(bool(kind & R.content_words(source))),
                }
                rows.append((q.id, int(any(f.matches(view) for f in facts)), features))
    return rows


def signals(f: dict[str, float]) -> R.Signals:
    return R.Signals(
        sentence_cos=f["sentence"], source_cos=f["passage"], lexical=f["lexical"],
        source_lexical=f["source_lexical"], relation_cos=f["relation"],
        anchor=None if f["anchor"] < 0 else f["anchor"],
        kind_named=None if f["kind"] < 0 else bool(f["kind"]),
    )  # fmt: skip


def scorer(weights: R.Weights) -> Callable:
    return lambda f: R.relevance(signals(f), MODEL, weights)


def f1(rows: list[Row], score: Callable, floor: float) -> tuple[float, float, float]:
    tp = sum(1 for _, y, f in rows if y and score(f) >= floor)
    fp = sum(1 for _, y, f in rows if not y and score(f) >= floor)
    fn = sum(1 for _, y, f in rows if y and score(f) < floor)
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def grid() -> list[R.Weights]:
    """Weight settings that sum to one (anchor apart), in steps of 0.1."""
    steps = [round(0.1 * i, 1) for i in range(6)]
    out = []
    for ws, wsrc, wl, wsl in itertools.product(steps, repeat=4):
        wr = round(1 - ws - wsrc - wl - wsl, 2)
        if 0 <= wr <= 0.5:
            for wa in (0.0, 0.2, 0.3):
                out.append(R.Weights(ws, wsrc, wl, wsl, wr, wa))
    return out


def main() -> None:
    rows = collect("demo")
    heldout = collect("heldout")
    odd = [r for r in rows if int(r[0].split("-")[1]) % 2]
    even = [r for r in rows if not int(r[0].split("-")[1]) % 2]
    print(f"{len(rows)} demo statements ({sum(r[1] for r in rows)} positive), "
          f"{len(heldout)} held-out ({sum(r[1] for r in heldout)} positive)")  # fmt: skip
    parts = (("tuning (odd)", odd), ("check (even)", even), ("held-out", heldout))
    current = scorer(R.WEIGHTS)
    for name, part in parts:
        p, r, f = f1(part, current, R.RELEVANCE_FLOOR)
        print(f"current constants, {name}: precision {p:.2f} recall {r:.2f} F1 {f:.2f}")
    found = []
    floors = [round(0.3 + 0.025 * i, 3) for i in range(15)]
    for weights in grid():
        score = scorer(weights)
        scored = [(y, score(f)) for _, y, f in odd]
        for floor in floors:
            tp = sum(1 for y, s in scored if y and s >= floor)
            fp = sum(1 for y, s in scored if not y and s >= floor)
            fn = sum(1 for y, s in scored if y and s < floor)
            p, r = tp / max(1, tp + fp), tp / max(1, tp + fn)
            found.append((2 * p * r / (p + r) if p + r else 0.0, p, r, weights, floor))
    found.sort(key=lambda b: -b[0])
    for f, p, r, weights, floor in found[:8]:
        checks = " | ".join(
            "{} P {:.2f} R {:.2f} F1 {:.2f}".format(name, *f1(part, scorer(weights), floor))
            for name, part in parts[1:]
        )
        print(f"{weights} floor {floor}: tuning P {p:.2f} R {r:.2f} F1 {f:.2f} | {checks}")


if __name__ == "__main__":
    main()
