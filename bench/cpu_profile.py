"""Where a worker's CPU goes during mining runs: a workload to sample, and its breakdown.

    .venv/bin/pip install py-spy     # a sampling profiler, not a project dependency
    .venv/bin/python bench/cpu_profile.py --runs 20 --spy /tmp/kminer.raw
    .venv/bin/python bench/cpu_profile.py --breakdown /tmp/kminer.raw

The workload: an embedded dev server (its own process, not sampled) and one in-process
worker (rules policy, review "auto", offline) with `--runs` runs of the throughput
question started at once, after one warm-up run (models loaded, workflow modules
imported) that no figure includes. It prints wall time and the process's CPU seconds
for the batch. With `--spy FILE`, py-spy samples this process during the batch only,
threads holding the GIL (`--gil`: Python work; onnxruntime's native inference releases
the GIL and is under-counted, spaCy's Cython parser holds it).

The breakdown (printed after a `--spy` batch, or by `--breakdown FILE`) reads py-spy's
raw (collapsed) output twice: *what* charges each sample to the first category its stack
matches, leaf first (`CATEGORIES`), so "spaCy parsing" means samples inside spaCy
whoever called it; *for whom* charges it to workflow tasks or to the activity that asked.
A `--spy` batch records both, with the CPU seconds a run, in bench/results.json under
`cpu_profile` (bench/report.py puts them in docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
warnings.filterwarnings("ignore", message=".*allowed_objects.*")

from bench.results_file import record  # noqa: E402

# (category, substrings of a frame "function (file:line)"), tried on each frame from the
# leaf up; the first frame that matches any category decides.
CATEGORIES: list[tuple[str, tuple[str, ...]]] = [
    ("embeddings (onnxruntime, tokenizers)", ("onnxruntime/", "tokenizers/", "embeddings.py")),
    ("spaCy parsing", ("spacy/", "thinc/", "en_core_web_sm")),
    (
        "SPARQL / pyoxigraph",
        ("pyoxigraph", "storage/dkg/embedded", "storage/dkg/label_index.py", "mining/names.py"),
    ),
    ("JSON-LD (pyld / rdflib)", ("pyld/", "rdflib/", "jsonld.py")),
    ("SQL (SQLAlchemy, sqlite)", ("sqlalchemy/", "sqlmodel/", "sqlite3/")),
    ("pydantic (de)serialisation", ("pydantic/", "pydantic_core")),
    (
        "payload conversion (temporalio converter, protobuf)",
        (
            "temporalio/converter.py",
            "google/protobuf",
            "temporalio/bridge/proto",
            "json/encoder.py",
            "json/decoder.py",
            "json/__init__.py",
            "temporalio/contrib/pydantic",
        ),
    ),  # fmt: skip
    ("langchain message serde", ("langchain_core/load", "langchain_core/messages")),
    (
        "extraction rules (relations, patterns, nlp)",
        (
            "mining/extraction",
            "mining/relations",
            "mining/relation_parts",
            "mining/noun_relations",
            "mining/parsing",
            "mining/mentions",
            "mining/nlp",
            "mining/relation_lexicon",
            "mining/sentence_view",
            "mining/event_clauses",
        ),
    ),  # fmt: skip
    (
        "relevance, enrichment, validation rules",
        (
            "mining/relevance",
            "mining/question",
            "activities/statements",
            "activities/enrichment",
            "mining/facts",
            "mining/proposals",
            "mining/claims",
            "activities/validation",
            "mining/assessment",
            "mining/scoring",
            "mining/evidence",
            "mining/entities",
            "mining/reliability",
            "activities/research",
            "mining/research_",
            "mining/answer",
            "storage/corpus",
        ),
    ),  # fmt: skip
    ("rules policy", ("workflows/agents/",)),
    ("agent graph (langgraph, deepagents)", ("langgraph/", "deepagents/", "langchain/")),
    (
        "workflow sandbox (import, restrictions)",
        (
            "temporalio/worker/workflow_sandbox",
            "importlib",
            "<frozen",
        ),
    ),  # fmt: skip
    ("workflow code (workflows/)", ("workflows/",)),
    ("temporal worker (activations, bridge)", ("temporalio/",)),
    ("asyncio", ("asyncio/",)),
]
OTHER = "other"


def category(stack: str) -> str:
    frames = stack.split(";")
    for frame in reversed(frames):
        for name, needles in CATEGORIES:
            if any(n in frame for n in needles):
                return name
    return OTHER


WORKFLOW_FRAMES = ("temporalio/worker/_workflow_instance.py", "workflow_sandbox/")
# Our helpers every activity goes through: the caller below them is the activity.
PLUMBING = ("activities/common.py", "kminer/principal_propagation.py")


def place(stack: str) -> str:
    """Who asked for the work: workflow tasks, or the first activity code on the stack."""
    frames = stack.split(";")
    if any(w in f for f in frames for w in WORKFLOW_FRAMES):
        return "workflow tasks (agent graph, workflow code, sandbox)"
    for frame in frames:
        if ("activities/" in frame or "storage/" in frame) and not any(
            p in frame for p in PLUMBING
        ):
            return "activity " + frame.split(" (")[0].split(".<locals>")[0]
    return "worker plumbing (polling, payloads, event loop)"


def breakdown(raw: Path, by: Callable[[str], str] = category) -> Counter[str]:
    counts: Counter[str] = Counter()
    for line in raw.read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        if stack and n.isdigit():
            counts[by(stack)] += int(n)
    return counts


def shares(counts: Counter[str], floor: float = 0.5) -> dict[str, float]:
    """Percent of samples per name, largest first; names under `floor` % as "other"."""
    total = sum(counts.values()) or 1
    out: dict[str, float] = {}
    rest = 0.0
    for name, n in counts.most_common():
        pct = round(100 * n / total, 1)
        if pct < floor or name == OTHER:
            rest += 100 * n / total
        else:
            out[name] = pct
    if rest:
        out[OTHER] = round(rest, 1)
    return out


def print_breakdown(raw: Path) -> None:
    for title, by in (("what", category), ("for whom", place)):
        counts = breakdown(raw, by)
        print(f"-- {title}: {sum(counts.values())} samples holding the GIL")
        for name, pct in shares(counts).items():
            print(f"{pct:5.1f} %  {name}")


SPY = Path(sys.executable).with_name("py-spy")


def start_spy(out: Path) -> subprocess.Popen:
    command = [str(SPY), "record", "--gil", "-r", "100", "-f", "raw", "-o", str(out)]
    proc = subprocess.Popen(
        [*command, "--pid", str(os.getpid())],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(1.0)  # attached before the batch starts
    return proc


def stop_spy(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGINT)  # py-spy writes its file on SIGINT
    proc.wait(timeout=60)


async def workload(runs: int, spy_file: Path | None = None) -> dict[str, float]:
    from bench.procs import fresh_settings, in_process_worker
    from contracts.run import MiningRequest, Phase
    from kminer.devserver import DevServer
    from kminer.worker import connect, open_services
    from temporal_client.runs import start_run

    question = "Which suppliers of lithium carry geopolitical risk?"
    with tempfile.TemporaryDirectory(prefix="kminer-bench-cpu-") as tmp:
        root = Path(tmp)
        server = DevServer(db_file=root / "temporal.db", log_file=root / "temporal.log").start()
        try:
            settings = replace(fresh_settings(root, "cpu", server.address), tool_task_queue=None)
            services = open_services(settings)
            client = await connect(settings, server.address, services.engine)
            worker = in_process_worker(client, settings, services)
            async with worker:

                async def one(tag: str) -> float:
                    began = time.perf_counter()
                    request = MiningRequest(query=question, domainTags=[tag], review="auto")
                    handle = await start_run(client, settings.task_queue, request)
                    result = await handle.result()
                    assert result.phase == Phase.COMPLETED, result.phase
                    return time.perf_counter() - began

                warm = await one("warmup")
                spy = start_spy(spy_file) if spy_file else None
                began, cpu = time.perf_counter(), time.process_time()
                latencies = await asyncio.gather(*(one("supply_chain") for _ in range(runs)))
                wall, cpu = time.perf_counter() - began, time.process_time() - cpu
                if spy is not None:
                    stop_spy(spy)
            services.close()
        finally:
            server.stop()
    print(
        f"warm-up {warm:.2f} s; {runs} runs at once: wall {wall:.2f} s, "
        f"slowest {max(latencies):.2f} s; process CPU {cpu:.2f} s ({cpu / runs:.2f} s a run)"
    )
    return {"wall_s": round(wall, 2), "cpu_s_per_run": round(cpu / runs, 3)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=10, help="runs started at once")
    parser.add_argument("--spy", type=Path, help="py-spy raw output of the batch")
    parser.add_argument("--no-record", action="store_true", help="do not write results.json")
    parser.add_argument("--breakdown", type=Path, help="py-spy raw output to summarise")
    args = parser.parse_args()
    if args.spy and not SPY.exists():
        print(f"cpu_profile: {SPY} not found; install it: .venv/bin/pip install py-spy")
        return 2
    if args.breakdown:
        print_breakdown(args.breakdown)
        return 0
    figures = asyncio.run(workload(args.runs, args.spy))
    if args.spy is None:
        return 0
    print_breakdown(args.spy)
    if not args.no_record:
        record(
            "cpu_profile",
            {
                "measured": date.today().isoformat(),
                "runs": args.runs,
                **figures,
                "samples": sum(breakdown(args.spy).values()),
                "what": shares(breakdown(args.spy, category)),
                "for_whom": shares(breakdown(args.spy, place)),
            },
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
