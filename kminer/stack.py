"""The embedded stack: Temporal dev server + worker + API, up together, down together; the
dev server and the workers supervised while it runs (kminer/supervisor.py)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

import uvicorn
from temporalio.client import Client

from api.app import create_app
from api.auth import load_secret
from api.mcp.resource_metadata import ResourceServer
from kminer.config import Settings
from kminer.devserver import (
    LOOPBACK,
    DevServer,
    free_port,
    port_is_free,
    stop_stale_server,
    wait_for_port,
)
from kminer.supervisor import (
    STACK_GRACE_SECONDS,
    STOP_SECONDS,
    Child,
    DevServerChild,
    Supervision,
    WorkerChild,
)
from kminer.worker import Services, connect, open_services, warm_up, worker_builders

GRACEFUL_STOP_SECONDS = 3  # open requests get this long to finish when the API stops


class StackError(RuntimeError):
    pass


class EmbeddedApiServer(uvicorn.Server):
    """uvicorn without its own signal handling: the stack owns SIGINT/SIGTERM."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def make_api_server(
    client: Client,
    settings: Settings,
    services: Services,
    secret: Any,
    host: str,
    port: int,
    children: Callable[[], dict[str, Any]] | None = None,
) -> EmbeddedApiServer:
    """The FastAPI app over this client and services, in a uvicorn server on host:port;
    `children`: how the parts of this process are doing (kminer/supervisor.py)."""
    app = create_app(
        client,
        settings.task_queue,
        services,
        settings.max_body_bytes,
        secret,
        settings.runs_per_minute,
        children,
        ResourceServer(settings.public_url, settings.oauth_authorization_servers),
    )
    # MCP clients hold streams open (/mcp); a stop must not wait on them.
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        timeout_graceful_shutdown=GRACEFUL_STOP_SECONDS,
    )
    return EmbeddedApiServer(config)


@dataclass
class Stack:
    client: Client
    services: Services
    temporal_address: str
    api_url: str | None
    supervision: Supervision


def read_stack_file(settings: Settings) -> dict[str, Any] | None:
    """The addresses of a `kminer up` running for this data dir, if it is alive."""
    try:
        info = json.loads(settings.stack_file.read_text())
        os.kill(int(info["pid"]), 0)
    except (OSError, ValueError, KeyError):
        return None
    return info


def _stale_server_pid(settings: Settings) -> int | None:
    """The dev server a `kminer up` of this data dir left when it was killed, if any."""
    try:
        return int(json.loads(settings.stack_file.read_text())["temporalPid"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


async def api_listening(task: asyncio.Task, port: int, timeout: float = 30.0) -> None:
    """Wait until the API listens, or say why it never will."""
    probe = asyncio.ensure_future(asyncio.to_thread(wait_for_port, port, timeout))
    done, _ = await asyncio.wait([probe, task], return_when=asyncio.FIRST_COMPLETED)
    if task in done:
        probe.cancel()
        raise StackError(f"the API could not start on {LOOPBACK}:{port}: {task.exception()!r}")
    probe.result()


@contextlib.asynccontextmanager
async def embedded_stack(
    settings: Settings, api_port: int | None = None, with_api: bool = True
) -> AsyncIterator[Stack]:
    running = read_stack_file(settings)
    if running:
        raise StackError(
            f"a kminer stack (pid {running['pid']}) already runs for {settings.data_dir}; "
            "stop it or use another --data-dir"
        )
    if api_port and not port_is_free(api_port):
        raise StackError(f"port {api_port} on {LOOPBACK} is in use; pass --port with a free one")
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    server: DevServer | None = None
    address = settings.temporal_address
    stack_info: dict[str, Any] = {"pid": os.getpid()}
    if not address:
        db_file = settings.data_dir / "temporal.db"
        # A killed `kminer up` leaves its dev server ending on the same database file.
        stale = _stale_server_pid(settings)
        if stale is not None:
            await asyncio.to_thread(stop_stale_server, stale, db_file)
        server = DevServer(db_file=db_file, log_file=settings.data_dir / "temporal.log")
        # Launched from this (main) thread on purpose: the server's parent-death signal
        # follows the thread that spawned it, and a pool thread may go away first. Its
        # port is awaited off the loop, which meanwhile serves (`kminer mcp`'s handshake).
        server.launch()
        try:
            await asyncio.to_thread(server.wait_listening)
        except BaseException:
            server.stop()
            raise
        address = server.address
    stack_info["temporal"] = address

    def server_started(started: DevServer) -> None:
        stack_info["temporalPid"] = started.process.pid if started.process else None
        if "api" in stack_info:  # restarted: the stack file names the new process
            settings.stack_file.write_text(json.dumps(stack_info))

    services: Services | None = None
    supervision: Supervision | None = None
    try:
        if server is not None:
            server_started(server)
        services = await asyncio.to_thread(open_services, settings)
        await asyncio.to_thread(warm_up, services)
        client = await connect(settings, address, services.engine)
        grace = min(settings.shutdown_grace_seconds, STACK_GRACE_SECONDS)
        in_stack = replace(settings, shutdown_grace_seconds=grace)
        workers = [WorkerChild(build) for build in worker_builders(client, in_stack, services)]
        children: list[Child] = [*workers]
        if server is not None:
            children.insert(0, DevServerChild(server, server_started))
        supervision = Supervision(children)
        if server is not None:
            supervision.watch(children[0], stack_info["temporalPid"])
        for worker_child in workers:
            await supervision.start(worker_child)
        port = (api_port or free_port()) if with_api else None
        api_url = f"http://{LOOPBACK}:{port}" if port else None
        stack_info["api"] = api_url
        # Recorded before the API answers, so whoever sees /healthz also finds the stack.
        settings.stack_file.write_text(json.dumps(stack_info))
        api_task = None
        api_server = None
        try:
            if port is not None:
                secret = load_secret(settings.data_dir)
                api_server = make_api_server(
                    client, settings, services, secret, LOOPBACK, port, supervision.report
                )
                api_task = asyncio.create_task(api_server.serve())
                await api_listening(api_task, port)
            yield Stack(client, services, address, api_url, supervision)
        finally:
            settings.stack_file.unlink(missing_ok=True)
            if api_server is not None and api_task is not None:
                api_server.should_exit = True
                await api_task
    finally:
        if supervision is not None:
            await supervision.stop()
        if services is not None:
            services.close()
        if server is not None:
            await asyncio.to_thread(server.stop, STOP_SECONDS)
