"""The embedded stack: Temporal dev server + worker + API, up together, down together."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

import uvicorn
from temporalio.client import Client

from api.app import create_app
from api.auth import load_secret
from kminer.config import Settings
from kminer.devserver import LOOPBACK, DevServer, free_port, port_is_free, wait_for_port
from kminer.worker import Services, build_workers, connect, open_services, warm_up

GRACEFUL_STOP_SECONDS = 3  # open requests get this long to finish when the API stops


class StackError(RuntimeError):
    pass


class EmbeddedApiServer(uvicorn.Server):
    """uvicorn without its own signal handling: the stack owns SIGINT/SIGTERM."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def make_api_server(
    client: Client, settings: Settings, services: Services, secret: Any, host: str, port: int
) -> EmbeddedApiServer:
    """The FastAPI app over this client and services, in a uvicorn server on host:port."""
    app = create_app(
        client,
        settings.task_queue,
        services,
        settings.max_body_bytes,
        secret,
        settings.runs_per_minute,
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


def read_stack_file(settings: Settings) -> dict[str, Any] | None:
    """The addresses of a `kminer up` running for this data dir, if it is alive."""
    try:
        info = json.loads(settings.stack_file.read_text())
        os.kill(int(info["pid"]), 0)
    except (OSError, ValueError, KeyError):
        return None
    return info


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
    if not address:
        server = DevServer(
            db_file=settings.data_dir / "temporal.db",
            log_file=settings.data_dir / "temporal.log",
        )
        # Started from this (main) thread on purpose: the server's parent-death signal
        # follows the thread that spawned it, and a pool thread may go away first.
        server.start()
        address = server.address
    services: Services | None = None
    try:
        services = await asyncio.to_thread(open_services, settings)
        await asyncio.to_thread(warm_up, services)
        client = await connect(settings, address, services.engine)
        async with contextlib.AsyncExitStack() as workers:
            for worker in build_workers(client, settings, services):
                await workers.enter_async_context(worker)
            port = (api_port or free_port()) if with_api else None
            api_url = f"http://{LOOPBACK}:{port}" if port else None
            # Recorded before the API answers, so whoever sees /healthz also finds the stack.
            settings.stack_file.write_text(
                json.dumps(
                    {
                        "pid": os.getpid(),
                        "temporal": address,
                        "temporalPid": server.process.pid if server and server.process else None,
                        "api": api_url,
                    }
                )
            )
            api_task = None
            api_server = None
            try:
                if port is not None:
                    secret = load_secret(settings.data_dir)
                    api_server = make_api_server(client, settings, services, secret, LOOPBACK, port)
                    api_task = asyncio.create_task(api_server.serve())
                    await api_listening(api_task, port)
                yield Stack(client, services, address, api_url)
            finally:
                settings.stack_file.unlink(missing_ok=True)
                if api_server is not None and api_task is not None:
                    api_server.should_exit = True
                    await api_task
    finally:
        if services is not None:
            services.close()
        if server is not None:
            await asyncio.to_thread(server.stop)
