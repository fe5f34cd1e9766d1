"""Quality of what the miner proposes, on labeled questions (bench/quality/*.json).

    .venv/bin/python bench/quality.py                  # both sets through MiningWorkflow
    .venv/bin/python bench/quality.py --set demo --show

Each question runs as a real MiningWorkflow on the embedded stack (rules policy, review
"auto", offline) in a fresh data dir per set; the held-out set first indexes its own
documents (Markdown, text, HTML and PDF, the PDFs made from `*.pdf.txt` with fpdf2) with
`kminer corpus add`, exactly as a user would. Figures, over claim candidates:

  precision           claims matching a gold or acceptable fact of their question
  recall              gold facts matched by some claim of their question
  off_topic_rate      claims none of whose sources is relevant to the question
  related_to_share    claims stating only `relatedTo`
  new_entity_recall   labeled new entities proposed as entity candidates (or, once an
                      earlier question of the set published one, linked by a claim)
  no_evidence_publications   assets published for questions with no evidence

`accepted_precision` / `accepted_recall` are the same over the claims validation accepted
(what review "auto" publishes). The demo set's figures go to bench/results.json under
`quality` (the held-out set's under `quality.heldout`).
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
warnings.filterwarnings("ignore")

from bench.labeled_sets import make_pdfs, name_resolver, seeded_dkg  # noqa: E402
from bench.quality_labels import QUALITY_DIR, Question, claim_view, load  # noqa: E402
from bench.results_file import read_results, write_results  # noqa: E402
from bench.shared_sets import sets_record  # noqa: E402
from mining.names import normalise_name  # noqa: E402
from mining.predicates import is_typed  # noqa: E402

TARGETS = {
    "typed_precision": (">=", 0.85),
    "recall": (">=", 0.6),
    "off_topic_rate": ("<=", 0.10),
    "related_to_share": ("<=", 0.20),
    "new_entity_recall": (">=", 0.5),
    "no_evidence_publications": ("<=", 0),
}


async def run_questions(
    data_dir: Path, questions: list[Question], research: dict[str, Any] | None = None
) -> dict[str, dict[str, Any]]:
    """question id -> {candidates, published, answer, seconds} through MiningWorkflow;
    `research`: the request's ResearchConfig (None: the worker's defaults)."""
    from contracts.run import MiningRequest
    from kminer.config import load_settings
    from kminer.stack import embedded_stack
    from temporal_client.runs import start_run

    settings = load_settings(data_dir)
    out: dict[str, dict[str, Any]] = {}
    async with embedded_stack(settings, with_api=False) as stack:
        for q in questions:
            started = time.monotonic()
            request = MiningRequest(
                query=q.query, domainTags=q.tags, review="auto", research=research
            )
            handle = await start_run(stack.client, settings.task_queue, request)
            result = await handle.result()
            out[q.id] = {
                "candidates": result.candidateAssets,
                "published": len(result.publishedAssets),
                "answer": result.answer.text,
                "seconds": round(time.monotonic() - started, 2),
            }
    return out


def score(questions: list[Question], runs: dict[str, dict[str, Any]], show: bool) -> dict[str, Any]:
    claims = matched = off_topic = related = typed_claims = typed_matched = 0
    acc_claims = acc_matched = 0
    gold_total = gold_found = acc_gold_found = 0
    entity_total = entity_found = 0
    no_evidence_published = 0
    # Entities an earlier question of the set published (review "auto"): a later question
    # finds them in the DKG and rightly links them instead of proposing them again.
    published_before: set[str] = set()
    for q in questions:
        run = runs[q.id]
        views = []
        entities = []
        for c in run["candidates"]:
            if c.get("candidateKind") == "entity":
                entities.append(c)
                continue
            view = claim_view({"asset": c})
            if view is None:
                continue
            view["accepted"] = c.get("reviewStatus") in ("approved", "published")
            views.append(view)
        if q.no_evidence:
            no_evidence_published += run["published"]
        facts = q.gold + q.acceptable
        for v in views:
            ok = any(f.matches(v) for f in facts)
            claims += 1
            matched += ok
            off = not ({source_key(s) for s in v["sources"] if s} & q.relevant_sources)
            off_topic += off
            related += v["predicate"] == "relatedTo"
            # The labels list typed facts: a relation in its source's own words cannot
            # match one, so precision is judged on the typed claims.
            typed_claims += is_typed(v["predicate"])
            typed_matched += is_typed(v["predicate"]) and ok
            acc_claims += v["accepted"]
            acc_matched += v["accepted"] and ok
            if show:
                mark = (
                    ("✓" if ok else "✗") + ("A" if v["accepted"] else " ") + ("o" if off else " ")
                )
                print(f"   {mark} {v['name']}")
        for f in q.gold:
            gold_total += 1
            found = any(f.matches(v) for v in views)
            gold_found += found
            if show and not found:
                print(f"   MISSED {f.subject.names[0]} {sorted(f.predicates)} {f.object.names[0]}")
            acc_gold_found += any(f.matches(v) for v in views if v["accepted"])
        reused = [
            (name, None) for v in views for name, _ in (v["subject"], v["object"])
            if normalise_name(name) in published_before
        ]  # fmt: skip
        for e in q.new_entities:
            entity_total += 1
            names = [(c.get("name", ""), None) for c in entities] + [
                (a, None) for c in entities for a in c.get("alternateName", [])
            ] + reused
            hit = any(e.matches(n, u) for n, u in names)
            entity_found += hit
            if show and not hit:
                print(f"   NEW ENTITY MISSED {e.names[0]}")
        published_before |= {
            normalise_name(n) for c in entities if c.get("reviewStatus") == "published"
            for n in [c.get("name", ""), *c.get("alternateName", [])]
        }  # fmt: skip
        if show:
            print(f"{q.id} {q.query}\n   answer: {run['answer'][:300]}")

    def ratio(a: int, b: int) -> float:
        return round(a / b, 3) if b else 0.0

    return {
        "precision": ratio(matched, claims),
        "typed_precision": ratio(typed_matched, typed_claims),
        "typed_claims": typed_claims,
        "recall": ratio(gold_found, gold_total),
        "off_topic_rate": ratio(off_topic, claims),
        "related_to_share": ratio(related, claims),
        "new_entity_recall": ratio(entity_found, entity_total),
        "no_evidence_publications": no_evidence_published,
        "accepted_precision": ratio(acc_matched, acc_claims),
        "accepted_recall": ratio(acc_gold_found, gold_total),
        "claims": claims,
        "accepted_claims": acc_claims,
        "gold_facts": gold_total,
        "questions": len(questions),
        "seconds_per_question": round(
            sum(r["seconds"] for r in runs.values()) / max(1, len(runs)), 2
        ),
    }


def source_key(source: str) -> str:
    """Labels name local files `file:<name>`; the index knows them by `file://` URI."""
    if source.startswith("file:"):
        return "file:" + source.rstrip("/").rsplit("/", 1)[-1]
    return source


def verdict(name: str, value: float) -> str:
    if name not in TARGETS:
        return ""
    op, target = TARGETS[name]
    ok = value >= target if op == ">=" else value <= target
    return f"{op} {target}  {'PASS' if ok else 'FAIL'}"


def run_set(name: str, show: bool, research: dict[str, Any] | None = None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix=f"kminer-quality-{name}-") as tmp:
        data_dir = Path(tmp) / "data"
        dkg, gazetteer = seeded_dkg()
        dkg.close()
        header, questions = load(name, name_resolver(gazetteer))
        if header.get("corpus") == "heldout":
            docs = make_pdfs(QUALITY_DIR / "heldout" / "docs", Path(tmp) / "docs")
            kminer = Path(sys.executable).parent / "kminer"
            done = subprocess.run(
                [str(kminer), "corpus", "add", "--data-dir", str(data_dir), *map(str, docs)],
                capture_output=True,
                text=True,
            )
            if done.returncode != 0:
                raise SystemExit(f"kminer corpus add failed: {done.stderr.strip()}")
        runs = asyncio.run(run_questions(data_dir, questions, research))
    return score(questions, runs, show)


def run_shared_sets(paths: list[Path] | None) -> dict[str, Any] | None:
    """Every labeled set beside the project, as a user runs it (bench/shared_sets.py):
    one line per set, then the macro figures."""
    from bench.shared_sets import SHARED, line, macro, set_dirs
    from bench.shared_sets import run_set as run_shared

    sets = paths or set_dirs()
    if not sets:
        print(f"no labeled sets under {SHARED}: shared sets not run", file=sys.stderr)
        return None
    figures: dict[str, Any] = {}
    for set_dir in sets:
        with tempfile.TemporaryDirectory(prefix=f"kminer-set-{set_dir.name}-") as tmp:
            figures[set_dir.name] = run_shared(set_dir.resolve(), Path(tmp))
        print(line(set_dir.name, figures[set_dir.name]), flush=True)
    summary = macro(figures)
    print(f"macro: recall {summary.get('recall')}, min {summary.get('min_recall')}, "
          f"off-topic {summary.get('off_topic')} over {summary.get('sets')} sets")  # fmt: skip
    return {**figures, "macro": summary, "measured": time.strftime("%Y-%m-%d")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", choices=["demo", "heldout", "all"], default="all")
    parser.add_argument("--show", action="store_true", help="print every claim and answer")
    parser.add_argument("--no-record", action="store_true", help="do not write results.json")
    parser.add_argument("--shared", action="append", type=Path, metavar="PATH",
                        help="a labeled set folder (default: every set in ../shared/quality-sets)")
    parser.add_argument("--no-shared", action="store_true", help="only the two own sets")
    args = parser.parse_args()
    names = ["demo", "heldout"] if args.set == "all" else [args.set]
    figures = {n: run_set(n, args.show) for n in names}
    shared = run_shared_sets(args.shared) if args.set == "all" and not args.no_shared else None
    for n, f in figures.items():
        print(f"\n{n} ({f['questions']} questions, {f['claims']} claims, {f['gold_facts']} gold):")
        for key, value in f.items():
            print(f"  {key:26} {value:<8} {verdict(key, value)}")
    if not args.no_record:
        results = read_results()
        quality = dict(figures.get("demo") or results.get("quality", {}))
        if "heldout" in figures:
            quality["heldout"] = figures["heldout"]
        elif "heldout" in results.get("quality", {}):
            quality["heldout"] = results["quality"]["heldout"]
        if shared is not None:
            quality["sets"] = sets_record(shared, results.get("quality", {}).get("sets", {}))
        quality["measured"] = time.strftime("%Y-%m-%d")
        quality["machine"] = f"{platform.machine()}, {platform.python_version()}, rules policy"
        results["quality"] = quality
        write_results(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
