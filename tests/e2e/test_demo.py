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
        assert "/memories/knowledge/supply_chain/discovery-notes.md" in done.stdout
    assert not (tmp_path / "demo" / "stack.json").exists()
