"""Runs share the worker's contract classes instead of rebuilding them in each sandbox."""

from __future__ import annotations

import importlib
import uuid

from temporalio.client import Client
from temporalio.worker import Worker

from kminer.config import Settings
from tests.contracts_probe_workflow import PROBED, ContractsProbeWorkflow


async def test_a_sandboxed_run_uses_the_workers_contract_classes(settings: Settings) -> None:
    client = await Client.connect(settings.temporal_address or "")
    async with Worker(client, task_queue=settings.task_queue, workflows=[ContractsProbeWorkflow]):
        seen = await client.execute_workflow(
            ContractsProbeWorkflow.run,
            id=f"probe-{uuid.uuid4().hex[:8]}",
            task_queue=settings.task_queue,
        )
    workers = [id(getattr(importlib.import_module(m), name)) for m, name in PROBED]
    assert seen == workers
