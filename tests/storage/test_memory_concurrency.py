"""20 runs in 20 processes append to one memory note at once: all 20 lines are kept."""

from __future__ import annotations

import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from storage.sql.db import make_engine
from storage.sql.memory_repo import MemoryRepository
from tests.support.paths import ROOT
from tests.support.postgres import own_database_url

WRITERS = 20
# One writer: its own process and engine and a run id of its own. It says it is ready
# (connected), then waits for the common "go" file, so all 20 append at the same moment.
WRITER = """
import sys, time
from pathlib import Path
from storage.sql.db import make_engine
from storage.sql.memory_repo import MemoryRepository
url, tag, i, barrier = sys.argv[1], sys.argv[2], int(sys.argv[3]), Path(sys.argv[4])
repo = MemoryRepository(make_engine(url))
repo.read(tag, "validation-rules")
(barrier / f"ready-{i}").touch()
while not (barrier / "go").exists():
    time.sleep(0.01)
out = repo.append(run_id=f"run{i}", step="validation", tag=tag, name="validation-rules",
                  lines=[f"rule from run {i}"])
print(out.appended)
"""


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_twenty_runs_appending_at_once_keep_all_twenty(backend: str, tmp_path: Path) -> None:
    with own_database_url(backend, tmp_path) as url:
        _twenty_writers(url, tmp_path)


def _twenty_writers(url: str, tmp_path: Path) -> None:
    make_engine(url).dispose()  # schema at head before the writers start
    tag = f"t{uuid.uuid4().hex[:8]}"
    barrier = tmp_path / "barrier"
    barrier.mkdir()
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, url, tag, str(i), str(barrier)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(WRITERS)
    ]
    deadline = time.monotonic() + 120
    while len(list(barrier.glob("ready-*"))) < WRITERS and time.monotonic() < deadline:
        assert all(p.poll() is None for p in procs), "a writer died before the start"
        time.sleep(0.05)
    assert len(list(barrier.glob("ready-*"))) == WRITERS
    (barrier / "go").touch()
    outs = [p.communicate(timeout=180) for p in procs]
    assert [p.returncode for p in procs] == [0] * WRITERS, [err[-500:] for _, err in outs]
    assert [out.strip() for out, _ in outs] == ["True"] * WRITERS
    engine = make_engine(url)
    try:
        note = MemoryRepository(engine).read(tag, "validation-rules")
    finally:
        engine.dispose()
    assert note is not None
    for i in range(WRITERS):
        assert note.content.count(f"rule from run {i}\n") == 1, note.content
    assert note.sections == WRITERS, "one run section each"
    assert note.version == 0, "appends do not move the head's version"
