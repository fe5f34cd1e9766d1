"""What Temporal costs a mining run: the run through Temporal vs the same calls without it.

    .venv/bin/python bench/overhead.py [--runs 3] [--no-record]

Through Temporal: a mining run (rules policy, review "auto", offline) on the embedded
dev server with an in-process worker, timed from start to result. An interceptor on
that worker records every activity it executes, regular and local (the function and
its decoded arguments, in start order).

Without Temporal, against a fresh data dir (its own DKG, SQLite, memory) so publishing
and memory writes do the same work again, in the order the run did them:

- each subagent (discovery, enrichment, validation) runs as the same Deep Agents graph
  (`workflows/agent_graphs.deep_agent`: the same middleware, prompt and task message, the
  rules policy deciding in process, the same tool wrappers with their references) whose
  tools call the activity functions directly and whose `/memories/` route is the SQL
  backend itself; the loop starts from the ledger the run's loop started from;
- every other recorded activity (research, memory, scoring, answer, publish, audit) is
  called with its recorded arguments inside `temporalio.testing.ActivityEnvironment`
  (an activity context, no server).

What the direct path does not run: the workflow's own code between the loops (stages,
workspace mirroring, review board), charged to Temporal; and it runs sequentially what
the workflow runs in parallel (research sub-questions). Before 2026-11-25 the direct path
replayed only the activities: it had no agent loop and, once the rules policy decided in
the workflow, no model decision either (`direct_activities_s` keeps that figure).

Each pair runs in fresh data dirs after one warm-up run (models loaded). The ratio is
median(through Temporal) / median(direct).

Temporal's floor, for scale: a workflow of 3 no-op activities (bench/ceiling.py) run
one at a time on the same server by an in-process worker like the mining one, its
fastest run (`trivial_min_s`) and median (`trivial_p50_s`). A mining run waits on more
workflow tasks and dispatched activities than that workflow, so even a run whose own
code cost nothing in Temporal would take about direct + trivial_min_s:
`ratio_floor` = (direct_s + trivial_min_s) / direct_s. History events, bytes and actions come from
the measured runs' histories (as bench/history.py counts them). Figures go to
bench/results.json under `overhead`, and `overhead_ratio` at the top (target ≤ 1.2).
A benchmark: it always exits 0 and says PASS/FAIL.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import inspect
import statistics
import sys
import tempfile
import time
import warnings
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
warnings.filterwarnings("ignore", message=".*allowed_objects.*")

from temporalio import activity  # noqa: E402
from temporalio.client import Client  # noqa: E402
from temporalio.testing import ActivityEnvironment  # noqa: E402
from temporalio.worker import (  # noqa: E402
    ActivityInboundInterceptor,
    ExecuteActivityInput,
    Interceptor,
    UnsandboxedWorkflowRunner,
    Worker,
)

from bench.ceiling import TrivialWorkflow, noop  # noqa: E402
from bench.history import measure_run  # noqa: E402
from bench.procs import fresh_settings, in_process_worker  # noqa: E402
from bench.results_file import record  # noqa: E402
from contracts.run import MiningRequest, Phase, Usage, memory_tags  # noqa: E402
from contracts.tools import TOOL_ARGS  # noqa: E402
from kminer.config import Settings  # noqa: E402
from kminer.devserver import DevServer  # noqa: E402
from kminer.worker import Services, activities_for, connect, open_services  # noqa: E402
from storage.sql.memory_backend import SqlMemoryBackend  # noqa: E402
from storage.sql.memory_repo import MemoryRepository  # noqa: E402
from temporal_client.runs import start_run  # noqa: E402
from workflows import prompts  # noqa: E402
from workflows.agent_graphs import (  # noqa: E402
    RUN_SCOPE,
    RunScope,
    deep_agent,
    scoped_ledger,
    shared_backend,
)
from workflows.agent_tools import ToolRouting, activity_tools  # noqa: E402
from workflows.agents.policy import RulesPolicyModel  # noqa: E402
from workflows.candidate_refs import CandidateLedger  # noqa: E402
from workflows.subagents import SubagentRunner, recursion_limit  # noqa: E402
from workflows.usage import UsageCounter  # noqa: E402

QUESTION = "Which suppliers of lithium carry geopolitical risk?"
TAGS = ["supply_chain", "general_risk"]
OVERHEAD_TARGET = 1.2
TOOL_NAMES = frozenset(TOOL_ARGS)
TRIVIAL_RUNS = 20


@dataclass
class Call:
    name: str
    local: bool
    fn: Any
    args: list[Any]


@dataclass
class Loop:
    """One subagent loop of the run: what it was built and started from, and the span of
    `Recorder.calls` its tools made (`first` to `end`)."""

    role: str
    prompt: str
    tools: list[str]
    subagent_tools: list[list[str]]
    message: str
    ledger: CandidateLedger
    config: dict[str, Any]
    first: int
    end: int = -1


@dataclass
class Recording:
    calls: list[Call] = field(default_factory=list)
    loops: list[Loop] = field(default_factory=list)


class Recorder(Interceptor):
    """Every activity execution of the worker: its function and decoded arguments."""

    def __init__(self) -> None:
        self.recording = Recording()
        self.calls = self.recording.calls

    def intercept_activity(self, next: ActivityInboundInterceptor) -> ActivityInboundInterceptor:
        calls = self.calls

        class Recorded(ActivityInboundInterceptor):
            async def execute_activity(self, input: ExecuteActivityInput) -> Any:
                info = activity.info()
                calls.append(Call(info.activity_type, info.is_local, input.fn, list(input.args)))
                return await super().execute_activity(input)

        return Recorded(next)


class recording_loops:
    """While open, `SubagentRunner._run` also notes each loop into `recording` (the bench's
    in-process worker runs the workflow outside the sandbox, on these very classes)."""

    def __init__(self, recording: Recording) -> None:
        self.recording = recording
        self.original = SubagentRunner._run

    def __enter__(self) -> None:
        original, recording = self.original, self.recording

        async def run(runner: Any, role: str, prompt: str, tools: list[str], title: str,
                      payload: dict[str, Any], subagents: Any = None) -> Any:  # fmt: skip
            specs = subagents() if subagents else []
            loop = Loop(
                role=role, prompt=prompt, tools=list(tools),
                subagent_tools=[[t.name for t in spec.get("tools", [])] for spec in specs],
                message=prompts.task_message(title, payload),
                ledger=copy.deepcopy(runner._ledger),
                config={
                    "recursion_limit": recursion_limit(runner._request),
                    "configurable": {"thread_id": runner._request.threadId},
                    "runId": runner._ws.runId,
                    "tags": memory_tags(runner._request.domainTags),
                },
                first=len(recording.calls),
            )  # fmt: skip
            out = await original(runner, role, prompt, tools, title, payload, subagents)
            loop.end = len(recording.calls)
            recording.loops.append(loop)
            return out

        SubagentRunner._run = run  # type: ignore[method-assign]

    def __exit__(self, *exc: Any) -> None:
        SubagentRunner._run = self.original  # type: ignore[method-assign]


async def through_temporal(
    address: str, settings: Settings, services: Services
) -> tuple[float, Recording, dict[str, Any]]:
    client = await connect(settings, address, services.engine)
    recorder = Recorder()
    worker = in_process_worker(client, settings, services, recorder)
    with recording_loops(recorder.recording):
        async with worker:
            request = MiningRequest(query=QUESTION, domainTags=TAGS, review="auto")
            started = time.perf_counter()
            handle = await start_run(client, settings.task_queue, request)
            result = await handle.result()
            seconds = time.perf_counter() - started
    assert result.phase == Phase.COMPLETED, result.phase
    return seconds, recorder.recording, await measure_run(handle)


def activity_functions(settings: Settings, services: Services) -> dict[str, Any]:
    """This data dir's activity functions by activity name."""
    return {a.__temporal_activity_definition.name: a for a in activities_for(settings, services)}


