"""Pure helpers that read an agent's state into the workspace (no I/O)."""

from __future__ import annotations

import json
from typing import Any

from contracts.activity_names import SCORE_CANDIDATES
from contracts.run import (
    Answer,
    Candidate,
    FileInfo,
    KnowledgeMinerResponse,
    SpawnedSubagent,
    Todo,
    Workspace,
)
from workflows.candidate_refs import resolve_candidates


def todos_from_state(state: dict[str, Any], agent: str) -> list[Todo]:
    return [
        Todo(content=str(t.get("content", "")), status=str(t.get("status", "pending")), agent=agent)
        for t in state.get("todos") or []
        if isinstance(t, dict)
    ]


def file_texts(state: dict[str, Any]) -> dict[str, str]:
    """The agent's state files (`/research/*`) by path, as text."""
    texts = {}
    for path, data in sorted((state.get("files") or {}).items()):
        content = data.get("content", "") if isinstance(data, dict) else data
        if isinstance(content, list):
            content = "\n".join(str(line) for line in content)
        texts[path] = str(content)
    return texts


def files_from_state(state: dict[str, Any]) -> list[FileInfo]:
    return [FileInfo(path=p, size=len(t.encode())) for p, t in file_texts(state).items()]


def subagents_from_messages(messages: list[Any]) -> list[SpawnedSubagent]:
    answered = {getattr(m, "tool_call_id", None) for m in messages if m.type == "tool"}
    spawned = []
    for m in messages:
        for call in getattr(m, "tool_calls", None) or []:
            if call.get("name") != "task":
                continue
            args = call.get("args") or {}
            spawned.append(
                SpawnedSubagent(
                    name=str(args.get("subagent_type", "general-purpose")),
                    task=str(args.get("description", "")).split("\n", 1)[0][:200],
                    status="completed" if call.get("id") in answered else "running",
                )
            )
    return spawned


def response_rows(message: Any) -> list[dict[str, Any]]:
    """The result rows of one tool message holding a successful ToolResponse."""
    try:
        body = json.loads(str(message.content))
    except json.JSONDecodeError:
        return []
    if not isinstance(body, dict) or not body.get("success"):
        return []
    return [r for r in body.get("results", []) if isinstance(r, dict)]


def _succeeded(message: Any) -> bool:
    """Whether a tool message answers a call that worked (a ToolResponse says so)."""
    if getattr(message, "status", "success") == "error":
        return False
    try:
        body = json.loads(str(message.content))
    except json.JSONDecodeError:
        return True
    return bool(body.get("success", True)) if isinstance(body, dict) else True


def tool_events(messages: list[Any], agent: str) -> list[dict[str, Any]]:
    """The tool calls and results among `messages`, in order, as run log events."""
    events: list[dict[str, Any]] = []
    for m in messages:
        for call in getattr(m, "tool_calls", None) or []:
            value = {"id": call.get("id"), "name": call.get("name"), "args": call.get("args")}
            events.append({"kind": "tool_call", "agent": agent, "value": value})
        if m.type == "tool":
            value = {
                "id": getattr(m, "tool_call_id", None),
                "name": getattr(m, "name", None),
                "ok": _succeeded(m),
            }
            events.append({"kind": "tool_result", "agent": agent, "value": value})
    return events


def tool_results(messages: list[Any], tool: str) -> list[dict[str, Any]]:
    """Every result row of every successful call of `tool`, in call order."""
    return [
        row
        for m in messages
        if m.type == "tool" and getattr(m, "name", None) == tool
        for row in response_rows(m)
    ]


def final_output(messages: list[Any]) -> dict[str, Any]:
    """The subagent's closing JSON; prose that is not JSON becomes the summary."""
    last = next((m for m in reversed(messages) if m.type == "ai"), None)
    if last is None:
        return {"summary": "", "notes": []}
    text = str(last.content).strip()
    if text.startswith("```"):
        text = text.strip("`").removeprefix("json").strip()
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return {"summary": text, "notes": []}
    if not isinstance(value, dict):
        return {"summary": text, "notes": []}
    notes = value.get("notes") or []
    value["notes"] = [str(n) for n in notes] if isinstance(notes, list) else [str(notes)]
    return value


def response_from(ws: Workspace, candidates: list[Candidate]) -> KnowledgeMinerResponse:
    """The seed's output JSON, built from the final workspace."""
    return KnowledgeMinerResponse(
        summary=ws.summary or "",
        answer=ws.answer or Answer(),
        candidateAssets=[
            {
                # Every candidate carries the array (seed r11), a reviewer's edit without it too.
                "linkedAssets": [],
                **c.asset,
                "candidateId": c.id,
                "candidateKind": c.kind,
                "reviewStatus": c.status,
                "publishedUal": c.publishedUal,
                "knownInDkg": c.knownInDkg,
                "contradictions": [r.model_dump() for r in c.contradictions],
            }
            for c in candidates
        ],
        domainTags=ws.domainTags,
        memoryWrites=ws.memoryWrites,
        todos=[("✓ " if t.status == "completed" else "⧗ ") + t.content for t in ws.todos],
        spawnedSubagents=ws.spawnedSubagents,
        filesystemFiles=ws.filesystemFiles,
        synthesizedReport=ws.synthesizedReport or "",
        runId=ws.runId,
        threadId=ws.threadId,
        phase=ws.phase,
        decisions=ws.decisions,
        publishedAssets=ws.publishedAssets,
        triplets=ws.triplets,
        usage=ws.usage,
        usageBySubagent=ws.usageBySubagent,
        budgetStops=ws.budgetStops,
        degradedSteps=ws.degradedSteps,
    )


def trusted_score_rows(
    messages: list[Any], candidates: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Scores from `score_candidates` calls that scored exactly the run's candidates.

    A model could pass altered assets or its own threshold; such rows are ignored,
    and the workflow scores those candidates itself. Candidates given by reference or by
    id alone are the run's own (workflows/candidate_refs.py).
    """
    current = {c["candidateId"]: c["asset"] for c in candidates}
    entries = {c["candidateId"]: c for c in candidates}
    trusted_calls: set[str] = set()
    for m in messages:
        for call in getattr(m, "tool_calls", None) or []:
            if call.get("name") != SCORE_CANDIDATES:
                continue
            args = call.get("args") or {}
            given = args.get("candidates") or []
            ref = args.get("candidatesRef")
            scored = resolve_candidates(given, ref, entries) if isinstance(given, list) else []
            if args.get("threshold") is None and all(
                isinstance(c, dict) and current.get(c.get("candidateId")) == c.get("asset")
                for c in scored
            ):
                trusted_calls.add(call.get("id"))
    rows: dict[str, dict[str, Any]] = {}
    for m in messages:
        if m.type != "tool" or getattr(m, "tool_call_id", None) not in trusted_calls:
            continue
        for row in response_rows(m):
            if row.get("candidateId") in current:
                rows[row["candidateId"]] = row
    return list(rows.values())
