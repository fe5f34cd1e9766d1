"""The offline `rules` policy: a real chat model that sequences the tools.

It answers each model call the way a careful LLM would, but deterministically:
read the role from the system prompt, look at which tools already answered, and
emit the next tool calls (several at once where they are independent). The
tools do the work; this only decides the order and writes the final JSON.

It is workflow code: a run decides with it in the workflow (workflows/local_model.py),
so it does no I/O, reads no clock and draws no random number, and a change to what it
decides goes behind a patch like any change of a workflow's commands (asked at the
start of the run: workflows/patches.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from contracts.activity_names import (
    DKG_FIND_RELATED_ASSETS,
    DKG_SPARQL,
    EXTRACT_STATEMENTS,
    PROPOSE_KNOWLEDGE_ASSETS,
    SCORE_CANDIDATES,
    WEB_SEARCH,
)
from contracts.tools import search_hit_documents
from mining.report import report_lines
from workflows.prompts import ROLE_LINE, read_payload, task_message
from workflows.workspace import response_rows

Call = dict[str, Any]
MAX_RESOLVED_NAMES = 6


def _results(message: ToolMessage | None) -> list[dict[str, Any]]:
    return response_rows(message) if message is not None else []


class Turn:
    """What the policy knows at one model call."""

    def __init__(self, messages: list[BaseMessage]) -> None:
        system = str(messages[0].content) if messages else ""
        match = ROLE_LINE.search(system)
        self.role = match.group(1) if match else "unknown"
        human = next((m for m in messages if m.type == "human"), None)
        self.payload = read_payload(str(human.content)) if human else {}
        self.step = sum(1 for m in messages if m.type == "ai")
        self.tools: dict[str, ToolMessage] = {}
        self.answers: dict[str, ToolMessage] = {}
        for m in messages:
            if isinstance(m, ToolMessage):
                self.answers[m.tool_call_id] = m
                if m.name:
                    self.tools[m.name] = m  # the latest answer of each tool

    def results(self, tool: str) -> list[dict[str, Any]]:
        return _results(self.tools.get(tool))

    def call(self, name: str, **args: Any) -> Call:
        return {"name": name, "args": args, "id": f"{self.role}-{self.step}-{name}"}


def _todos(items: list[tuple[str, str]]) -> list[dict[str, str]]:
    return [{"content": content, "status": status} for content, status in items]


def _final(summary: str, **extra: Any) -> str:
    return json.dumps({"summary": summary, **extra}, sort_keys=True)


def discovery(turn: Turn) -> list[Call] | str:
    query = turn.payload.get("query", "")
    tags = turn.payload.get("domainTags") or ["global"]
    breadth = int(turn.payload.get("maxIterations", 4))
    plan = [
        f"Read discovery notes for {', '.join(tags)}",
        "Query DKG for entities related to the question",
        "Search the web for recent sources",
        "Extract statements with provenance",
        "Offload research files",
    ]
    if turn.step == 0:
        return [
            turn.call(
                "write_todos",
                todos=_todos(
                    [
                        (plan[0], "completed"),
                        (plan[1], "in_progress"),
                        (plan[2], "in_progress"),
                        (plan[3], "pending"),
                        (plan[4], "pending"),
                    ]
                ),
            ),
            turn.call(DKG_FIND_RELATED_ASSETS, text=query, limit=8),
            turn.call(WEB_SEARCH, query=query, maxResults=min(20, 4 + 2 * breadth)),
        ]
    hits = turn.results(WEB_SEARCH)
    related = turn.results(DKG_FIND_RELATED_ASSETS)
    if turn.step == 1:
        calls = [
            turn.call(
                "write_todos",
                todos=_todos(
                    [
                        (plan[0], "completed"),
                        (plan[1], "completed"),
                        (plan[2], "completed"),
                        (plan[3], "in_progress"),
                        (plan[4], "pending"),
                    ]
                ),
            ),
            turn.call(EXTRACT_STATEMENTS, documents=search_hit_documents(hits), query=query),
        ]
        if related:
            values = " ".join(f"<{r['ual']}>" for r in related)
            calls.append(
                turn.call(
                    DKG_SPARQL,
                    query=(
                        "SELECT ?ual ?label ?stake ?publisher WHERE { GRAPH <did:dkg:metadata> { "
                        "?ual rdfs:label ?label ; dkg:stakeAmount ?stake ; "
                        "dkg:publisher ?publisher } "
                        f"VALUES ?ual {{ {values} }} }} ORDER BY DESC(?stake)"
                    ),
                    limit=50,
                )
            )
        return calls
    statements = turn.results(EXTRACT_STATEMENTS)
    if turn.step == 2:
        sources = "\n".join(f"- [{h.get('title', '')}]({h.get('url', '')})" for h in hits)
        return [
            turn.call(
                "write_file",
                file_path="/research/web-sources.md",
                content=f"# Web sources for: {query}\n\n{sources}\n",
            ),
            turn.call(
                "write_file",
                file_path="/research/dkg-signals.json",
                content=json.dumps(
                    {"related": related, "statements": statements}, indent=1, sort_keys=True
                ),
            ),
            turn.call("write_todos", todos=_todos([(p, "completed") for p in plan])),
        ]
    entities = sorted({s["subject"] for s in statements} | {r["label"] for r in related[:3]})
    notes = [f"Question '{query}': {len(statements)} statements from {len(hits)} sources"]
    if hits:
        notes.append("Useful sources: " + ", ".join(h["url"] for h in hits[:3]))
    if entities:
        notes.append("Entities that answered it: " + ", ".join(entities[:8]))
    if related:
        notes.append(
            f"Label lookup (dkg_find_related_assets) on the question found {related[0]['label']}"
            f" ({related[0]['ual']}) first"
        )
    return _final(
        f"Discovery found {len(statements)} statements in {len(hits)} sources and "
        f"{len(related)} related DKG assets.",
        notes=notes,
    )


def _statements_arg(payload: dict[str, Any]) -> dict[str, Any]:
    """The task's statements as propose takes them: by its reference when it gives one
    (the task then shows only a compact view of each, workflows/statement_refs.py)."""
    ref = payload.get("statementsRef")
    return {"statementsRef": ref} if ref else {"statements": payload.get("statements", [])}


def enrichment(turn: Turn) -> list[Call] | str:
    statements = turn.payload.get("statements", [])
    tags = turn.payload.get("domainTags", [])
    # The workflow writes the candidates file as propose answers (the JSON-LD never passes
    # through the model), so the last todo is done once propose has answered.
    plan = ["Resolve entities to DKG UALs", "Propose JSON-LD candidates", "Write candidates file"]
    # Names extraction could not tie to a DKG asset: the resolver looks them up once more.
    names = sorted(
        {s["subject"] for s in statements if not s.get("subjectUal")}
        | {s["object"] for s in statements if not s.get("objectUal")}
    )[:MAX_RESOLVED_NAMES]
    if turn.step == 0:
        calls = [
            turn.call(
                "write_todos",
                todos=_todos(
                    [(plan[0], "in_progress"), (plan[1], "pending"), (plan[2], "pending")]
                ),
            )
        ]
        if names:
            calls.append(
                turn.call(
                    "task",
                    subagent_type="entity-resolver",
                    description=task_message(
                        "Resolve these entity names to DKG UALs.", {"names": names}
                    ),
                )
            )
        return calls
    links: dict[str, str] = {}
    resolved = turn.tools.get("task")
    if resolved is not None:
        try:
            links = dict(json.loads(str(resolved.content)).get("links", {}))
        except (json.JSONDecodeError, AttributeError):
            links = {}
    if turn.step == 1:
        return [
            turn.call(
                "write_todos",
                todos=_todos(
                    [(plan[0], "completed"), (plan[1], "in_progress"), (plan[2], "pending")]
                ),
            ),
            turn.call(
                PROPOSE_KNOWLEDGE_ASSETS,
                **_statements_arg(turn.payload),
                links=links,
                domainTags=tags,
                query=turn.payload.get("query", ""),
                maxCandidates=int(turn.payload.get("maxCandidates", 8)),
            ),
        ]
    # Each candidate as the model sees it (workflows/candidate_refs.compact_view).
    proposed = turn.results(PROPOSE_KNOWLEDGE_ASSETS)
    if turn.step == 2:
        return [turn.call("write_todos", todos=_todos([(p, "completed") for p in plan]))]
    notes = [f"Entity mapping: {name} -> {ual}" for name, ual in sorted(links.items())]
    predicates = sorted(
        {p["claim"]["predicate"] for p in proposed if p.get("kind") != "entity" and p.get("claim")}
    )
    if predicates:
        notes.append(
            "Claim pattern: schema:Claim with about -> subject UAL and mentions -> object UAL; "
            f"predicates seen: {', '.join(predicates)}"
        )
    linked = {ual for p in proposed for ual in p.get("linkedAssets", [])}
    return _final(
        f"Enrichment proposed {len(proposed)} candidate Knowledge Assets linked to "
        f"{len(linked)} existing DKG assets.",
        notes=notes,
    )


def _score_call(turn: Turn) -> Call:
    """Score every candidate by the task's reference (tasks without one list them whole)."""
    rules = turn.payload.get("validationRules", "")
    ref = turn.payload.get("candidatesRef")
    if ref:
        return turn.call(SCORE_CANDIDATES, candidatesRef=ref, validationRules=rules)
    candidates = turn.payload.get("candidates", [])
    return turn.call(SCORE_CANDIDATES, candidates=candidates, validationRules=rules)