async def call(env: ActivityEnvironment, fn: Any, *args: Any) -> Any:
    """One activity function called in an activity context, sync or async."""
    out = env.run(fn, *args)
    return await out if inspect.isawaitable(out) else out


class DirectMemory:
    """A run's `/memories/` operations on the SQL backend itself (what the plugin's
    backend activity would call on the worker)."""

    def __init__(self, backend: SqlMemoryBackend) -> None:
        self.backend = backend

    async def _dispatch(self, op: str, *args: Any, **kwargs: Any) -> Any:
        out = getattr(self.backend, op)(*args, **kwargs)
        return await out if inspect.isawaitable(out) else out


class DirectAgents:
    """The run's subagents without Temporal: built once per bench process, like a worker's
    shared graphs, each tool call made on this data dir's activity functions."""

    def __init__(self) -> None:
        self.graphs: dict[str, Any] = {}
        self.fns: dict[str, Any] = {}
        self.made: Counter[str] = Counter()
        self.env = ActivityEnvironment()

    async def dispatch(self, name: str, args: Any, routing: ToolRouting) -> Any:
        self.made[name] += 1
        return await call(self.env, self.fns[name], args)

    def graph(self, loop: Loop) -> Any:
        graph = self.graphs.get(loop.role)
        if graph is None:
            tools = activity_tools(loop.tools, ledger=scoped_ledger, dispatch=self.dispatch)
            specs = [
                {**spec, "tools": activity_tools(names, dispatch=self.dispatch)}
                for spec, names in zip(prompts.SUBAGENT_SPECS, loop.subagent_tools, strict=False)
            ]
            graph = deep_agent(
                loop.role, RulesPolicyModel(), tools, loop.prompt, specs, shared_backend()
            )
            self.graphs[loop.role] = graph
        return graph

    async def run(self, loop: Loop, memory: MemoryRepository) -> None:
        graph = self.graph(loop)
        config = loop.config
        backend = SqlMemoryBackend(memory, config["runId"], config["tags"])
        scope = RUN_SCOPE.set(RunScope(copy.deepcopy(loop.ledger), DirectMemory(backend)))  # type: ignore[arg-type]
        try:
            await graph.ainvoke(
                {"messages": [{"role": "user", "content": loop.message}]},
                config={
                    "recursion_limit": config["recursion_limit"],
                    "configurable": config["configurable"],
                    "callbacks": [UsageCounter(Usage())],
                },
            )
        finally:
            RUN_SCOPE.reset(scope)


