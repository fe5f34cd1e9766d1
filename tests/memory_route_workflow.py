"""A one-agent workflow that touches `/memories/` through the production backend wiring."""

from __future__ import annotations

from temporalio import workflow

from workflows.subagents import agent_backend

with workflow.unsafe.imports_passed_through():
    from temporalio.deepagents import create_temporal_deep_agent


@workflow.defn
class MemoryRouteWorkflow:
    @workflow.run
    async def run(self, model: str) -> list[dict[str, str]]:
        agent = create_temporal_deep_agent(
            model=model,
            system_prompt="You keep long-term notes.",
            backend=agent_backend(workflow.info().workflow_id, ["supply_chain"]),
        )
        state = await agent.ainvoke({"messages": [{"role": "user", "content": "update notes"}]})
        return [
            {"type": m.type, "name": getattr(m, "name", None) or "", "content": str(m.content)}
            for m in state["messages"]
        ]
