"""`kminer batch`: child MiningWorkflows under a concurrency limit, a summary at the end."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path

from contracts.run import MiningRequest
from kminer.batch_cli import run_batch, summary_table
from kminer.config import Settings
from kminer.stack import embedded_stack
from workflows.batch import BatchInput

QUESTIONS = [
    "Which suppliers of lithium carry geopolitical risk?",
    "Who supplies cobalt to battery makers?",
    "Which countries restrict exports of rare earths?",
    "Who produces neon for semiconductor lithography?",
]


def _max_overlap(spans: list[tuple[datetime, datetime]]) -> int:
    edges = sorted([(s, 1) for s, _ in spans] + [(e, -1) for _, e in spans])
    running = peak = 0
    for _, step in edges:  # an end sorts before a start at the same instant
        running += step
        peak = max(peak, running)
    return peak


async def test_twenty_questions_never_run_more_than_the_limit(settings: Settings) -> None:
    requests = [
        MiningRequest(
            query=QUESTIONS[i % len(QUESTIONS)] + f" (batch item {i + 1})",
            domainTags=["supply_chain"],
            maxIterations=1,
            review="auto",
        )
        for i in range(20)
    ]
    out = io.StringIO()
    async with embedded_stack(settings, with_api=False) as stack:
        result = await run_batch(
            stack.client, settings.task_queue, BatchInput(requests=requests, maxConcurrent=3), out
        )
        spans = []
        for item in result.items:
            described = await stack.client.get_workflow_handle(item.runId).describe()
            assert described.start_time and described.close_time
            spans.append((described.start_time, described.close_time))
    assert [i.status for i in result.items] == ["completed"] * 20, result.items
    assert [i.index for i in result.items] == list(range(20))
    # Observed from Temporal's own start and close times of the 20 child runs.
    assert _max_overlap(spans) == 3
    assert "20/20" in out.getvalue()
    table = summary_table(result.items)
    assert "20 of 20 completed" in table and table.count("\n") >= 22


def test_the_command_mines_a_file_and_prints_json(tmp_path: Path) -> None:
    questions = tmp_path / "questions.txt"
    questions.write_text(
        "# comments and blank lines are skipped\n\n"
        "Which suppliers of lithium carry geopolitical risk?\n"
        + json.dumps({"query": "Who supplies cobalt?", "domainTags": ["#Supply_Chain"]})
        + "\n"
    )
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("TEMPORAL_ADDRESS", "OPENAI_API_KEY", "TAVILY_API_KEY", "DATABASE_URL")
    }
    done = subprocess.run(
        [sys.executable, "-m", "kminer.cli", "batch", str(questions), "--data-dir",
         str(tmp_path / "data"), "--max-iterations", "1", "--auto-approve", "--json",
         "--concurrency", "2"],
        env=env, capture_output=True, text=True, timeout=400,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    rows = json.loads(done.stdout)
    assert [r["status"] for r in rows] == ["completed", "completed"]
    assert rows[1]["query"] == "Who supplies cobalt?"
    assert "2/2" in done.stderr


def test_a_bad_line_names_its_number(tmp_path: Path) -> None:
    questions = tmp_path / "q.txt"
    questions.write_text('Fine question?\n{"query": "x", "maxIterations": 99}\n')
    done = subprocess.run(
        [sys.executable, "-m", "kminer.cli", "batch", str(questions)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith(f"kminer: {questions}:2: maxIterations")
    assert done.stderr.count("\n") == 1
