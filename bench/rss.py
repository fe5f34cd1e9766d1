"""Resident memory of `kminer up` over many runs: does it level off or keep growing?

    .venv/bin/python bench/rss.py [--runs 200] [--every 20] [--concurrency 4] [--no-record]

Starts `kminer up` as an operator does (a subprocess on 127.0.0.1, a temporary data dir),
then starts runs through the API in rounds of --concurrency, each a different question
(templates over the shipped corpus's companies, places and topics) from one of a few
principals, published automatically, and waits for every round to end. After every
--every runs (and once before the first), with no run in flight, it reads the resident
set size (VmRSS) of the `kminer up` process and of its dev server.

The figure that matters is `ratio`: RSS after --runs runs over RSS after the first
--every runs (target <= 1.5: caches are bounded, nothing grows per run). Figures go to
bench/results.json under `rss`. A benchmark, not a test: exit 0 unless the stack cannot
start or a run fails.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from api.auth import TokenIssuer, load_secret  # noqa: E402
from bench.results_file import record  # noqa: E402
from kminer.config import load_settings  # noqa: E402
from kminer.devserver import free_port  # noqa: E402
from kminer.worker import connect  # noqa: E402

RATIO_TARGET = 1.5
PRINCIPALS = 4
TEMPLATES = (
    "Which suppliers of {} carry geopolitical risk?",
    "Who does {} sell lithium to?",
    "What contracts has {} signed?",
    "Which risks does {} face in its supply chain?",
    "Who are the partners of {}?",
)
SUBJECTS = (
    "Ganfeng Lithium", "Tianqi Lithium", "SQM", "Albemarle", "Pilbara Minerals", "Codelco",
    "Rio Tinto", "Arcadium Lithium", "Tesla", "Zimbabwe", "Chile", "Bolivia", "Mexico",
    "Argentina", "the Democratic Republic of the Congo", "Australia", "China",
    "Transport for London", "the Defense Logistics Agency", "Fluence", "the NHS",
    "Eli Lilly", "Eisai", "Novo Nordisk", "Merck", "YLB", "AVZ Minerals", "lithium",
    "battery cells", "spodumene", "brine", "semaglutide", "lecanemab", "tirzepatide",
    "electric buses", "cloud services", "infusion pumps", "grid batteries", "copper",
    "water in the Atacama",
)  # fmt: skip


def questions() -> itertools.cycle[str]:
    """Different questions, subject by subject, each template in turn."""
    return itertools.cycle(t.format(s) for s in SUBJECTS for t in TEMPLATES)


def rss_mb(pid: int) -> float:
    """The resident set size of a process, from /proc (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    raise RuntimeError(f"no VmRSS for pid {pid}")


def start_up(data: Path, port: int, log: Path) -> subprocess.Popen:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("TEMPORAL_ADDRESS", "OPENAI_API_KEY", "TAVILY_API_KEY", "DATABASE_URL")
    }
    env["KM_RUNS_PER_MINUTE"] = "10000"
    return subprocess.Popen(
        [sys.executable, "-m", "kminer.cli", "up", "--port", str(port), "--data-dir", str(data)],
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
    )


def wait_healthy(proc: subprocess.Popen, api: str, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"kminer up exited {proc.returncode}")
        try:
            if httpx.get(f"{api}/healthz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"kminer up did not answer /healthz in {timeout:.0f} s")


async def run_rounds(
    api: str, temporal: str, data: Path, args: argparse.Namespace, up: subprocess.Popen
) -> dict[str, Any]:
    issuer = TokenIssuer(load_secret(data))
    headers = [{"Authorization": f"Bearer {issuer.mint(f'bench-{n}', 'miner')}"}
               for n in range(PRINCIPALS)]  # fmt: skip
    client = await connect(load_settings(data), temporal)
    asked = questions()
    samples: dict[int, dict[str, float]] = {}
    seconds: list[float] = []
    reused: list[bool] = []  # runs whose research the research cache answered
    stack = json.loads((data / "stack.json").read_text())
    samples[0] = {"up_mb": rss_mb(up.pid), "devserver_mb": rss_mb(stack["temporalPid"])}
    print(f"started: kminer up {samples[0]['up_mb']} MB", flush=True)
    done = 0
    async with httpx.AsyncClient(base_url=api, timeout=60) as http:

        async def one(number: int) -> None:
            started = await http.post(
                "/api/runs",
                json={"query": next(asked), "domainTags": ["supply_chain"], "review": "auto"},
                headers=headers[number % PRINCIPALS],
            )
            started.raise_for_status()
            result = await client.get_workflow_handle(started.json()["runId"]).result()
            summary = result.summary if hasattr(result, "summary") else result["summary"]
            reused.append("reused task" in summary)

        while done < args.runs:
            batch = min(args.concurrency, args.runs - done)
            began = time.perf_counter()
            await asyncio.gather(*(one(done + n) for n in range(batch)))
            seconds.append(time.perf_counter() - began)
            done += batch
            if done % args.every == 0 or done == args.runs:
                await asyncio.sleep(2)  # the last run's cleanup, off the books
                now = {"up_mb": rss_mb(up.pid), "devserver_mb": rss_mb(stack["temporalPid"])}
                samples[done] = now
                print(
                    f"after {done:>4} runs: kminer up {now['up_mb']} MB, "
                    f"dev server {now['devserver_mb']} MB, {seconds[-1]:.0f} s a round",
                    flush=True,
                )
    first, last = samples[args.every]["up_mb"], samples[args.runs]["up_mb"]
    return {
        "measured": date.today().isoformat(),
        "runs": args.runs,
        "concurrency": args.concurrency,
        "seconds_per_round": round(sum(seconds) / len(seconds), 1),
        "research_reused": sum(reused),
        "readings": [{"runs": runs, **mb} for runs, mb in sorted(samples.items())],
        "ratio": round(last / first, 3),
    }


def measure(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="kminer-bench-rss-") as tmp:
        data, port = Path(tmp) / "data", free_port()
        api = f"http://127.0.0.1:{port}"
        up = start_up(data, port, Path(tmp) / "up.log")
        try:
            wait_healthy(up, api)
            temporal = json.loads((data / "stack.json").read_text())["temporal"]
            return asyncio.run(run_rounds(api, temporal, data, args, up))
        finally:
            up.send_signal(signal.SIGTERM)
            try:
                up.wait(timeout=120)
            except subprocess.TimeoutExpired:
                up.kill()
                up.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--every", type=int, default=20, help="runs between two readings")
    parser.add_argument("--concurrency", type=int, default=4, help="runs in one round")
    parser.add_argument("--no-record", action="store_true", help="do not write results.json")
    args = parser.parse_args()
    if args.runs % args.every or args.every % args.concurrency:
        parser.error("--every must divide --runs, and --concurrency --every")
    figures = measure(args)
    verdict = "PASS" if figures["ratio"] <= RATIO_TARGET else "FAIL"
    print(f"{figures['research_reused']} of {args.runs} runs reused earlier research")
    print(
        f"{verdict}: RSS of kminer up after {args.runs} runs is {figures['ratio']}x "
        f"its RSS after {args.every} (target <= {RATIO_TARGET})"
    )
    if not args.no_record:
        record("rss", figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
