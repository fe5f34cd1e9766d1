"""Chaos: the worker SIGKILLed at seeded random points of several runs.

Every run is mined by a worker subprocess in its own data dir (its own SQLite, DKG and
memory, so the runs cannot see each other's publications or research cache). An
uninterrupted run of the question comes first; its history length sets the range the
kill points are drawn from (`random.Random(seed)`, seed `KM_CHAOS_SEED`, default 12).
Then CHAOS_RUNS runs of the same question go concurrently, each with KILLS_PER_RUN kills:
when the run's history reaches a drawn length, the worker is SIGKILLed and a new one
started. Each run must complete with the uninterrupted run's candidates (ids) and
publications, one PublishRecord per published candidate and no extra asset in the DKG.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
from dataclasses import dataclass, field, replace
from pathlib import Path

from temporalio.client import Client

from bench.procs import publish_ledger, stop
from contracts.run import KnowledgeMinerResponse, MiningRequest, Phase
from kminer.config import Settings, load_settings
from kminer.worker import connect
from temporal_client.runs import start_run
from tests.support.processes import start_worker

SEED = int(os.environ.get("KM_CHAOS_SEED", "12"))
CHAOS_RUNS = 5
KILLS_PER_RUN = 2  # 5 runs x 2 kills = 10 kills
QUESTION = "Which suppliers of lithium carry geopolitical risk?"
TAGS = ["supply_chain", "general_risk"]
# A hang, not a speed limit: five workers restarting at once on two busy cores have taken
# over 150 s (each kill waits out the dead worker's workflow task, 10 s, and a cold start).
RUN_TIMEOUT = 300.0
TAIL = 10  # events at the end of a run where no kill is planned


@dataclass
class Outcome:
    result: KnowledgeMinerResponse
    settings: Settings
    kills_at: list[int] = field(default_factory=list)  # history length when killed


def run_settings(base: Settings, root: Path, name: str) -> Settings:
    """A data dir and a task queue of its own on the shared dev server."""
    own = load_settings(root / name)
    own.data_dir.mkdir(parents=True, exist_ok=True)
    queue = f"{base.task_queue}-{name}"
    return replace(own, temporal_address=base.temporal_address, task_queue=queue)


async def mine(client: Client, settings: Settings, log: Path, kill_points: list[int]) -> Outcome:
    """One run; SIGKILL its worker when the history reaches each of `kill_points`."""
    worker = start_worker(settings, log)
    kills_at: list[int] = []
    try:
        request = MiningRequest(query=QUESTION, domainTags=TAGS, review="auto")
        handle = await start_run(client, settings.task_queue, request)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + RUN_TIMEOUT
        for point in kill_points:
            while True:
                assert loop.time() < deadline, f"seed {SEED}: no progress to history {point}"
                desc = await handle.describe()
                assert desc.status is not None
                if desc.status.name != "RUNNING":
                    raise AssertionError(
                        f"seed {SEED}: run ended at history {desc.history_length} "
                        f"before kill point {point}"
                    )
                if desc.history_length >= point:
                    break
                await asyncio.sleep(0.02)
            worker.send_signal(signal.SIGKILL)
            await asyncio.to_thread(worker.wait, 10)
            kills_at.append(desc.history_length)
            worker = start_worker(settings, log)
        result = await asyncio.wait_for(handle.result(), max(1.0, deadline - loop.time()))
    finally:
        await asyncio.to_thread(stop, worker)
    return Outcome(result, settings, kills_at)


def candidate_ids(result: KnowledgeMinerResponse) -> list[str]:
    return sorted(c["candidateId"] for c in result.candidateAssets)


def published_ids(result: KnowledgeMinerResponse) -> list[str]:
    return sorted(p.candidateId for p in result.publishedAssets)


async def test_runs_with_a_worker_killed_at_random_points_match_an_uninterrupted_run(
    settings: Settings, tmp_path: Path
) -> None:
    client = await connect(settings, settings.temporal_address or "")
    own = run_settings(settings, tmp_path, "baseline")
    base = await mine(client, own, tmp_path / "baseline.log", [])
    assert base.result.phase == Phase.COMPLETED
    assert base.result.publishedAssets, "auto review publishes the accepted candidates"
    length = (await client.get_workflow_handle(base.result.runId).describe()).history_length
    base_records, base_assets = publish_ledger(base.settings, base.result.runId)
    assert base_records == published_ids(base.result)

    rng = random.Random(SEED)
    # From the first workflow task to the last publications; not within the closing
    # TAIL events, where a run may complete between two looks at its history.
    plans = [sorted(rng.sample(range(3, length - TAIL), KILLS_PER_RUN)) for _ in range(CHAOS_RUNS)]
    # Every run finishes (and stops its worker) before any failure is raised.
    outcomes = await asyncio.gather(
        *(
            mine(client, run_settings(settings, tmp_path, f"c{i}"), tmp_path / f"c{i}.log", plan)
            for i, plan in enumerate(plans)
        ),
        return_exceptions=True,
    )
    for outcome in outcomes:
        if isinstance(outcome, BaseException):
            raise outcome

    for plan, outcome in zip(plans, outcomes, strict=True):
        assert isinstance(outcome, Outcome)
        where = f"seed {SEED}: kills at {plan} of {length} events, made at {outcome.kills_at}"
        assert len(outcome.kills_at) == KILLS_PER_RUN, where
        assert outcome.result.phase == Phase.COMPLETED, where
        assert candidate_ids(outcome.result) == candidate_ids(base.result), where
        assert published_ids(outcome.result) == published_ids(base.result), where
        records, assets = publish_ledger(outcome.settings, outcome.result.runId)
        # One PublishRecord per published candidate, and no asset minted twice.
        assert records == published_ids(outcome.result), where
        assert assets == base_assets, where
