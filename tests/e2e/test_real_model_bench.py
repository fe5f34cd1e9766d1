"""bench/real_model.py (`make real-model`, issue 25): skipped in one line without a model;
with one, the demo question and a shared set's question, each with its figures.

The "real" model here is the fake chat-completions API the LLM tests use, served in this
process, with the reply shapes bench/model_cost.py plays: what matters is that the bench
drives a served model through a set loaded as a user loads it and prints its lines.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench.model_cost import CountingModel
from bench.shared_sets import set_dirs
from tests.support.fake_openai import FAKE_API_KEY
from tests.support.replay import replay_server

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench" / "real_model.py"
LOCAL = ROOT / "bench" / "local_model.py"


def run_bench(
    extra_env: dict[str, str], *args: str, script: Path = BENCH
) -> subprocess.CompletedProcess[str]:
    # The bench's own embedded stack and model only: no server, key or URL of the caller's.
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("TEMPORAL_ADDRESS", "OPENAI_API_KEY", "TAVILY_API_KEY", "DATABASE_URL")
        and not k.startswith("KM_BENCH_")
    }
    return subprocess.run(
        [sys.executable, str(script), *args],
        env=env | extra_env,
        capture_output=True,
        text=True,
        timeout=600,
        stdin=subprocess.DEVNULL,
    )


def food_set() -> Path:
    food = next((p for p in set_dirs() if p.name == "food"), None)
    if food is None:
        pytest.skip("../shared/quality-sets/food is not beside the project")
    return food


def served_as(url: str) -> dict[str, str]:
    """The bench's settings for the fake model served at `url`."""
    return {"KM_BENCH_MODEL_URL": f"{url}/v1", "KM_BENCH_MODEL": "gpt-4o-mini",
            "OPENAI_API_KEY": FAKE_API_KEY}  # fmt: skip


def test_without_a_model_it_says_so_in_one_line_and_exits_0() -> None:
    done = run_bench({}, "--no-record")
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines() == [
        "real_model: no model configured (set KM_BENCH_MODEL_URL to a /v1 URL); skipped"
    ]


def test_a_served_model_mines_the_demo_and_a_shared_sets_question() -> None:
    food = food_set()
    with replay_server(CountingModel().answer) as url:
        done = run_bench(served_as(url), "--set", str(food), "--no-record")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    figures = r"COMPLETED in [\d.]+ s; [1-9]\d* model calls, [\d,]+ tokens in, [\d,]+ out; "
    assert re.search(r"^real_model gpt-4o-mini demo: " + figures, done.stdout, re.M)
    assert re.search(r"^real_model gpt-4o-mini food q0: " + figures, done.stdout, re.M)
    # What each propose call was given, as the workflow resolved it for the activity.
    assert re.search(r"food q0: .*; propose calls: [1-9]\d* statements, maxCandidates \d+, ",
                     done.stdout, re.M), done.stdout  # fmt: skip
    # The set's question is scored by the shared scorer: its quality line follows.
    quality = re.search(r"^  quality food +recall ([\d.]+) \((\d+)/(\d+)\)", done.stdout, re.M)
    assert quality, done.stdout
    assert int(quality.group(3)) > 0


def test_make_real_model_with_a_url_runs_one_set_alone() -> None:
    # `make real-model ARGS="--no-demo --set ..."`: bench/local_model.py, given a server,
    # fetches and serves nothing and hands the arguments to the bench.
    food = food_set()
    with replay_server(CountingModel().answer) as url:
        done = run_bench(served_as(url) | {"PYTHONPATH": str(ROOT)}, "--no-demo", "--set",
                         str(food), "--no-record", script=LOCAL)  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "demo:" not in done.stdout
    assert "model:" not in done.stdout  # nothing fetched or served
    assert re.search(r"^real_model gpt-4o-mini food q0: COMPLETED in ", done.stdout, re.M)
