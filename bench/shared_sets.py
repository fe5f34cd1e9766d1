"""The labeled sets written outside the team (`../shared/quality-sets/*`), run as a user would.

    .venv/bin/python bench/shared_sets.py                   # every set beside the project
    .venv/bin/python bench/shared_sets.py --set PATH [--set PATH ...] [--keep DIR]

For each set: a fresh data dir, `kminer dkg load dkg.json`, `kminer corpus add docs/`,
`kminer up` on a free port, then `kminer mine QUESTION --tag ... --auto-approve --json` for
every question (q0.json, q1.json, ...), scored by the set's own `score.py`. One line per
set, then the macro figures; they are recorded in bench/results.json under
`quality.sets` unless --no-record. `--check` exits 1 when the macro gold-pair recall is
more than 5 points below the recorded one (what CI runs).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.results_file import read_results, write_results  # noqa: E402

SHARED = ROOT.parent / "shared" / "quality-sets"
KMINER = Path(sys.executable).parent / "kminer"
MINE_TIMEOUT_S = 600
ALLOWED_DROP = 0.05

QUALITY_LINE = re.compile(
    r"off-topic (\d+)/(\d+) .*?gold-pair recall (\d+)/(\d+) .*?new entities in (\d+)/(\d+) "
    r"questions, answered with citations (\d+)/(\d+), no-evidence question published nothing: "
    r"(True|False)"
)


def kminer(data_dir: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(KMINER), *args[:2], "--data-dir", str(data_dir), *args[2:]]
        if args[0] in ("dkg", "corpus")
        else [str(KMINER), args[0], "--data-dir", str(data_dir), *args[1:]],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start_stack(data_dir: Path, log: Path) -> subprocess.Popen[bytes]:
    stack_file = data_dir / "stack.json"
    proc = subprocess.Popen(
        [str(KMINER), "up", "--data-dir", str(data_dir), "--port", str(_free_port())],
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"kminer up exited {proc.returncode}: {log.read_text()[-500:]}")
        if stack_file.exists():
            return proc
        time.sleep(0.5)
    _stop(proc)
    raise SystemExit("kminer up did not come up in 180 s")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def set_dirs() -> list[Path]:
    """Every labeled set folder beside the project (none when ../shared is not there)."""
    if not SHARED.is_dir():
        return []
    return sorted(p for p in SHARED.iterdir() if (p / "gold.json").exists())


def run_scorer(set_dir: Path, gold: Path, out_dir: Path) -> subprocess.CompletedProcess[str]:
    """The sets' own score.py over `gold` and the q0.json, q1.json, ... in `out_dir`."""
    return subprocess.run(
        [sys.executable, str(set_dir.parent / "score.py"), str(gold), str(out_dir)],
        capture_output=True,
        text=True,
    )


def load_set(set_dir: Path, data_dir: Path) -> None:
    """Load the set's DKG and index its documents into data_dir, through the CLI."""
    for step in (
        ("dkg", "load", str(set_dir / "dkg.json")),
        ("corpus", "add", str(set_dir / "docs")),
    ):
        done = kminer(data_dir, *step)
        if done.returncode != 0:
            raise SystemExit(f"{set_dir.name}: kminer {' '.join(step[:2])}: {done.stderr.strip()}")


def run_set(set_dir: Path, out_dir: Path) -> dict[str, Any]:
    """Load, index, mine every question into out_dir; the scorer's figures."""
    gold = json.loads((set_dir / "gold.json").read_text())["questions"]
    data_dir = out_dir / "data"
    started = time.monotonic()
    load_set(set_dir, data_dir)
    stack = _start_stack(data_dir, out_dir / "stack.log")
    try:
        for i, q in enumerate(gold):
            tags = [a for t in q.get("tags", []) for a in ("--tag", t)]
            done = kminer(data_dir, "mine", q["q"], *tags, "--auto-approve", "--json",
                          timeout=MINE_TIMEOUT_S)  # fmt: skip
            if done.returncode != 0:
                print(f"  {set_dir.name} q{i}: kminer mine exited {done.returncode}: "
                      f"{done.stderr.strip()[-300:]}", file=sys.stderr)  # fmt: skip
            (out_dir / f"q{i}.json").write_text(done.stdout or "{}")
    finally:
        _stop(stack)
    scored = run_scorer(set_dir, set_dir / "gold.json", out_dir)
    (out_dir / "score.txt").write_text(scored.stdout + scored.stderr)
    return parse_score(scored.stdout) | {
        "passed": scored.returncode == 0,
        "seconds": round(time.monotonic() - started, 1),
    }