async def direct(
    recording: Recording, agents: DirectAgents, settings: Settings, services: Services
) -> float:
    """The run again without Temporal, on a fresh data dir: its subagent loops run directly
    and the rest of its recorded calls are replayed, all in the order the run made them."""
    fresh = activity_functions(settings, services)
    agents.fns = fresh
    agents.made.clear()
    memory = MemoryRepository(services.engine)
    env = ActivityEnvironment()
    calls = recording.calls
    in_loops = {i for loop in recording.loops for i in range(loop.first, loop.end)}
    starting: dict[int, list[Loop]] = {}
    for loop in recording.loops:
        starting.setdefault(loop.first, []).append(loop)
    started = time.perf_counter()
    for index in range(len(calls) + 1):
        for loop in starting.get(index, []):
            await agents.run(loop, memory)
        if index < len(calls) and index not in in_loops:
            made = calls[index]
            await call(env, fresh.get(made.name, made.fn), *made.args)
    seconds = time.perf_counter() - started
    # The same tool calls as the run's loops (a check that the direct loops did its work).
    ran = Counter(calls[i].name for i in in_loops if calls[i].name in TOOL_NAMES)
    if ran != agents.made:
        print(f"note: direct loops made {dict(agents.made)}, the run's loops {dict(ran)}")
    return seconds


async def replay(calls: list[Call], settings: Settings, services: Services) -> float:
    """Every recorded call again, in order, without Temporal and without agent loops (the
    direct path before 2026-11-25), on a fresh data dir."""
    fresh = activity_functions(settings, services)
    env = ActivityEnvironment()
    started = time.perf_counter()
    for made in calls:
        # The plugin's memory activities are not among this data dir's: as run.
        await call(env, fresh.get(made.name, made.fn), *made.args)
    return time.perf_counter() - started


