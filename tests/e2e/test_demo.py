"""`kminer demo` (what `make demo` runs) publishes and finds its assets again, every time."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path


def run_demo(data_dir: Path) -> subprocess.CompletedProcess:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("TEMPORAL_ADDRESS", "OPENAI_API_KEY", "TAVILY_API_KEY", "DATABASE_URL")
    }
    return subprocess.run(
        [sys.executable, "-m", "kminer.cli", "demo", "--data-dir", str(data_dir)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )


def test_demo_publishes_and_finds_its_assets_by_sparql_twice_in_a_row(tmp_path: Path) -> None:
    for _ in range(2):
        done = run_demo(tmp_path)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        published = int(re.search(r"published (\d+) assets", done.stdout).group(1))
        found = int(re.search(r"SPARQL finds (\d+) of them", done.stdout).group(1))
        assert published >= 1 and found == published
        assert "reviewer (decide update)" in done.stdout
        # The answer names the suppliers the question asks for: the claims validation
        # proposed to the reviewer are reported with their support, not only the accepted.
        assert re.search(r"^  cand-\w+ +claim +confidence [\d.]+ +proposed ", done.stdout, re.M)
        answer = re.search(r"^answer: (.*)$", done.stdout, re.M).group(1)
        assert re.search(r"and \d+ proposed for review", answer), answer
        assert "One source reports" in answer and "Tianqi Lithium" in answer, answer
        assert "/memories/knowledge/supply_chain/discovery-notes.md" in done.stdout
    assert not (tmp_path / "demo" / "stack.json").exists()
