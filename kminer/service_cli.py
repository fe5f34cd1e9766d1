"""`kminer worker` and `kminer api`: the processes a cluster runs (docker-compose.yml)."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
from collections.abc import Callable
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

from kminer.config import WORKER_ROLES, Settings

HEALTH_INTERVAL_SECONDS = 10.0


class ServiceUsageError(Exception):
    """A missing address or a role that cannot run: one line, exit 2."""


def add_service_parsers(sub: Any, with_data_dir: Callable[[Any], Any]) -> None:
    worker = with_data_dir(sub.add_parser("worker", help="run a worker only"))
    worker.add_argument("--address", help="Temporal host:port (default $TEMPORAL_ADDRESS)")
    worker.add_argument(
        "--role",
        type=_roles,
        default=["all"],
        help="all (default), or comma-separated: workflows, models, tools, publish "
        "(each needs its KM_*_TASK_QUEUE; see docs/operations.md)",
    )
    worker.add_argument(
        "--concurrency",
        type=_positive,
        help="activities run at once (default $KM_WORKER_CONCURRENCY or 16)",
    )
    worker.add_argument(
        "--rate-limit",
        type=_positive_rate,
        help="activities per second the server hands out from each queue this worker "
        "polls, all its workers together (default $KM_QUEUE_RATE_LIMIT: none)",
    )
    worker.add_argument(
        "--health-file",
        type=Path,
        help=f"touched every {HEALTH_INTERVAL_SECONDS:g} s while every poller runs (healthcheck)",
    )
    api = with_data_dir(sub.add_parser("api", help="serve the API only (needs a Temporal)"))
    api.add_argument("--address", help="Temporal host:port (default $TEMPORAL_ADDRESS)")
    api.add_argument("--host", default="127.0.0.1", help="bind address (default 127.0.0.1)")
    api.add_argument("--port", type=int, default=8000, help="port (default 8000)")


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, not {text!r}")
    return int(text)


def _positive_rate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a positive number, not {text!r}")
    return value


def _roles(text: str) -> list[str]:
    roles = [r.strip() for r in text.split(",") if r.strip()]
    unknown = [r for r in roles if r not in WORKER_ROLES]
    if not roles or unknown:
        raise argparse.ArgumentTypeError(
            f"unknown role {', '.join(unknown) or repr(text)}"
            f" (choose from {', '.join(WORKER_ROLES)})"
        )
    if len(set(roles)) < len(roles) or ("all" in roles and len(roles) > 1):
        raise argparse.ArgumentTypeError(f"{text!r}: each role once, and 'all' alone")
    return roles


def _address(args: argparse.Namespace, settings: Settings) -> str:
    from kminer.stack import read_stack_file

    address = args.address or settings.temporal_address
    if not address:
        running = read_stack_file(settings)
        address = running["temporal"] if running else None
    if not address:
        raise ServiceUsageError(
            "no Temporal address: pass --address, set TEMPORAL_ADDRESS or run kminer up"
        )
    return address


async def cmd_worker(args: argparse.Namespace, settings: Settings) -> int:
    """Poll until SIGTERM/SIGINT; then stop polling and let running activities finish
    (KM_SHUTDOWN_GRACE_SECONDS) before the process ends."""
    from kminer.worker import (
        DKG_ROLES,
        RoleError,
        build_workers,
        connect,
        open_services,
        role_queues,
        warm_up,
    )

    if args.concurrency:
        settings = dataclasses.replace(settings, worker_concurrency=args.concurrency)
    if args.rate_limit:
        settings = dataclasses.replace(settings, queue_rate_limit=args.rate_limit)
    try:
        role_queues(settings, args.role)  # before anything opens: a bad role is one line
    except RoleError as exc:
        raise ServiceUsageError(str(exc)) from None
    address = _address(args, settings)
    role = ",".join(args.role)
    services = open_services(settings, with_dkg=bool(DKG_ROLES.intersection(args.role)))
    try:
        warm_up(services)  # before "polling": the first run does not pay for it
        client = await connect(settings, address, services.engine)
        workers = build_workers(client, settings, services, args.role)
        async with AsyncExitStack() as stack:
            for worker in workers:
                await stack.enter_async_context(worker)
            queues = ", ".join(w.task_queue for w in workers)
            print(
                f"worker ({role}) polling {queues} on {address},"
                f" {settings.worker_concurrency} activities at once",
                flush=True,
            )
            try:
                await _alive(workers, args.health_file)
            except asyncio.CancelledError:
                print("worker stopping: finishing running activities", flush=True)
                task = asyncio.current_task()
                if task is not None:
                    task.uncancel()
        # Leaving the stack shut every worker down (graceful_shutdown_timeout).
        print("worker stopped", flush=True)
    finally:
        services.close()
    return 0


async def _alive(workers: list[Any], health_file: Path | None) -> None:
    """Until cancelled; a worker that stopped by itself (fatal poll error) ends the process."""
    while True:
        stopped = [w.task_queue for w in workers if w.is_shutdown]
        if stopped:
            raise RuntimeError(f"the worker of {', '.join(stopped)} stopped")
        if health_file is not None:
            health_file.touch()
        await asyncio.sleep(HEALTH_INTERVAL_SECONDS)


async def cmd_api(args: argparse.Namespace, settings: Settings) -> int:
    """The API alone: runs through Temporal, memory and audit in the database, DKG reads
    from a node (DKG_NODE_URL) or from snapshots of the store the tools worker owns."""
    from api.auth import load_secret
    from kminer.stack import make_api_server
    from kminer.worker import Services, connect
    from storage.dkg.factory import DkgSnapshotReader, open_dkg
    from storage.sql.db import make_engine

    address = _address(args, settings)
    try:
        secret = load_secret(settings.data_dir)
    except ValueError as exc:
        raise ServiceUsageError(str(exc)) from None
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    engine = make_engine(settings.database_url)
    if settings.dkg_node_url:
        dkg: Any = open_dkg(settings.dkg_node_url, settings.data_dir, settings.seed_dir)
    else:
        dkg = DkgSnapshotReader(settings.dkg_dir)
    services = Services(dkg=dkg, engine=engine, search=None)
    try:
        client = await connect(settings, address)
        server = make_api_server(client, settings, services, secret, args.host, args.port)
        serving = asyncio.create_task(server.serve())
        while not server.started:
            if serving.done():  # could not bind, or failed at startup
                raise ServiceUsageError(
                    f"the API could not start on {args.host}:{args.port}: {serving.exception()!r}"
                )
            await asyncio.sleep(0.05)
        print(f"API http://{args.host}:{args.port} (Temporal {address})", flush=True)
        try:
            await serving
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
            server.should_exit = True
            await serving
    finally:
        services.close()
    return 0
