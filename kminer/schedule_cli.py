"""`kminer schedule add|list|pause|unpause|delete`: re-mine a question on a Temporal Schedule.

Each firing starts a MiningWorkflow (never two of one schedule at once: a firing while the
last run still goes is skipped). What a run publishes again is not minted twice: the DKG
finds it by content hash and answers with the UAL it already has.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from pydantic import ValidationError

SCHEDULE_PREFIX = "kminer-schedule-"
_EVERY = re.compile(r"^(\d+)(s|m|h|d)$")
_UNIT = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days"}


class ScheduleUsageError(Exception):
    """A bad interval, question or schedule id: one line, exit 2."""


def parse_every(text: str) -> timedelta:
    match = _EVERY.match(text.strip())
    if not match or int(match[1]) < 1:
        raise ScheduleUsageError(
            f"--every takes a count and a unit (30s, 15m, 24h, 7d), not {text!r}"
        )
    return timedelta(**{_UNIT[match[2]]: int(match[1])})


def add_schedule_parser(sub: Any, with_data_dir: Callable[[Any], Any]) -> None:
    schedule = sub.add_parser("schedule", help="re-mine a question on a schedule")
    ssub = schedule.add_subparsers(dest="schedule_command", required=True)
    add = with_data_dir(ssub.add_parser("add", help="mine QUERY every interval"))
    add.add_argument("query")
    add.add_argument("--every", required=True, help="interval: 30s, 15m, 24h, 7d")
    add.add_argument("--tag", action="append", help="domain tag (repeatable)")
    add.add_argument("--max-iterations", type=int, default=4)
    add.add_argument("--auto-approve", action="store_true", help="publish what is accepted")
    add.add_argument("--id", help="schedule name (default: derived from the question)")
    with_data_dir(ssub.add_parser("list", help="the schedules and their next runs"))
    for verb in ("pause", "unpause", "delete"):
        with_data_dir(ssub.add_parser(verb, help=f"{verb} a schedule")).add_argument("id")


def _schedule_id(name: str) -> str:
    return name if name.startswith(SCHEDULE_PREFIX) else SCHEDULE_PREFIX + name


async def create_schedule(
    client: Any, task_queue: str, schedule_id: str, request: Any, every: timedelta
) -> Any:
    from temporalio.client import (
        Schedule,
        ScheduleActionStartWorkflow,
        ScheduleIntervalSpec,
        ScheduleOverlapPolicy,
        SchedulePolicy,
        ScheduleSpec,
    )

    from workflows.mining import MiningWorkflow

    sid = _schedule_id(schedule_id)
    return await client.create_schedule(
        sid,
        Schedule(
            action=ScheduleActionStartWorkflow(
                MiningWorkflow.run,
                request,
                id=f"{sid.removeprefix(SCHEDULE_PREFIX)}-run",  # Temporal appends the time
                task_queue=task_queue,
                memo={"principal": f"schedule:{sid.removeprefix(SCHEDULE_PREFIX)}"},
            ),
            spec=ScheduleSpec(intervals=[ScheduleIntervalSpec(every=every)]),
            policy=SchedulePolicy(overlap=ScheduleOverlapPolicy.SKIP),
        ),
    )


def _request(args: argparse.Namespace) -> Any:
    from contracts.run import MiningRequest

    try:
        return MiningRequest(
            query=args.query,
            domainTags=args.tag or [],
            maxIterations=args.max_iterations,
            review="auto" if args.auto_approve else "required",
        )
    except ValidationError as exc:
        raise ScheduleUsageError(exc.errors()[0]["msg"].removeprefix("Value error, ")) from None


async def cmd_schedule(args: argparse.Namespace, settings: Any) -> int:
    from temporalio.client import ScheduleAlreadyRunningError
    from temporalio.service import RPCError, RPCStatusCode

    from kminer.stack import read_stack_file
    from kminer.worker import connect

    request = _request(args) if args.schedule_command == "add" else None
    every = parse_every(args.every) if args.schedule_command == "add" else None
    running = read_stack_file(settings)
    address = settings.temporal_address or (running["temporal"] if running else None)
    if not address:
        raise ScheduleUsageError("no Temporal: set TEMPORAL_ADDRESS or run kminer up")
    client = await connect(settings, address)
    try:
        if args.schedule_command == "add":
            name = args.id or re.sub(r"[^a-z0-9]+", "-", args.query.lower()).strip("-")[:40]
            try:
                handle = await create_schedule(client, settings.task_queue, name, request, every)
            except ScheduleAlreadyRunningError:
                raise ScheduleUsageError(f"schedule {_schedule_id(name)} exists") from None
            print(f"schedule {handle.id}: every {args.every}, thread {request.threadId}")
        elif args.schedule_command == "list":
            async for item in await client.list_schedules():
                if not item.id.startswith(SCHEDULE_PREFIX):
                    continue
                info, state = item.info, item.schedule.state
                upcoming = info.next_action_times[0].isoformat() if info.next_action_times else "-"
                recent = len(info.recent_actions)
                status = "paused" if state.paused else "active"
                print(f"{item.id}  {status}  next {upcoming}  recent runs {recent}")
        else:
            handle = client.get_schedule_handle(_schedule_id(args.id))
            if args.schedule_command == "pause":
                await handle.pause(note="kminer schedule pause")
            elif args.schedule_command == "unpause":
                await handle.unpause(note="kminer schedule unpause")
            else:
                await handle.delete()
            print(f"schedule {handle.id}: {args.schedule_command}d")
    except RPCError as exc:
        if exc.status == RPCStatusCode.NOT_FOUND:
            raise ScheduleUsageError(f"no schedule {_schedule_id(args.id)}") from None
        raise
    return 0
