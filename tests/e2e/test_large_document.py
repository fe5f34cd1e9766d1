"""One large document in the corpus stalls nothing: a 20 MB text indexes with `kminer
corpus add`, a `kminer mine` run over it completes within two minutes and cites it, and
`kminer up` stops within seconds of SIGTERM while it is reading that document.

Before every pass over a document was linear, a 2 MB text kept a run from finishing in
300 s and `kminer up` ignored SIGTERM for minutes (issue 24)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from temporalio.api.enums.v1 import PendingActivityState
from temporalio.client import WorkflowHandle

from api.auth import TokenIssuer, load_secret
from kminer.config import Settings, load_settings
from kminer.devserver import free_port
from kminer.worker import connect
from tests.support.healthz import wait_until_healthy
from tests.support.large_text import write_report
from tests.support.processes import kminer

REPORT_CHARS = 20_000_000
QUESTION = "Which companies supply lithium to Tesla?"
WITHIN_S = 120.0
# The running activity may finish its sub-question in this grace, then it is cancelled.
GRACE_S = 10
STOPPED_WITHIN_S = 30.0
OUTSIDE = ("TEMPORAL_ADDRESS", "OPENAI_API_KEY", "TAVILY_API_KEY", "DATABASE_URL")


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, float, str]:
    """A 20 MB report added to an empty data dir as a user adds it: (the report, the data
    dir, seconds `kminer corpus add` took, what it printed)."""
    root = tmp_path_factory.mktemp("large")
    report = write_report(root / "lithium-archive.txt", REPORT_CHARS)
    data = root / "data"
    started = time.monotonic()
    added = kminer(load_settings(data), "corpus", "add", str(report), timeout=600)
    seconds = time.monotonic() - started
    assert added.returncode == 0, added.stderr[-2000:]
    return report, data, seconds, added.stdout


def _with_corpus(indexed: tuple[Path, Path, float, str], data: Path) -> None:
    data.mkdir(parents=True, exist_ok=True)
    shutil.copy(indexed[1] / "corpus.db", data / "corpus.db")


def test_a_20_mb_text_indexes_and_a_run_over_it_completes_within_two_minutes(
    indexed: tuple[Path, Path, float, str], settings: Settings
) -> None:
    report, _, add_seconds, printed = indexed
    assert f"added      {report}" in printed and "1 added" in printed
    assert add_seconds < WITHIN_S, f"corpus add took {add_seconds:.0f} s"
    _with_corpus(indexed, settings.data_dir)
    started = time.monotonic()
    done = kminer(settings, "mine", QUESTION, "--auto-approve", "--json", timeout=300)
    seconds = time.monotonic() - started
    assert done.returncode == 0, done.stderr[-3000:]
    assert seconds < WITHIN_S, f"the run took {seconds:.0f} s"
    response = json.loads(done.stdout)
    cited = [a for a in response["candidateAssets"]
             if report.resolve().as_uri() in a["provenance"]["sources"]]  # fmt: skip
    assert cited, "the run read the large report"


async def _reading(handle: WorkflowHandle, timeout: float = 120) -> None:
    """Until the run's research activity (searching the corpus, reading its passages)
    has started on the worker."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for pending in (await handle.describe()).raw_description.pending_activities:
            started = pending.state == PendingActivityState.PENDING_ACTIVITY_STATE_STARTED
            if started and pending.activity_type.name in ("research_gather", "web_search"):
                return
        await asyncio.sleep(0.05)
    raise AssertionError("the run never started reading")


async def test_sigterm_stops_up_within_seconds_while_it_reads_the_large_text(
    indexed: tuple[Path, Path, float, str], tmp_path: Path
) -> None:
    data = tmp_path / "data"
    _with_corpus(indexed, data)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in OUTSIDE}
    env["KM_SHUTDOWN_GRACE_SECONDS"] = str(GRACE_S)
    log = tmp_path / "up.log"
    proc = subprocess.Popen(
        [sys.executable, "-m", "kminer.cli", "up", "--port", str(port), "--data-dir", str(data)],
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
    )
    try:
        assert wait_until_healthy(proc, port, 120), log.read_text(errors="replace")[-2000:]
        stack = json.loads((data / "stack.json").read_text())
        token = TokenIssuer(load_secret(data)).mint("tester", "miner")
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            started = await http.post(
                "/api/runs",
                json={"query": QUESTION, "domainTags": ["supply_chain"], "review": "auto"},
                headers={"Authorization": f"Bearer {token}"},
            )
        assert started.status_code == 202, started.text
        client = await connect(load_settings(data), stack["temporal"])
        await _reading(client.get_workflow_handle(started.json()["runId"]))
        stopping = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        code = await asyncio.to_thread(proc.wait, 120)
        seconds = time.monotonic() - stopping
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert code == 0, log.read_text(errors="replace")[-2000:]
    assert seconds < STOPPED_WITHIN_S, f"kminer up took {seconds:.0f} s to stop"
    with pytest.raises(ProcessLookupError):
        os.kill(stack["temporalPid"], 0)  # its dev server went with it
