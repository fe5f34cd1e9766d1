"""Pure helpers of the research task: merging evidence, findings, notes, provenance.

No I/O and no workflow calls: the workflow (workflows/research.py) and tests use them.
"""

from __future__ import annotations

from typing import Any

from contracts.research import ResearchTask, ResearchTaskStatus

S = ResearchTaskStatus
MAX_STATEMENTS = 60
# Statements found by the other angles of a plan (not the question itself) must be this
# relevant to the question: the relevance floor is 0.375 (mining/relevance.py), and
# angles read passages chosen for a narrower question, so they need more than the floor
# to earn their place. Measured with bench/quality.py on both labeled sets: 0.5 let in
# more wrong claims than right ones (held-out precision 0.636 -> 0.604).
ANGLE_RELEVANCE = 0.6


def statement_key(row: dict[str, Any]) -> tuple[Any, ...]:
    return (
        row.get("source"), row.get("passageId"), row.get("start"),
        row.get("subject"), row.get("predicate"), row.get("object"), row.get("negated", False),
    )  # fmt: skip


def merged(groups: list[list[dict[str, Any]]], later: float = 0.0) -> list[dict[str, Any]]:
    """Statements of every sub-question, each fact once (first sub-question wins), best
    relevance first (stable), capped as discovery always capped them. Statements of the
    groups after the first need relevance `later` at least."""
    seen: dict[tuple[Any, ...], dict[str, Any]] = {}
    for i, rows in enumerate(groups):
        for row in rows:
            if i and float(row.get("relevance", 0.0)) < later:
                continue
            seen.setdefault(statement_key(row), row)
    ranked = sorted(seen.values(), key=lambda r: -float(r.get("relevance", 0.0)))
    return ranked[:MAX_STATEMENTS]


def evidence_ref(row: dict[str, Any]) -> tuple[str, str]:
    """A statement's evidence reference, as enrichment's EvidenceItem.id spells it."""
    source = str(row.get("source", ""))
    ref = row.get("passageId")
    if ref is None and row.get("start") is not None:
        ref = f"{source}#char={row.get('start')},{row.get('end')}"
    return source, str(ref)


def provenance(
    task: ResearchTask, origin: dict[tuple[str, str], int], proposed: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Provenance triplets: which sub-question found the evidence of each candidate."""
    questions = {s.id: s.question.question for s in task.subtasks}
    rows = []
    for row in proposed:
        evidence = ((row.get("asset") or {}).get("provenance") or {}).get("evidence") or []
        found: dict[int, str] = {}
        for item in evidence:
            qid = origin.get((str(item.get("source", "")), str(item.get("id"))))
            if qid is not None:
                found.setdefault(qid, str(item.get("source", "")))
        rows += [
            {"subject": row["candidateId"], "predicate": "foundByResearchQuestion",
             "object": f"Q{qid} {questions[qid]}", "source": src, "kind": "provenance"}
            for qid, src in sorted(found.items())
        ]  # fmt: skip
    return rows


def sources_of(task: ResearchTask) -> list[str]:
    found = [
        src
        for s in task.subtasks
        if s.result and s.status == S.COMPLETED
        for src in s.result.sources
    ]
    return list(dict.fromkeys(found))


def findings(task: ResearchTask) -> list[str]:
    return [
        f"Q{s.id} {s.question.question} — {s.result.synthesized_answer}"
        for s in task.subtasks
        if s.result and s.status == S.COMPLETED
    ]


def synthesis(task: ResearchTask, limit: int) -> str:
    lines = [f"Research: {task.query}", *findings(task)]
    failed = [s for s in task.subtasks if s.status == S.FAILED]
    lines += [f"Q{s.id} failed: {s.error_message}" for s in failed]
    return "\n".join(lines)[:limit]


def summary(task: ResearchTask, statements: list[dict[str, Any]], sources: list[str]) -> str:
    failed = sum(1 for s in task.subtasks if s.status == S.FAILED)
    tail = f" ({failed} failed)" if failed else ""
    return (
        f"Research ran {len(task.subtasks)} sub-questions{tail} and found "
        f"{len(statements)} statements in {len(sources)} sources."
    )


def notes(task: ResearchTask, statements: list[dict[str, Any]], sources: list[str]) -> list[str]:
    """Discovery notes (seed 003 "continuous findings"): what answered, and which angles."""
    lines = [f"Question '{task.query}': {len(statements)} statements from {len(sources)} sources"]
    if sources:
        lines.append("Useful sources: " + ", ".join(sources[:3]))
    entities = list(dict.fromkeys(str(s.get("subject")) for s in statements))
    if entities:
        lines.append("Entities that answered it: " + ", ".join(entities[:8]))
    productive = [s for s in task.subtasks if s.statements and s.id != 1]
    for sub in productive[:3]:
        lines.append(
            f"Sub-question that found evidence ({sub.statements} statements): "
            f"{sub.question.question}"
        )
    return lines
