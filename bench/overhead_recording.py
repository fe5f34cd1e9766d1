"""The run through Temporal, recorded for bench/overhead.py: every activity the worker
executes (its function and decoded arguments, in start order) and every subagent loop
(what it was built and started from, and the span of those calls its tools made)."""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field
from typing import Any

from temporalio import activity
from temporalio.worker import ActivityInboundInterceptor, ExecuteActivityInput, Interceptor

from bench.history import measure_run
from bench.procs import in_process_worker
from contracts.run import MiningRequest, Phase, memory_tags
from kminer.config import Settings
from kminer.worker import Services, connect
from temporal_client.runs import start_run
from workflows import prompts
from workflows.candidate_refs import CandidateLedger
from workflows.subagents import SubagentRunner, recursion_limit

QUESTION = "Which suppliers of lithium carry geopolitical risk?"
TAGS = ["supply_chain", "general_risk"]


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