def parse_score(text: str) -> dict[str, Any]:
    m = QUALITY_LINE.search(text)
    if m is None:
        return {"error": text.strip()[-300:]}
    off, cands, found, pairs, new_ok, new_need, answered, need, empty_ok = m.groups()
    return {
        "candidates": int(cands),
        "off_topic": round(int(off) / int(cands), 3) if int(cands) else 0.0,
        "recall": round(int(found) / int(pairs), 3) if int(pairs) else 0.0,
        "gold_found": int(found),
        "gold_pairs": int(pairs),
        "new_entities_in": f"{new_ok}/{new_need}",
        "answered": f"{answered}/{need}",
        "no_evidence_published_nothing": empty_ok == "True",
    }


def macro(figures: dict[str, dict[str, Any]]) -> dict[str, Any]:
    ok = [f for f in figures.values() if "recall" in f]
    if not ok:
        return {}
    return {
        "recall": round(sum(f["recall"] for f in ok) / len(ok), 3),
        "min_recall": min(f["recall"] for f in ok),
        "off_topic": round(sum(f["off_topic"] for f in ok) / len(ok), 3),
        "sets": len(ok),
    }


def sets_record(figures: dict[str, Any], earlier: dict[str, Any]) -> dict[str, Any]:
    """What `quality.sets` records for a run of every set: its figures, the commit they
    were measured on, and beside them the recall the earlier record had per set
    (`previous`) and the first run's (`before`), so a change reads against both."""
    previous = {n: f["recall"] for n, f in earlier.items() if isinstance(f, dict) and "recall" in f}
    kept = {k: earlier[k] for k in ("before",) if k in earlier}
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                          capture_output=True, text=True, check=False).stdout.strip()  # fmt: skip
    commit = {"commit": head} if head else {}
    if previous and "commit" in earlier:
        previous["commit"] = earlier["commit"]
    return {**figures, **commit, **kept, **({"previous": previous} if previous else {})}


def line(name: str, f: dict[str, Any]) -> str:
    if "recall" not in f:
        return f"{name:12} ERROR {f.get('error')}"
    return (
        f"{name:12} recall {f['recall']:.2f} ({f['gold_found']}/{f['gold_pairs']})  "
        f"off-topic {f['off_topic']:.2f} of {f['candidates']}  "
        f"new entities {f['new_entities_in']}  "
        f"answered {f['answered']}  no-evidence clean {f['no_evidence_published_nothing']}  "
        f"{f['seconds']} s"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", action="append", type=Path, help="a set folder (repeatable)")
    parser.add_argument("--keep", type=Path, help="keep each set's answers under DIR/<set>")
    parser.add_argument("--no-record", action="store_true")
    parser.add_argument("--check", action="store_true", help="fail on a macro recall drop")
    args = parser.parse_args()
    sets = args.set or set_dirs()
    if not sets:
        print(f"no labeled sets under {SHARED}", file=sys.stderr)
        return 2
    figures: dict[str, dict[str, Any]] = {}
    for set_dir in sets:
        with tempfile.TemporaryDirectory(prefix=f"kminer-set-{set_dir.name}-") as tmp:
            out = args.keep / set_dir.name if args.keep else Path(tmp)
            out.mkdir(parents=True, exist_ok=True)
            figures[set_dir.name] = run_set(set_dir.resolve(), out)
        print(line(set_dir.name, figures[set_dir.name]), flush=True)
    summary = macro(figures)
    print(f"macro: recall {summary.get('recall')}, min {summary.get('min_recall')}, "
          f"off-topic {summary.get('off_topic')} over {summary.get('sets')} sets")  # fmt: skip
    results = read_results()
    recorded = results.get("quality", {}).get("sets", {}).get("macro", {}).get("recall")
    if args.check and recorded is not None and summary.get("recall", 0) < recorded - ALLOWED_DROP:
        print(f"macro recall {summary.get('recall')} is more than {ALLOWED_DROP} below the "
              f"recorded {recorded}", file=sys.stderr)  # fmt: skip
        return 1
    if not args.no_record and not args.set:
        quality = results.setdefault("quality", {})
        quality["sets"] = sets_record(
            {**figures, "macro": summary, "measured": time.strftime("%Y-%m-%d")},
            quality.get("sets", {}),
        )
        write_results(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
