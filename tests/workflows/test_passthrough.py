"""Runs share the worker's contract classes and helper modules instead of rebuilding them
in each sandbox."""

from __future__ import annotations

import importlib
import sys
import uuid
from typing import Any

from temporalio.client import Client
from temporalio.worker import Worker

from kminer.config import Settings
from tests.support.contracts_probe_workflow import (
    PROBED,
    ContractsProbeWorkflow,
    ModulesProbeWorkflow,
)

# The workflow definitions, imported afresh by each run's sandbox (its restrictions check
# their code); every other `workflows.*` module is the worker's own (workflows/passthrough.py).
SANDBOXED = {
    "workflows.mining",
    "workflows.review_and_publish",
    "workflows.run_logging",
    "workflows.batch",
    "workflows.passthrough",
}


async def _probe(settings: Settings, workflow: Any) -> Any:
    """What a probe workflow saw from inside its sandbox, run on a worker of its own."""
    client = await Client.connect(settings.temporal_address or "")
    async with Worker(client, task_queue=settings.task_queue, workflows=[workflow]):
        return await client.execute_workflow(
            workflow.run,
            id=f"probe-{uuid.uuid4().hex[:8]}",
            task_queue=settings.task_queue,
        )


async def test_a_sandboxed_run_uses_the_workers_contract_classes(settings: Settings) -> None:
    seen = await _probe(settings, ContractsProbeWorkflow)
    workers = [id(getattr(importlib.import_module(m), name)) for m, name in PROBED]
    assert seen == workers


async def test_a_sandboxed_run_imports_only_the_workflow_definitions(settings: Settings) -> None:
    seen = await _probe(settings, ModulesProbeWorkflow)
    shared = {name for name in seen if name not in SANDBOXED}
    assert "workflows.subagents" in shared and "workflows.research" in shared
    # Its compiled agent graphs serve every run of the worker (workflows/agent_graphs.py).
    assert "workflows.agent_graphs" in shared
    reimported = sorted(name for name in shared if seen[name] != id(sys.modules[name]))
    assert reimported == []
