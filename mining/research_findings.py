"""What one research sub-question found, as its outcome: sources, a short finding, evidence.

Pure: the `research_gather` activity (`activities/research_gather.py`) runs the searches,
the statement extraction and the DKG query; these functions turn what came back into a
`SubtaskOutcome`: a search's passages and statements, the DKG neighbourhood of what the
question names, or the lines of the memory notes that mention its keywords.
"""

from __future__ import annotations

from typing import Any

from contracts.research import ResearchQuestion, ResearchTaskStatus, SubtaskOutcome
from contracts.tools import Statement

FINDING_STATEMENTS = 3
MEMORY_LINES = 5
NEIGHBOURHOOD_ROWS = 100


def passage_key(hit: dict[str, Any]) -> str:
    """A search hit's passage, as url#passageId (or its start offset)."""
    return f"{hit.get('url', '')}#{hit.get('passageId') or hit.get('start') or ''}"


def finding_for(statements: list[Statement], read: int, limit: int) -> str:
    """A short finding: the best statements, each citing its source."""
    if not statements:
        return f"No relevant statement in {read} passages."
    lines = [f"{s.sentence.strip()} [{s.source}]" for s in statements[:FINDING_STATEMENTS]]
    return " ".join(lines)[:limit]


def search_outcome(
    q: ResearchQuestion, fresh: list[dict[str, Any]], kept: list[Statement], limit: int
) -> SubtaskOutcome:
    """A search sub-question's outcome: the passages it read for the first time in the
    run (`fresh` hits) and the relevant statements read from them (`kept`)."""
    return SubtaskOutcome(
        id=q.id,
        status=ResearchTaskStatus.COMPLETED,
        sources=list(dict.fromkeys(h.get("url", "") for h in fresh if h.get("url"))),
        finding=finding_for(kept, len(fresh), limit),
        statements=kept,
        passages=[passage_key(h) for h in fresh],
    )


def neighbourhood_query(uals: list[str]) -> str:
    """SPARQL for the label and stake of each asset and the labels of the assets that
    link to it, best staked first."""
    values = " ".join(f"<{u}>" for u in uals)
    return (
        "SELECT ?ual ?label ?stake ?linked ?linkedLabel WHERE { "
        "GRAPH <did:dkg:metadata> { ?ual rdfs:label ?label ; dkg:stakeAmount ?stake } "
        f"VALUES ?ual {{ {values} }} "
        "OPTIONAL { GRAPH ?linked { ?s ?p ?ual } FILTER(?linked != ?ual) "
        "GRAPH <did:dkg:metadata> { ?linked rdfs:label ?linkedLabel } } } "
        "ORDER BY DESC(?stake) ?linkedLabel"
    )


def neighbourhood_outcome(q: ResearchQuestion, rows: list[dict[str, Any]]) -> SubtaskOutcome:
    """A `dkg_sparql` sub-question's outcome from the rows of `neighbourhood_query`."""
    assets: dict[str, tuple[str, Any, list[str]]] = {}
    for row in rows:
        ual = str(row.get("ual"))
        label, stake, links = assets.setdefault(
            ual, (str(row.get("label")), row.get("stake"), [])
        )
        linked = row.get("linkedLabel")
        if linked and str(linked) not in links:
            links.append(str(linked))
    parts = []
    for label, stake, links in assets.values():
        part = f"{label} (stake {stake} TRAC)"
        if links:
            part += " is linked from " + ", ".join(links[:4])
        parts.append(part)
    return SubtaskOutcome(
        id=q.id,
        status=ResearchTaskStatus.COMPLETED,
        sources=list(assets),
        finding=("The DKG holds: " + "; ".join(parts) + ".") if parts else "Nothing in the DKG.",
    )


def memory_outcome(q: ResearchQuestion, memory: dict[str, str]) -> SubtaskOutcome:
    """A `memory_search` sub-question's outcome: the note lines (path -> note text) that
    name one of its keywords."""
    words = [k.lower() for k in q.keywords if len(k) > 2]
    lines: list[str] = []
    paths: list[str] = []
    for path, text in sorted(memory.items()):
        for line in text.splitlines():
            if line.strip().startswith("- ") and any(w in line.lower() for w in words):
                lines.append(line.strip()[2:])
                if path not in paths:
                    paths.append(path)
    found = list(dict.fromkeys(lines))[:MEMORY_LINES]
    return SubtaskOutcome(
        id=q.id,
        status=ResearchTaskStatus.COMPLETED,
        sources=paths,
        finding=("Earlier runs noted: " + " | ".join(found)) if found else "No note applies.",
    )
