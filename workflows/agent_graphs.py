"""Agent graphs compiled once per worker process and shared by the runs it executes.

Building a Deep Agents graph is mostly structure: the middleware stack, every subagent
compiled (deepagents compiles each one twice), each tool node inspecting its tools'
signatures, the state graph compiled. Three graphs a run cost more worker CPU than
running their loops (12 % of the worker's samples against 7 %, bench/cpu_profile.py),
and it was the same work every run.

A compiled graph can be shared because it holds no run state: no checkpointer (the
loop's state lives in `astream`'s locals), middleware and `StateBackend` that keep
nothing between calls, a model that is a name plus activity options. Everything a run
does reach goes through `RunScope`: the candidate ledger its tools file proposals in,
and its own `/memories/` backend (the run id and tags the worker-side factory needs).
`SubagentRunner` sets the scope around each agent loop; asyncio copies it into every
task langgraph and langchain start, so concurrent runs never see each other's.

Sharing changes no command: building a graph schedules nothing and draws no
`workflow.uuid4()` (the run's own memory backend, built each loop as before, does), so
a run replays the same whether its worker built the graph for it or found it built.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

from temporalio import workflow
from temporalio.common import RetryPolicy

from workflows.agent_tools import ToolRouting, activity_tools
from workflows.candidate_refs import CandidateLedger
from workflows.local_model import model_for
from workflows.tool_schemas import count_tokens
from workflows.tool_views import ToolView

with workflow.unsafe.imports_passed_through():
    from deepagents.backends import CompositeBackend, StateBackend
    from deepagents.middleware.summarization import create_summarization_middleware
    from langchain.agents.middleware import TodoListMiddleware
    from temporalio.deepagents import TemporalBackend, create_temporal_deep_agent

MEMORY_ROUTE = "/memories/"
MEMORY_BACKEND = "memory"  # the worker-side factory name (kminer/worker.py)
# Distinct graphs are one per (role, model, queues) a worker meets: a handful. The bound
# only keeps a worker that meets many model names from holding them all.
MAX_GRAPHS = 64


def memory_backend(run_id: str, tags: list[str]) -> TemporalBackend:
    """`/memories/**` of one run in SQL, each operation an activity.

    `backend_type=StateBackend` advertises the methods without constructing the SQL
    backend here: the worker's SqlMemoryBackend subclasses it.
    """
    return TemporalBackend(
        MEMORY_BACKEND,
        factory_argument={"runId": run_id, "tags": tags},
        backend_type=StateBackend,
        activity_options={
            "start_to_close_timeout": timedelta(seconds=20),
            "retry_policy": RetryPolicy(maximum_attempts=5),
        },
    )


def agent_backend(run_id: str, tags: list[str]) -> CompositeBackend:
    """Run files in agent state; `/memories/**` in SQL (one run's, for an unshared graph)."""
    return CompositeBackend(
        default=StateBackend(), routes={MEMORY_ROUTE: memory_backend(run_id, tags)}
    )


@dataclass(frozen=True)
class RunScope:
    """What a shared graph reaches of the run driving it."""

    ledger: CandidateLedger
    memory: TemporalBackend


RUN_SCOPE: ContextVar[RunScope] = ContextVar("kminer_agent_run_scope")


def current_scope() -> RunScope:
    try:
        return RUN_SCOPE.get()
    except LookupError:
        raise RuntimeError("a shared agent graph ran outside SubagentRunner's scope") from None


def scoped_ledger() -> CandidateLedger:
    return current_scope().ledger


class RunMemoryRoute(TemporalBackend):
    """The `/memories/` route of a shared graph: each operation is the running run's.

    Built like a named-factory TemporalBackend (so deepagents, which probes backends by
    class, sees the same methods and signatures), it has no dispatch settings of its own:
    every operation goes to the run's backend, which dispatches it exactly as an unshared
    graph's route would (same activity, options, backend ref and factory argument).
    """

    def __init__(self, inner: Any, **_: Any) -> None:
        # Not TemporalBackend.__init__: that would draw a workflow.uuid4() in whichever run
        # happens to build the graph. `_inner` is what its attribute fallback reads.
        self._inner = SimpleNamespace()

    async def _dispatch(self, op: str, *args: Any, **kwargs: Any) -> Any:
        return await current_scope().memory._dispatch(op, *args, **kwargs)


def shared_backend() -> CompositeBackend:
    """Run files in agent state, `/memories/**` through whichever run is in scope."""
    route = RunMemoryRoute(MEMORY_BACKEND, backend_type=StateBackend)
    return CompositeBackend(default=StateBackend(), routes={MEMORY_ROUTE: route})


def deep_agent(
    role: str,
    model: Any,
    tools: list[Any],
    prompt: str,
    subagents: list[dict[str, Any]] | None,
    backend: Any,
) -> Any:
    """`role`'s Deep Agents graph from its parts: the middleware every agent of a run has.

    The durable parts (model, tools, backend) are `build_agent`'s; bench/overhead_direct.py
    gives plain ones to run the same agents without Temporal.
    """

    def summarization() -> Any:
        # Deep Agents' own summarization (it replaces the default by name, in the agent,
        # its general-purpose helper and each subagent), counting with the tool schemas
        # shared across runs (workflows/tool_schemas.py): the same counts, built once.
        return create_summarization_middleware(model, backend, token_counter=count_tokens)

    return create_temporal_deep_agent(
        model=model,
        tools=tools,
        system_prompt=prompt,
        # Each model is shown only its role's tools, in short (workflows/tool_views.py).
        middleware=[TodoListMiddleware(), summarization(), ToolView(role)],
        subagents=[
            {**spec, "middleware": [summarization(), ToolView(spec["name"])]}
            for spec in subagents or []
        ],
        backend=backend,
        name=role,
    )


def build_agent(
    role: str,
    model_name: str,
    options: dict[str, Any],
    routing: ToolRouting,
    prompt: str,
    tools: list[str],
    subagents: list[dict[str, Any]] | None,
) -> Any:
    """`role`'s agent, reaching the ledger and memory of whichever run drives it (a
    function of its arguments only: it outlives the run that built it)."""
    return deep_agent(
        role, model_for(model_name, options), activity_tools(tools, routing, scoped_ledger),
        prompt, subagents, shared_backend(),
    )  # fmt: skip


_GRAPHS: dict[Hashable, Any] = {}
# One build at a time: runs started in a burst all miss the same key at once, and fifty
# threads compiling the same graph on two cores kept one activation past Temporal's 2 s
# deadlock limit (TMPRL1101). The others wait one build's time and take its graph.
_BUILDING = threading.Lock()


def shared_graph(key: Hashable, build: Callable[[], Any]) -> Any:
    """The graph for `key`, built by `build` the first time a run of this process asks.

    Workflow tasks run on a thread pool, so two runs may ask for the same key at once:
    the first builds it under `_BUILDING` and every later one finds it built.
    """
    graph = _GRAPHS.get(key)
    if graph is not None:
        return graph
    with _BUILDING:
        graph = _GRAPHS.get(key)
        if graph is None:
            graph = build()
            if len(_GRAPHS) >= MAX_GRAPHS:
                _GRAPHS.clear()
            _GRAPHS[key] = graph
    return graph


def warm_graph_builds() -> None:
    """Pay at worker start what the first graph build would pay inside a workflow
    activation: deepagents stamps every graph with its version, and finding whether it
    is an editable install scans every installed distribution's metadata on disk (0.2 s
    idle, over 2 s under a burst of starts). The answer is cached for the process."""
    from deepagents._version import _lc_version

    _lc_version()
