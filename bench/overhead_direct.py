"""A recorded run again without Temporal, for bench/overhead.py, on a fresh data dir:
its subagent loops as the same Deep Agents graphs whose tools call the activity
functions directly, and the rest of its recorded activities replayed inside
`temporalio.testing.ActivityEnvironment`, all in the order the run made them."""

from __future__ import annotations

import copy
import inspect
import time
from collections import Counter
from typing import Any

from temporalio.testing import ActivityEnvironment

from bench.overhead_recording import Call, Loop, Recording
from contracts.run import Usage
from contracts.tools import TOOL_ARGS
from kminer.config import Settings
from kminer.worker import Services, activities_for
from storage.sql.memory_backend import SqlMemoryBackend
from storage.sql.memory_repo import MemoryRepository
from workflows import prompts
from workflows.agent_graphs import RUN_SCOPE, RunScope, deep_agent, scoped_ledger, shared_backend
from workflows.agent_tools import ToolRouting, activity_tools
from workflows.agents.policy import RulesPolicyModel
from workflows.usage import UsageCounter

TOOL_NAMES = frozenset(TOOL_ARGS)


def activity_functions(settings: Settings, services: Services) -> dict[str, Any]:
    """This data dir's activity functions by activity name."""
    return {a.__temporal_activity_definition.name: a for a in activities_for(settings, services)}


async def call(env: ActivityEnvironment, fn: Any, *args: Any) -> Any:
    """One activity function called in an activity context, sync or async."""
    out = env.run(fn, *args)
    return await out if inspect.isawaitable(out) else out


class DirectMemory:
    """A run's `/memories/` operations on the SQL backend itself (what the plugin's
    backend activity would call on the worker)."""

    def __init__(self, backend: SqlMemoryBackend) -> None:
        self.backend = backend

    async def _dispatch(self, op: str, *args: Any, **kwargs: Any) -> Any:
        out = getattr(self.backend, op)(*args, **kwargs)
        return await out if inspect.isawaitable(out) else out


class DirectAgents:
    """The run's subagents without Temporal: built once per bench process, like a worker's
    shared graphs, each tool call made on this data dir's activity functions."""

    def __init__(self) -> None:
        self.graphs: dict[str, Any] = {}
        self.fns: dict[str, Any] = {}
        self.made: Counter[str] = Counter()
        self.env = ActivityEnvironment()

    async def dispatch(self, name: str, args: Any, routing: ToolRouting) -> Any:
        self.made[name] += 1
        return await call(self.env, self.fns[name], args)

    def graph(self, loop: Loop) -> Any:
        graph = self.graphs.get(loop.role)
        if graph is None:
            tools = activity_tools(loop.tools, ledger=scoped_ledger, dispatch=self.dispatch)
            specs = [
                {**spec, "tools": activity_tools(names, dispatch=self.dispatch)}
                for spec, names in zip(prompts.SUBAGENT_SPECS, loop.subagent_tools, strict=False)
            ]
            graph = deep_agent(
                loop.role, RulesPolicyModel(), tools, loop.prompt, specs, shared_backend()
            )
            self.graphs[loop.role] = graph
        return graph

    async def run(self, loop: Loop, memory: MemoryRepository) -> None:
        graph = self.graph(loop)
        config = loop.config
        backend = SqlMemoryBackend(memory, config["runId"], config["tags"])
        scope = RUN_SCOPE.set(RunScope(copy.deepcopy(loop.ledger), DirectMemory(backend)))  # type: ignore[arg-type]
        try:
            await graph.ainvoke(
                {"messages": [{"role": "user", "content": loop.message}]},
                config={
                    "recursion_limit": config["recursion_limit"],
                    "configurable": config["configurable"],
                    "callbacks": [UsageCounter(Usage())],
                },
            )
        finally:
            RUN_SCOPE.reset(scope)


async def direct(
    recording: Recording, agents: DirectAgents, settings: Settings, services: Services
) -> float:
    """The run again without Temporal, on a fresh data dir: its subagent loops run directly
    and the rest of its recorded calls are replayed, all in the order the run made them."""
    fresh = activity_functions(settings, services)
    agents.fns = fresh
    agents.made.clear()
    memory = MemoryRepository(services.engine)
    env = ActivityEnvironment()
    calls = recording.calls
    in_loops = {i for loop in recording.loops for i in range(loop.first, loop.end)}
    starting: dict[int, list[Loop]] = {}
    for loop in recording.loops:
        starting.setdefault(loop.first, []).append(loop)
    started = time.perf_counter()
    for index in range(len(calls) + 1):
        for loop in starting.get(index, []):
            await agents.run(loop, memory)
        if index < len(calls) and index not in in_loops:
            made = calls[index]
            await call(env, fresh.get(made.name, made.fn), *made.args)
    seconds = time.perf_counter() - started
    # The same tool calls as the run's loops (a check that the direct loops did its work).
    ran = Counter(calls[i].name for i in in_loops if calls[i].name in TOOL_NAMES)
    if ran != agents.made:
        print(f"note: direct loops made {dict(agents.made)}, the run's loops {dict(ran)}")
    return seconds


async def replay(calls: list[Call], settings: Settings, services: Services) -> float:
    """Every recorded call again, in order, without Temporal and without agent loops (the
    direct path before 2026-11-25), on a fresh data dir."""
    fresh = activity_functions(settings, services)
    env = ActivityEnvironment()
    started = time.perf_counter()
    for made in calls:
        # The plugin's memory activities are not among this data dir's: as run.
        await call(env, fresh.get(made.name, made.fn), *made.args)
    return time.perf_counter() - started
