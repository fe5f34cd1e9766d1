"""Runs the three Deep Agents subagents inside the workflow and mirrors their state.

Each subagent is a `create_temporal_deep_agent` graph, compiled once per worker process
and shared by its runs (workflows/agent_graphs.py): its loop replays here, its model
calls and I/O tools are activities, and its todos and /research files live in agent
state (workflow memory), streamed into the workspace as they change.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from temporalio import workflow

from contracts.activity_names import (
    DKG_FIND_RELATED_ASSETS,
    DKG_SPARQL,
    EXTRACT_STATEMENTS,
    SCORE_CANDIDATES,
    WEB_SEARCH,
)
from contracts.model_calls import DegradedStep, ModelLimits
from contracts.run import FileInfo, MiningRequest, Todo, Usage, Workspace, memory_tags
from contracts.tools import DISCOVERY_TOOLS, ENRICHMENT_TOOLS, VALIDATION_TOOLS
from workflows import prompts
from workflows.agent_graphs import RUN_SCOPE, RunScope, build_agent, memory_backend, shared_graph
from workflows.agent_loop import AgentParts, LoopEnd
from workflows.agent_tools import ToolRouting, activity_tools
from workflows.budget import BudgetExceeded, BudgetGuard, cost_usd
from workflows.candidate_refs import CANDIDATES_FILE, CandidateLedger, compact_view
from workflows.continuation import AgentsState
from workflows.degradation import (
    job_done,
    missing_work,
    model_failure,
    spent_on_failure,
)
from workflows.model_limits import agent_options, on_queue
from workflows.patches import DEGRADE_PATCH, patched
from workflows.research_synthesis import merged
from workflows.statement_refs import STATEMENTS_FILE, statement_views
from workflows.usage import UsageCounter, count_spent
from workflows.workspace import (
    file_texts,
    files_from_state,
    final_output,
    subagents_from_messages,
    todos_from_state,
    tool_events,
    tool_results,
    trusted_score_rows,
)

MAX_STATEMENTS = 60
RULES_MODEL = "rules"

# Claims enrichment may propose per iteration of the run: a question about an event
# names a handful of parties, each with a few facts (the labeled sets ask 8-9 a question).
# At 4 (16 claims at the default 4 iterations) every shared quality set lost relevant,
# extracted facts at this cap (bench/shared_funnel.py: 21 gold pairs of 159); at 5, 10
# (each set gains 1-4), and a run still stays within MAX_CLAIMS.
CLAIMS_PER_ITERATION = 5
# ... and per run: what a run's history budget was sized for (20 claims at maxIterations
# 10, tests/workflows/test_history_budget.py), whatever maxIterations asks.
MAX_CLAIMS = 20


def recursion_limit(request: MiningRequest) -> int:
    """Graph steps an agent loop of this run may take."""
    return 20 + 10 * request.maxIterations


@dataclass
class SubagentOutcome:
    summary: str
    notes: list[str]
    messages: list[Any] = field(default_factory=list)
    statements: list[dict[str, Any]] = field(default_factory=list)
    proposed: list[dict[str, Any]] = field(default_factory=list)
    scores: list[dict[str, Any]] = field(default_factory=list)
    report: str = ""
    sources: int = 0
    # The step degraded (workflows/degradation.py): its messages may hold two loops' calls.
    degraded: bool = False


class SubagentRunner:
    def __init__(
        self,
        ws: Workspace,
        model: str,
        request: MiningRequest,
        memory: dict[str, str],
        tool_queue: str | None = None,
        budgets: bool = False,
        local_reads: bool = False,
        model_queue: str | None = None,
        model_limits: ModelLimits | None = None,
        on_change: Callable[[list[dict[str, Any]]], None] | None = None,
    ) -> None:
        self._ws = ws
        # Told after each change, with the tool calls and results since the last one.
        self._on_change = on_change or (lambda events: None)
        self._seen = 0  # messages of the current loop already told
        # Where the DKG / search tools run (queue None: this one), and whether the cheap
        # ones run as local activities (workflows/agent_tools.py).
        self._routing = ToolRouting(tool_queue, local_reads)
        # The full candidate rows the model only sees by reference.
        self._ledger = CandidateLedger()
        self._filed = 0
        # Where the model calls run (`kminer worker --role models`); None: this queue, with
        # the very options runs recorded before the model queue existed.
        # Their timeouts and attempts: the worker's KM_MODEL_* (workflows/model_limits.py).
        self.model_options = on_queue(agent_options(model_limits), model_queue)
        self._model_queue = model_queue
        # Runs recorded before budgets existed replay without the guard.
        self._budgets = budgets
        self._began = workflow.now()
        self._model = model
        self._request = request
        self._memory = memory
        self._todos: dict[str, list[Any]] = {}
        self._spawned: dict[str, list[Any]] = {}
        self._files: dict[str, Any] = {}
        # Research files' text, for the `research_file` query (never in history).
        self.file_texts: dict[str, str] = {}
        self._counter = UsageCounter(ws.usage)

    def _notes(self, name: str) -> dict[str, str]:
        return {p: t for p, t in self._memory.items() if p.endswith(f"/{name}.md") and t}

    async def _run(
        self,
        role: str,
        prompt: str,
        tools: list[str],
        title: str,
        payload: dict[str, Any],
        subagents: Callable[[], list[dict[str, Any]]] | None = None,
    ) -> SubagentOutcome:
        parts = AgentParts(prompt, tools, subagents)
        message = prompts.task_message(title, payload)
        end = await self._loop(
            role, self._model, self.model_options, self._model_queue, parts, message,
            self.callbacks(role),
        )  # fmt: skip
        messages, partial = end.messages, end.stopped
        if end.stopped:
            self._degraded(role, end.stopped, "partial results")
        why = end.failure
        if why is None and end.stopped is None and self._model != RULES_MODEL:
            why = missing_work(role, messages)
        degraded = False
        if why is not None and patched(DEGRADE_PATCH):
            degraded = True
            if end.failure is not None and job_done(role, messages):
                self._degraded(role, why, "partial results")
                partial = why
            else:
                self._degraded(role, why, "rules policy")
                messages = messages + await self._fallback(role, parts, message)
        elif end.error is not None:
            raise end.error  # a run recorded before degrading failed here
        self.priced(role)
        output = final_output(messages)
        if partial:
            output = {"summary": f"Stopped early ({role}: {partial}; its results are partial)."}
        notes = output.get("notes") or []
        return SubagentOutcome(
            summary=str(output.get("summary", "")), notes=notes, messages=messages,
            degraded=degraded,
        )  # fmt: skip

    async def _loop(
        self,
        role: str,
        model: str,
        options: dict[str, Any],
        queue: str | None,
        parts: AgentParts,
        message: str,
        callbacks: list[Any],
    ) -> LoopEnd:
        """One loop of `role`'s agent driven by `model`, mirrored into the workspace."""
        # Everything the graph is built from besides these (the model calls' options too:
        # a worker's KM_MODEL_* limits) is the same in every run; its parts (`subagents`
        # too) are built only when a graph is.
        key = (role, model, queue, self._routing, repr(sorted(options.items())))
        agent = shared_graph(
            key,
            lambda: build_agent(
                role, model, options, self._routing, parts.prompt, parts.tools,
                parts.subagents() if parts.subagents else None,
            ),
        )  # fmt: skip
        # Built before each loop, as when every run built its own graph: the same backend
        # ref (a workflow.uuid4() draw) and factory argument in its activities' inputs.
        memory = memory_backend(self._ws.runId, memory_tags(self._request.domainTags))
        state: dict[str, Any] = {}
        config = {
            "recursion_limit": recursion_limit(self._request),
            "callbacks": callbacks,
            # Runs with the same tags share a thread (seed requirement 10).
            "configurable": {"thread_id": self._request.threadId},
        }
        end = LoopEnd(messages=[])
        self._seen = 0
        scope = RUN_SCOPE.set(RunScope(self._ledger, memory))
        try:
            async for state in agent.astream(
                {"messages": [{"role": "user", "content": message}]},
                config=config,
                stream_mode="values",
            ):
                self._mirror(role, state)
        except BudgetExceeded as exc:
            # Stopped before the call past the limit: go on with what it had gathered.
            end.stopped = str(exc)
            stopped = f"{role}: {exc}; its results are partial"
            self._ws.budgetStops.append(stopped)
            self._ws.errors.append(f"budget: {stopped}")
        except Exception as exc:
            end.failure = model_failure(exc)
            if end.failure is None:
                raise
            end.error = exc
            for usage in self._usages(role):  # replies refused as unusable were paid for
                count_spent(usage, spent_on_failure(exc))
        finally:
            RUN_SCOPE.reset(scope)
        end.messages = list(state.get("messages", []))
        return end

    async def _fallback(self, role: str, parts: AgentParts, message: str) -> list[Any]:
        """`role`'s loop again, driven by the rules policy deciding in the workflow."""
        options = agent_options(None)  # no model queue: the policy decides here
        # Its tool calls count; its policy turns are no model calls (workflows/usage.py).
        tools_only = UsageCounter(self._ws.usage, models=False)
        end = await self._loop(role, RULES_MODEL, options, None, parts, message, [tools_only])
        if end.error is not None:
            raise end.error
        return end.messages

    def _degraded(self, role: str, reason: str, fallback: Any) -> None:
        step = DegradedStep(step=role, reason=reason, fallback=fallback)
        self._ws.degradedSteps.append(step)
        self._ws.errors.append(f"degraded: {step.sentence()}")

    def callbacks(self, role: str) -> list[Any]:
        """Usage counting and, for runs with budgets, the budget guard of `role`'s tree."""
        callbacks: list[Any] = [self._counter]
        if self._budgets:
            mine = self._ws.usageBySubagent.setdefault(role, Usage())
            callbacks.append(
                BudgetGuard(self._request.budget, role, self._ws.usage, self._began, mine)
            )
        return callbacks

    def _usages(self, role: str) -> list[Usage]:
        """The run's usage and, for runs with budgets, `role`'s."""
        mine = self._ws.usageBySubagent.get(role) if self._budgets else None
        return [self._ws.usage, *([mine] if mine is not None else [])]

    def priced(self, role: str) -> None:
        """Cost estimates of the run and of `role` after its model calls."""
        if not self._budgets:
            return
        self._ws.usage.costUsd = cost_usd(self._model, self._ws.usage)
        mine = self._ws.usageBySubagent.get(role)
        if mine is not None:
            mine.costUsd = cost_usd(self._model, mine)

    def snapshot(self) -> AgentsState:
        """The mirrored state, for the next run of a continue-as-new chain."""
        return AgentsState(
            todos=self._todos, spawned=self._spawned, files=list(self._files.values()),
            fileTexts=self.file_texts, began=self._began,
        )  # fmt: skip

    def restore(self, state: AgentsState) -> None:
        """Go on from a snapshot: the workspace already holds what it mirrored."""
        self._todos = {role: list(todos) for role, todos in state.todos.items()}
        self._spawned = {role: list(spawned) for role, spawned in state.spawned.items()}
        self._files = {info.path: info for info in state.files}
        self.file_texts = dict(state.fileTexts)
        self._began = state.began
        # The candidate ledger is not carried: enrichment fills it and hands its rows on as
        # the run's candidates (in the checkpoint), and validation, a stage of its own,
        # loads its entries from those; the candidates file is among `fileTexts`.

    def set_todos(self, role: str, todos: list[Todo]) -> None:
        """Todos of a step that is not an agent loop (the research plan), shown as `role`'s."""
        self._todos[role] = todos
        self._ws.todos = [t for items in self._todos.values() for t in items]
        self._on_change([])

    def _mirror(self, role: str, state: dict[str, Any]) -> None:
        """Copy what changed in the agent's state into the live workspace."""
        messages = list(state.get("messages", []))
        self._todos[role] = todos_from_state(state, role)
        self._spawned[role] = subagents_from_messages(messages)
        if len(self._ledger.proposals) != self._filed:
            # The candidates file is the workflow's: the model never holds the JSON-LD.
            self._filed = len(self._ledger.proposals)
            text = self._ledger.file_text()
            self._files[CANDIDATES_FILE] = FileInfo(path=CANDIDATES_FILE, size=len(text.encode()))
            self.file_texts[CANDIDATES_FILE] = text
        for info in files_from_state(state):
            self._files[info.path] = info
        self.file_texts.update(file_texts(state))
        self._ws.todos = [t for todos in self._todos.values() for t in todos]
        self._ws.spawnedSubagents = [s for spawned in self._spawned.values() for s in spawned]
        self._ws.filesystemFiles = list(self._files.values())
        self._on_change(tool_events(messages[self._seen :], role))
        self._seen = len(messages)

    async def discovery(self, findings: list[str] | None = None) -> SubagentOutcome:
        req = self._request
        payload: dict[str, Any] = {
            "query": req.query,
            "domainTags": req.domainTags,
            "maxIterations": req.maxIterations,
            "memory": self._notes("discovery-notes"),
        }
        if findings is not None:
            # The research plan already ran: its findings tell the agent what is covered.
            payload["researchFindings"] = findings
        out = await self._run(
            "discovery",
            prompts.DISCOVERY,
            DISCOVERY_TOOLS,
            "Collect raw signals for this question.",
            payload,
        )
        found = tool_results(out.messages, EXTRACT_STATEMENTS)
        # A degraded step's two loops may have extracted the same statements.
        out.statements = merged([found]) if out.degraded else found[:MAX_STATEMENTS]
        out.sources = len(tool_results(out.messages, WEB_SEARCH)) + len(
            tool_results(out.messages, DKG_FIND_RELATED_ASSETS)
        )
        return out

    async def enrichment(self, statements: list[dict[str, Any]]) -> SubagentOutcome:
        req = self._request

        def resolvers() -> list[dict[str, Any]]:
            tools = activity_tools([DKG_FIND_RELATED_ASSETS, DKG_SPARQL], self._routing)
            return [{**spec, "tools": tools} for spec in prompts.SUBAGENT_SPECS]

        self._ledger.statements = statements
        room = min(MAX_CLAIMS, CLAIMS_PER_ITERATION * req.maxIterations)
        self._ledger.room = room
        text = json.dumps(statements, indent=1, sort_keys=True)
        self._files[STATEMENTS_FILE] = FileInfo(path=STATEMENTS_FILE, size=len(text.encode()))
        self.file_texts[STATEMENTS_FILE] = text
        out = await self._run(
            "enrichment",
            prompts.ENRICHMENT,
            ENRICHMENT_TOOLS,
            "Turn these statements into candidate Knowledge Assets.",
            {
                "query": req.query,
                "domainTags": req.domainTags,
                "statements": statement_views(statements),
                "statementsRef": STATEMENTS_FILE,
                "maxCandidates": room,
                "memory": self._notes("schema-notes"),
            },
            subagents=resolvers,
        )
        if self._ledger.truncated():
            self._ws.errors.append(
                "propose_knowledge_assets answered with more than fits in history: "
                "some candidates were left out (lower maxIterations)"
            )
        out.proposed = self._ledger.proposed_rows()
        return out

    async def validation(self, candidates: list[dict[str, Any]], rules: str) -> SubagentOutcome:
        self._ledger.validating(candidates)
        out = await self._run(
            "validation",
            prompts.VALIDATION,
            VALIDATION_TOOLS,
            "Validate these candidate Knowledge Assets.",
            {
                "candidates": [compact_view(c) for c in candidates],
                "candidatesRef": CANDIDATES_FILE,
                "validationRules": rules,
            },
        )
        rows = tool_results(out.messages, SCORE_CANDIDATES)
        out.scores = trusted_score_rows(out.messages, candidates)
        # The summary of the tool's report (or the agent's own words); the workflow adds
        # a line per candidate once every candidate is scored (workflows/review.py).
        out.report = next((r["report"] for r in rows if "report" in r), out.summary)
        return out