async def trivial_runs(address: str, runs: int) -> list[float]:
    """Seconds of each of `runs` trivial workflows, one after another (after one warm-up)."""
    client = await Client.connect(address)
    queue = "bench-overhead-trivial"
    async with Worker(client, task_queue=queue, workflows=[TrivialWorkflow], activities=[noop],
                      workflow_runner=UnsandboxedWorkflowRunner()):  # fmt: skip
        seconds = []
        for i in range(runs + 1):
            started = time.perf_counter()
            await client.execute_workflow(TrivialWorkflow.run, id=f"trivial-{i}", task_queue=queue)
            seconds.append(time.perf_counter() - started)
    return seconds[1:]


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="kminer-bench-overhead-") as tmp:
        root = Path(tmp)
        server = DevServer(db_file=root / "temporal.db", log_file=root / "temporal.log").start()
        opened: list[Services] = []

        def dir_of(name: str) -> tuple[Settings, Services]:
            settings = replace(fresh_settings(root, name, server.address), tool_task_queue=None)
            services = open_services(settings)
            opened.append(services)
            return settings, services

        try:
            # Warm-ups, untimed: models loaded, the worker's and the direct graphs built.
            agents = DirectAgents()
            _, warm, _ = await through_temporal(server.address, *dir_of("warmup"))
            await direct(warm, agents, *dir_of("warmup-direct"))
            pairs = []
            for i in range(args.runs):
                seconds, run, history = await through_temporal(server.address, *dir_of(f"t{i}"))
                direct_s = await direct(run, agents, *dir_of(f"d{i}"))
                replay_s = await replay(run.calls, *dir_of(f"r{i}"))
                pairs.append((seconds, direct_s, run.calls, history, replay_s))
                print(
                    f"run {i + 1}: through Temporal {seconds:.2f} s, direct {direct_s:.2f} s "
                    f"({len(run.loops)} agent loops, {len(run.calls)} activity calls; "
                    f"the calls alone {replay_s:.2f} s)",
                    flush=True,
                )
            trivial = await trivial_runs(server.address, TRIVIAL_RUNS)
        finally:
            for services in opened:
                services.close()
            server.stop()
    temporal_s = statistics.median(p[0] for p in pairs)
    direct_s = statistics.median(p[1] for p in pairs)
    replay_s = statistics.median(p[4] for p in pairs)
    histories = [p[3] for p in pairs]
    calls = pairs[0][2]
    return {
        "measured": date.today().isoformat(),
        "runs": len(pairs),
        "temporal_s": round(temporal_s, 3),
        "direct_s": round(direct_s, 3),
        "overhead_ratio": round(temporal_s / direct_s, 2),
        "direct_activities_s": round(replay_s, 3),
        "trivial_min_s": round(min(trivial), 3),
        "trivial_p50_s": round(statistics.median(trivial), 3),
        "ratio_floor": round((direct_s + min(trivial)) / direct_s, 2),
        "overhead_ratio_activities_only": round(temporal_s / replay_s, 2),
        "activity_calls": len(calls),
        "local_activity_calls": sum(c.local for c in calls),
        "activities_per_run": round(statistics.mean(h["activities"] for h in histories)),
        "local_activities_per_run": round(
            statistics.mean(h["local_activities"] for h in histories)
        ),
        "history_events": round(statistics.mean(h["events"] for h in histories)),
        "history_bytes": max(h["bytes"] for h in histories),
        "actions_per_run": round(statistics.mean(h["actions"] for h in histories)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-record", action="store_true", help="do not write results.json")
    args = parser.parse_args()
    figures = asyncio.run(measure(args))
    print(
        f"maxIterations 4, {figures['runs']} runs: through Temporal {figures['temporal_s']} s, "
        f"direct {figures['direct_s']} s (median); {figures['activities_per_run']} activities "
        f"+ {figures['local_activities_per_run']} local activities, "
        f"{figures['history_events']} history events, {figures['history_bytes']:,} bytes, "
        f"{figures['actions_per_run']} actions per run"
    )
    print(
        f"Temporal's floor: a workflow of 3 no-op activities takes {figures['trivial_min_s']} s "
        f"at best, {figures['trivial_p50_s']} s median, one at a time; so a run costing "
        f"Temporal no more than that would still be at ratio {figures['ratio_floor']}"
    )
    ratio = figures["overhead_ratio"]
    verdict = "PASS" if ratio <= OVERHEAD_TARGET else "FAIL"
    print(f"{verdict}: overhead_ratio {ratio} (target <= {OVERHEAD_TARGET})")
    if not args.no_record:
        record("overhead", figures)
        record("overhead_ratio", ratio)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