def validation(turn: Turn) -> list[Call] | str:
    plan = ["Check fields, duplicates, contradictions and stake", "Write validation report"]
    if turn.step == 0:
        return [
            turn.call(
                "write_todos", todos=_todos([(plan[0], "in_progress"), (plan[1], "pending")])
            ),
            _score_call(turn),
        ]
    rows = turn.results(SCORE_CANDIDATES)
    report = next((r["report"] for r in rows if "report" in r), "No candidates to validate.")
    threshold = next((r["threshold"] for r in rows if "threshold" in r), 0.7)
    scored = [r for r in rows if "candidateId" in r]
    if turn.step == 1:
        written = "\n".join([report, *report_lines(scored)])
        return [
            turn.call(
                "write_file",
                file_path="/research/validation-report.md",
                content=f"# Validation report\n\n{written}\n",
            ),
            turn.call("write_todos", todos=_todos([(p, "completed") for p in plan])),
        ]
    accepted = [r for r in scored if r["accepted"]]
    notes = [f"accept_threshold: {threshold}"]
    if scored:
        high = [r for r in scored if r["trustSignals"]["linkedToHighStakeAssets"]]
        high_ok = sum(1 for r in high if r["accepted"])
        notes.append(
            f"{len(accepted)}/{len(scored)} accepted; {high_ok}/{len(high)} of those linked to "
            "assets staked above 50,000 TRAC were accepted"
        )
    duplicates = [r for r in scored if r.get("duplicates")]
    if duplicates:
        notes.append(f"{len(duplicates)} candidates duplicated existing assets: reject them")
    return _final(report, notes=notes)


