"""A one-agent workflow that touches `/memories/` through the production backend wiring."""

from __future__ import annotations

from typing import Any

from temporalio import workflow

import workflows.passthrough  # noqa: F401  (first: agent_graphs is the worker's, as in a run)
from workflows.agent_graphs import (
    RUN_SCOPE,
    RunScope,
    agent_backend,
    memory_backend,
    shared_backend,
    shared_graph,
)
from workflows.candidate_refs import CandidateLedger

with workflow.unsafe.imports_passed_through():
    from temporalio.deepagents import create_temporal_deep_agent

PROMPT = "You keep long-term notes."


@workflow.defn
class MemoryRouteWorkflow:
    @workflow.run
    async def run(self, model: str, shared: bool = False) -> list[dict[str, str]]:
        """With `shared`, the graph is the worker's (built by the first such run) and its
        memory route reaches this run's backend through the run scope, as mining runs'."""
        run_id = workflow.info().workflow_id
        request = {"messages": [{"role": "user", "content": "update notes"}]}
        if not shared:
            backend = agent_backend(run_id, ["supply_chain"])
            agent = create_temporal_deep_agent(model=model, system_prompt=PROMPT, backend=backend)
            state: Any = await agent.ainvoke(request)
        else:
            agent = shared_graph(
                ("memory-route-test", model),
                lambda: create_temporal_deep_agent(
                    model=model, system_prompt=PROMPT, backend=shared_backend()
                ),
            )
            scope = RUN_SCOPE.set(
                RunScope(CandidateLedger(), memory_backend(run_id, ["supply_chain"]))
            )
            try:
                state = await agent.ainvoke(request)
            finally:
                RUN_SCOPE.reset(scope)
        return [
            {"type": m.type, "name": getattr(m, "name", None) or "", "content": str(m.content)}
            for m in state["messages"]
        ]
