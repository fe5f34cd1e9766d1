"""API latency under concurrent readers, and how late the event stream is.

    .venv/bin/python bench/api.py [--clients 50] [--requests 20] [--decisions 5] [--no-record]

Starts the embedded stack (Temporal dev server, worker, API on 127.0.0.1) in a
temporary data dir, starts one run with review required and waits for REVIEW. Then:

  (a) --clients concurrent HTTP clients each send --requests `GET /api/runs/{id}`
      (a workflow query answered by the worker); p50/p95/max latency and throughput;
  (b) one client follows `GET /api/runs/{id}/events` while the benchmark decides
      candidates one at a time; the delay is from sending a decision to receiving
      its `CUSTOM decision` event (the stream polls the workspace, see api/routes/run_events.py).

Figures go to bench/results.json under `api`. A benchmark, not a test: exit 0 unless
the stack cannot start.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from api.auth import TokenIssuer, load_secret  # noqa: E402
from bench.results_file import record  # noqa: E402
from kminer.config import load_settings  # noqa: E402
from kminer.stack import embedded_stack  # noqa: E402

QUESTION = "Which suppliers of lithium carry geopolitical risk?"
GET_P95_TARGET_MS = 250.0
EVENT_DELAY_TARGET_MS = 1000.0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


async def wait_for_review(http: httpx.AsyncClient, run_id: str, timeout: float = 300) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = await http.get(f"/api/runs/{run_id}")
        if got.status_code == 200 and got.json()["phase"] == "REVIEW":
            return got.json()
        await asyncio.sleep(0.5)
    raise RuntimeError(f"run {run_id} did not reach REVIEW in {timeout:.0f} s")


async def concurrent_reads(api: str, headers: dict, run_id: str, clients: int, requests: int):
    latencies: list[float] = []
    failures = 0

    async def reader() -> None:
        nonlocal failures
        async with httpx.AsyncClient(base_url=api, headers=headers, timeout=60) as http:
            for _ in range(requests):
                began = time.perf_counter()
                got = await http.get(f"/api/runs/{run_id}")
                latencies.append((time.perf_counter() - began) * 1000)
                failures += got.status_code != 200

    began = time.perf_counter()
    await asyncio.gather(*(reader() for _ in range(clients)))
    return latencies, failures, time.perf_counter() - began


async def event_delays(api: str, headers: dict, run_id: str, candidate_ids: list[str]):
    """Decide each candidate and time its CUSTOM `decision` event on an open stream."""
    arrived: dict[str, float] = {}
    snapshot = asyncio.Event()
    got_one = asyncio.Event()

    async def follow() -> None:
        async with (
            httpx.AsyncClient(base_url=api, headers=headers, timeout=None) as http,
            http.stream("GET", f"/api/runs/{run_id}/events") as stream,
        ):
            async for line in stream.aiter_lines():
                if not line.startswith("data:"):
                    continue
                event = json.loads(line[5:])
                if event.get("type") == "STATE_SNAPSHOT":
                    snapshot.set()
                if event.get("type") == "CUSTOM" and event.get("name") == "decision":
                    arrived[event["value"]["candidateId"]] = time.perf_counter()
                    got_one.set()
                # A review ends an AG-UI run with an interrupt outcome and the stream goes
                # on with the next one: only the run's own end stops following.
                interrupt = (event.get("outcome") or {}).get("type") == "interrupt"
                if event.get("type") == "RUN_ERROR" or (
                    event.get("type") == "RUN_FINISHED" and not interrupt
                ):
                    return

    follower = asyncio.create_task(follow())
    await asyncio.wait_for(snapshot.wait(), 60)
    delays: list[float] = []
    async with httpx.AsyncClient(base_url=api, headers=headers, timeout=60) as http:
        for cid in candidate_ids:
            got_one.clear()
            sent = time.perf_counter()
            answer = await http.post(
                f"/api/runs/{run_id}/decisions",
                json=[{"candidateId": cid, "action": "reject", "reason": "benchmark"}],
            )
            answer.raise_for_status()
            while cid not in arrived:
                await asyncio.wait_for(got_one.wait(), 30)
                got_one.clear()
            delays.append((arrived[cid] - sent) * 1000)
    follower.cancel()
    return delays


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="kminer-bench-api-") as tmp:
        settings = replace(load_settings(Path(tmp) / "data"), runs_per_minute=10_000)
        async with embedded_stack(settings, with_api=True) as stack:
            api = stack.api_url or ""
            token = TokenIssuer(load_secret(settings.data_dir)).mint("bench", "admin")
            headers = {"Authorization": f"Bearer {token}"}
            async with httpx.AsyncClient(base_url=api, headers=headers, timeout=60) as http:
                started = await http.post(
                    "/api/runs",
                    json={"query": QUESTION, "domainTags": ["supply_chain"], "review": "required"},
                )
                started.raise_for_status()
                run_id = started.json()["runId"]
                workspace = await wait_for_review(http, run_id)
            print(f"run {run_id} in REVIEW with {len(workspace['pendingApprovals'])} pending")

            await concurrent_reads(api, headers, run_id, 5, 4)  # warm connections and caches
            latencies, failures, seconds = await concurrent_reads(
                api, headers, run_id, args.clients, args.requests
            )
            pending = workspace["pendingApprovals"][: args.decisions]
            delays = await event_delays(api, headers, run_id, pending) if pending else []

    figures: dict[str, Any] = {
        "measured": date.today().isoformat(),
        "clients": args.clients,
        "requests": len(latencies),
        "failures": failures,
        "get_run_p50_ms": round(percentile(latencies, 0.50), 1),
        "get_run_p95_ms": round(percentile(latencies, 0.95), 1),
        "get_run_max_ms": round(max(latencies), 1),
        "get_run_per_second": round(len(latencies) / seconds, 1),
        "sse_decisions": len(delays),
    }
    if delays:
        figures["sse_delay_p50_ms"] = round(statistics.median(delays), 1)
        figures["sse_delay_max_ms"] = round(max(delays), 1)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--requests", type=int, default=20, help="per client")
    parser.add_argument("--decisions", type=int, default=5, help="decisions timed on the stream")
    parser.add_argument("--no-record", action="store_true", help="do not write results.json")
    args = parser.parse_args()
    figures = asyncio.run(measure(args))
    print(
        f"GET /api/runs/{{id}}, {figures['clients']} clients, {figures['requests']} requests: "
        f"p50 {figures['get_run_p50_ms']} ms, p95 {figures['get_run_p95_ms']} ms, "
        f"max {figures['get_run_max_ms']} ms, {figures['get_run_per_second']}/s, "
        f"{figures['failures']} failed"
    )
    verdict = "PASS" if figures["get_run_p95_ms"] <= GET_P95_TARGET_MS else "FAIL"
    print(f"{verdict}: p95 {figures['get_run_p95_ms']} ms (target <= {GET_P95_TARGET_MS:.0f} ms)")
    if figures["sse_decisions"]:
        delay = figures["sse_delay_p50_ms"]
        print(
            f"decision -> SSE event over {figures['sse_decisions']} decisions: "
            f"p50 {delay} ms, max {figures['sse_delay_max_ms']} ms"
        )
        verdict = "PASS" if delay <= EVENT_DELAY_TARGET_MS else "FAIL"
        print(f"{verdict}: event delay p50 {delay} ms (target <= {EVENT_DELAY_TARGET_MS:.0f} ms)")
    if not args.no_record:
        record("api", figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