def entity_resolver(turn: Turn) -> list[Call] | str:
    names = list(turn.payload.get("names", []))
    if turn.step == 0 and names:
        return [
            {**turn.call(DKG_FIND_RELATED_ASSETS, text=name, limit=3), "id": f"resolve-{i}"}
            for i, name in enumerate(names)
        ]
    links: dict[str, str] = {}
    for i, name in enumerate(names):
        answer = turn.answers.get(f"resolve-{i}")
        exact = [r for r in _results(answer) if str(r.get("label", "")).lower() == name.lower()]
        if exact:
            best = max(exact, key=lambda r: float(r.get("stakeAmount") or 0))
            links[name] = best["ual"]
    return _final(f"Resolved {len(links)} of {len(names)} names.", links=links)


POLICIES: dict[str, Callable[[Turn], list[Call] | str]] = {
    "discovery": discovery,
    "enrichment": enrichment,
    "validation": validation,
    "entity-resolver": entity_resolver,
}


class RulesPolicyModel(BaseChatModel):
    """Deterministic stand-in for an LLM when no OPENAI_API_KEY is configured."""

    @property
    def _llm_type(self) -> str:
        return "kminer-rules"

    def bind_tools(self, tools: Any, **kwargs: Any) -> RulesPolicyModel:
        # The policy knows its tools by role; binding changes nothing.
        return self

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        turn = Turn(messages)
        policy = POLICIES.get(turn.role)
        outcome = policy(turn) if policy else _final("unknown role: nothing to do")
        prompt_chars = sum(len(str(m.content)) for m in messages)
        if isinstance(outcome, str):
            message = AIMessage(content=outcome)
        else:
            message = AIMessage(content="", tool_calls=outcome)
        out_chars = len(json.dumps(outcome, default=str))
        message.usage_metadata = {
            "input_tokens": prompt_chars // 4,
            "output_tokens": out_chars // 4,
            "total_tokens": (prompt_chars + out_chars) // 4,
        }
        message.response_metadata = {"model_name": "rules"}
        return ChatResult(generations=[ChatGeneration(message=message)])
