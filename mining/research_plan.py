"""The rules policy's research plan: a deterministic decomposition of the question.

Seed 004's planner asks a model for sub-questions; offline the plan comes from what the
question names and what the DKG and the memory notes already hold:

- priority 1: the question itself (a passage search at the breadth discovery always used,
  so the plan never reads less than one search did), the DKG neighbourhood of what the
  question names (`dkg_sparql`), and the domain's memory notes (`memory_search`);
- priority 2: one sub-question per relation type the question asks about ("suppliers" →
  who supplies the topic; "risk" → export controls, sanctions, nationalisation), then the
  best-staked DKG neighbours read against the topic.

The same inputs always give the same plan. Pure: the `plan_research` activity
(`activities/research_plan.py`) passes the DKG's labels and related assets in.
"""

from __future__ import annotations

import re
from typing import Any

from contracts.research import (
    NodeType,
    PlanArgs,
    PlanResult,
    ResearchQuestion,
)
from mining.nlp import Resolver, mentions_in
from mining.parsing import parse

QUESTION_WORDS = frozenset(
    "which who what whom whose where when why how do does did is are was were the a an of "
    "in on to for and or with by from about any all their its there that this these those "
    "carry carries have has most more".split()
)
# Nouns a question asks *for*, not about ("which countries", "which companies").
GENERIC = frozenset(
    "country countries company companies firm firms government governments nation nations "
    "organisation organisations organization organizations people entity entities".split()
)
# Relation types a question can ask about: trigger words -> sub-question templates.
# `{topic}` is what the question is about; each template is one angle to search.
ANGLES: list[tuple[frozenset[str], str, list[str]]] = [
    (
        frozenset("supplier suppliers supply supplies supplied sourcing buyer buyers".split()),
        "Who supplies {topic}, and to whom?",
        ["supplies", "supplier", "offtake"],
    ),
    (
        frozenset("producer producers produce produces production mine mines miner".split()),
        "Who produces {topic}, and where?",
        ["produces", "production", "mine"],
    ),
    (
        frozenset("risk risks geopolitical exposure vulnerable disruption export exports".split()),
        "Which countries restrict exports of {topic}?",
        ["export", "restrictions", "controls", "ban"],
    ),
    (
        frozenset("risk risks geopolitical sanction sanctions sanctioned".split()),
        "Which sanctions or tariffs affect {topic} trade?",
        ["sanctions", "tariffs"],
    ),
    (
        frozenset("risk risks geopolitical nationalisation nationalization state".split()),
        "Which governments nationalise or regulate {topic}?",
        ["nationalises", "royalty", "regulation"],
    ),
    (
        frozenset("owner owners own owns stake stakes shareholder parent subsidiary".split()),
        "Who owns stakes in {topic} companies?",
        ["stake", "owns", "subsidiary"],
    ),
]
TRIGGERS = frozenset(w for words, _, _ in ANGLES for w in words)
NEIGHBOURS = 5


def _words(text: str) -> list[str]:
    return re.findall(r"[A-Za-z][A-Za-z0-9'-]*", text)


def question_topic(query: str, doc: Any, names: list[str]) -> str:
    """What the question is about: its named entities, else its content noun chunks."""
    if names:
        return ", ".join(names[:2])
    chunks = []
    for chunk in doc.noun_chunks:
        words = [w for w in _words(chunk.text) if w.lower() not in QUESTION_WORDS | GENERIC]
        if words and not all(w.lower() in TRIGGERS for w in words):
            chunks.append(" ".join(w for w in words if w.lower() not in TRIGGERS) or chunk.text)
    if chunks:
        return chunks[0]
    content = [w for w in _words(query) if w.lower() not in QUESTION_WORDS | TRIGGERS | GENERIC]
    return " ".join(content[:3]) or query


def keywords_of(text: str) -> list[str]:
    return list(dict.fromkeys(w.lower() for w in _words(text) if w.lower() not in QUESTION_WORDS))


def decompose(
    args: PlanArgs, gazetteer: list[tuple[str, str, str]], related: list[Any], resolver: Resolver
) -> PlanResult:
    """The plan for `args.query`: 1..maxSubtasks sub-questions, by priority."""
    query = args.query
    doc = parse(query)
    found = mentions_in(doc, gazetteer, resolver)
    names = list(dict.fromkeys(m.name for m in found))
    topic = question_topic(query, doc, names)
    search: NodeType = "document_search" if args.search == "local-corpus" else "web_search"
    lowered = {w.lower() for w in _words(query)}
    questions: list[dict[str, Any]] = [
        {
            "question": query,
            "keywords": keywords_of(query),
            "node_type": search,
            "node_config": {"maxResults": args.primaryResults},
            "execution_priority": 1,
        }
    ]
    uals = list(dict.fromkeys([m.ual for m in found if m.ual] + [r.ual for r in related]))
    labels = {r.ual: r.label for r in related} | {m.ual: m.name for m in found if m.ual}
    if uals:
        shown = ", ".join(labels[u] for u in uals[:3])
        questions.append(
            {
                "question": f"What does the DKG already hold about {shown}?",
                "keywords": [labels[u] for u in uals[:NEIGHBOURS]],
                "node_type": "dkg_sparql",
                "node_config": {"uals": uals[:NEIGHBOURS]},
                "execution_priority": 1,
            }
        )
    if any(text.strip() for text in args.memory.values()):
        questions.append(
            {
                "question": f"What did earlier runs on {', '.join(args.domainTags) or 'global'} "
                f"learn about {topic}?",
                "keywords": keywords_of(topic),
                "node_type": "memory_search",
                "node_config": {"paths": sorted(args.memory)},
                "execution_priority": 1,
            }
        )
    for triggers, template, extra in ANGLES:
        if lowered & triggers:
            text = template.format(topic=topic)
            questions.append(
                {
                    "question": text,
                    "keywords": list(dict.fromkeys([*keywords_of(topic), *extra])),
                    "node_type": search,
                    "node_config": {"maxResults": args.resultsPerQuestion},
                    "execution_priority": 2,
                }
            )
    named = {n.lower() for n in names}
    for asset in sorted(related, key=lambda r: (-float(r.stakeAmount or 0), r.label)):
        if asset.label.lower() in named:
            continue
        questions.append(
            {
                "question": f"What do sources say about {asset.label} and {topic}?",
                "keywords": list(dict.fromkeys([asset.label, *keywords_of(topic)])),
                "node_type": search,
                "node_config": {"maxResults": args.resultsPerQuestion, "ual": asset.ual},
                "execution_priority": 2,
            }
        )
    unique: dict[str, dict[str, Any]] = {}
    for q in questions:
        unique.setdefault(" ".join(keywords_of(q["question"])), q)
    chosen = list(unique.values())[: args.maxSubtasks]
    plan = [
        ResearchQuestion(id=i, **q)
        for i, q in enumerate(chosen, start=1)  # type: ignore[arg-type]
    ]
    lines = [f"Research plan for: {query}", f"Topic: {topic}"]
    lines += [f"{q.id}. [p{q.execution_priority} {q.node_type}] {q.question}" for q in plan]
    return PlanResult(plan="\n".join(lines), questions=plan)
