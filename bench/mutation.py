"""Mutation testing of the pure scoring rules (mining/scoring.py, reliability.py) and of
the name and reference readers (mining/name_shapes.py, references.py).

    .venv/bin/python bench/mutation.py

Runs mutmut (configured in pyproject.toml `[tool.mutmut]`) against the tests in
tests/mining/ of scoring (test_scoring.py, test_scoring_report.py), reliability,
relevance, open mentions and references, prints killed / survived and the surviving
mutants, and records the figures in bench/results.json under `mutation`. A survivor is
a behaviour no test pins down, unless it is equivalent (the README lists the ones judged
equivalent).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.results_file import record  # noqa: E402


def main() -> int:
    mutmut = str(Path(sys.executable).parent / "mutmut")
    shutil.rmtree(ROOT / "mutants", ignore_errors=True)
    started = time.monotonic()
    run = subprocess.run([mutmut, "run"], cwd=ROOT, capture_output=True, text=True)
    listing = subprocess.run(
        [mutmut, "results", "--all", "true"], cwd=ROOT, capture_output=True, text=True
    ).stdout
    status = dict(line.strip().rsplit(": ", 1) for line in listing.splitlines() if ": " in line)
    counts = Counter(status.values())
    if run.returncode != 0 or not counts.get("killed"):
        print(run.stdout[-2000:] + run.stderr[-2000:])
        print("mutmut did not run to the end (are the tests green?)")
        return 1
    total = sum(counts.values())
    killed = counts["killed"] + counts.get("timeout", 0)
    survivors = sorted(m for m, s in status.items() if s == "survived")
    for name in survivors:
        diff = subprocess.run([mutmut, "show", name], cwd=ROOT, capture_output=True, text=True)
        changed = [
            line for line in diff.stdout.splitlines()
            if line[:2] in ("- ", "+ ") and not line.startswith(("+++", "---"))
        ]  # fmt: skip
        print(f"survived {name}:\n    " + "\n    ".join(changed[:2]))
    figures = {
        "mutants": total,
        "killed": killed,
        "survived": len(survivors),
        "killed_share": round(killed / total, 3),
        "seconds": round(time.monotonic() - started, 1),
        "measured": time.strftime("%Y-%m-%d"),
    }
    print(f"\n{killed} of {total} mutants killed ({figures['killed_share']:.1%}), "
          f"{len(survivors)} survived")  # fmt: skip
    shutil.rmtree(ROOT / "mutants", ignore_errors=True)  # mutmut's working copy
    record("mutation", figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
