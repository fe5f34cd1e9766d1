"""Workflows that report which contract classes and modules a sandboxed run sees
(test_passthrough).

Its module imports only the mining workflow, as a worker's sandbox does; the run answers
the ids of one class of each contract module as the sandbox's `sys.modules` holds them,
so the test can compare them with the worker's own.
"""

from __future__ import annotations

import sys

from temporalio import workflow

from workflows.mining import MiningWorkflow  # noqa: F401  (what brings the contracts in)

PROBED = (
    ("contracts.run", "Workspace"),
    ("contracts.tools", "Statement"),
    ("contracts.research", "ResearchTask"),
    ("contracts.budget", "Budget"),
)


@workflow.defn
class ContractsProbeWorkflow:
    @workflow.run
    async def run(self) -> list[int]:
        return [id(getattr(sys.modules[module], name)) for module, name in PROBED]


@workflow.defn
class ModulesProbeWorkflow:
    """Answers the ids of every `workflows.*`, `contracts.*` and `mining.*` module its
    sandbox holds, by name."""

    @workflow.run
    async def run(self) -> dict[str, int]:
        return {
            name: id(module)
            for name, module in list(sys.modules.items())
            if name.startswith(("workflows.", "contracts.", "mining."))
        }
