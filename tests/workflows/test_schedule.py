"""`kminer schedule`: a Temporal Schedule re-mines a question; a second firing publishes
nothing that the first already published."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import uuid
from datetime import timedelta
from pathlib import Path

import pytest

from contracts.run import MiningRequest
from kminer.config import Settings
from kminer.devserver import DevServer
from kminer.schedule_cli import ScheduleUsageError, create_schedule, parse_every
from kminer.stack import embedded_stack
from workflows.mining import MiningWorkflow


async def test_a_schedule_fires_twice_and_the_second_run_mints_nothing_again(
    settings: Settings,
) -> None:
    request = MiningRequest(
        query="Which suppliers of lithium carry geopolitical risk?",
        domainTags=["supply_chain"],
        review="auto",
    )
    async with embedded_stack(settings, with_api=False) as stack:
        dkg = stack.services.dkg
        before = dkg.count_assets()
        handle = await create_schedule(
            stack.client, settings.task_queue, f"t{uuid.uuid4().hex[:8]}", request,
            timedelta(seconds=4),
        )  # fmt: skip
        try:
            run_ids: list[str] = []
            for _ in range(600):
                described = await handle.describe()
                run_ids = [a.action.workflow_id for a in described.info.recent_actions]
                if len(run_ids) >= 2:
                    break
                await asyncio.sleep(0.2)
            assert len(run_ids) >= 2, "the schedule did not fire twice"
            await handle.pause(note="test done")
        finally:
            await handle.delete()
        first, second = [
            await stack.client.get_workflow_handle_for(MiningWorkflow.run, rid).result()
            for rid in run_ids[:2]
        ]
        after = dkg.count_assets()
    first_uals = {a.ual for a in first.publishedAssets}
    assert first_uals, first.summary
    assert after == before + len(first_uals)  # nothing minted by the second run
    assert {a.ual for a in second.publishedAssets} <= first_uals


def test_every_takes_a_count_and_a_unit() -> None:
    assert parse_every("30s") == timedelta(seconds=30)
    assert parse_every("24h") == timedelta(hours=24)
    assert parse_every("7d") == timedelta(days=7)
    for bad in ("24", "h", "0m", "1.5h", "-1h"):
        with pytest.raises(ScheduleUsageError):
            parse_every(bad)


def test_add_list_pause_unpause_delete(temporal_server: DevServer, tmp_path: Path) -> None:
    env = {
        **{k: v for k, v in os.environ.items() if k != "DATABASE_URL"},
        "TEMPORAL_ADDRESS": temporal_server.address,
        "KM_TASK_QUEUE": f"sched-{uuid.uuid4().hex[:8]}",  # no worker: nothing runs
        "KM_DATA_DIR": str(tmp_path / "data"),
    }
    name = f"cli-{uuid.uuid4().hex[:8]}"

    def kminer(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "kminer.cli", "schedule", *args],
            env=env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip

    def listed() -> str:
        out = kminer("list")
        assert out.returncode == 0, out.stderr
        return next((line for line in out.stdout.splitlines() if name in line), "")

    added = kminer("add", "Who supplies cobalt?", "--tag", "supply_chain", "--every", "24h",
                   "--id", name)  # fmt: skip
    assert added.returncode == 0, added.stderr
    assert f"kminer-schedule-{name}: every 24h, thread supply_chain" in added.stdout
    again = kminer("add", "Who supplies cobalt?", "--every", "24h", "--id", name)
    assert again.returncode == 2 and "exists" in again.stderr
    assert " active " in listed()
    assert kminer("pause", name).returncode == 0
    assert " paused " in listed()
    assert kminer("unpause", name).returncode == 0
    assert " active " in listed()
    assert kminer("delete", name).returncode == 0
    assert listed() == ""
    gone = kminer("delete", name)
    assert (
        gone.returncode == 2
        and gone.stderr.strip() == f"kminer: no schedule kminer-schedule-{name}"
    )
