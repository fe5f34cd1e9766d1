"""`kminer mcp`: the MCP tools over stdio, as an MCP host starts them with nothing else running.

Like `kminer mine`, it uses the `kminer up` of the data dir when one runs, and otherwise
brings the embedded stack up itself, for as long as the MCP client stays connected: when
the client closes stdin (or the host sends SIGTERM) the stack it started is stopped. The
stack starts while the protocol is already served, so the client's handshake and tool
list do not wait for it; a tool call does, then runs as usual. stdout carries the
protocol alone: what this command has to say goes to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import sys

from temporalio.client import Client

from kminer.cli_args import command_settings
from kminer.config import Settings


def say(line: str) -> None:
    print(f"kminer mcp: {line}", file=sys.stderr, flush=True)


class StackUnavailable(RuntimeError):
    """The stack could not be reached or started: every tool call says why."""


class McpStack:
    """The Temporal client the tools use, from the data dir's running stack or from the
    embedded one this command brings up (and stops again in `close`)."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._client: asyncio.Future[Client] = asyncio.get_running_loop().create_future()
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def client(self) -> Client:
        """Once the stack is there (shielded: a tool call that gives up leaves it be)."""
        return await asyncio.shield(self._client)

    async def close(self) -> None:
        """Stop what this command started; a stack still starting is stopped once up."""
        self._stop.set()
        if self._task is not None:
            await self._task

    async def _run(self) -> None:
        from kminer.stack import embedded_stack, read_stack_file
        from kminer.worker import connect

        settings = self._settings
        try:
            running = read_stack_file(settings)
            if running:
                say(f"using the kminer stack of {settings.data_dir} (pid {running['pid']})")
                self._client.set_result(await connect(settings, running["temporal"]))
                return
            say(f"no kminer stack runs for {settings.data_dir}: starting the embedded one")
            async with embedded_stack(settings, with_api=False) as stack:
                say(f"embedded stack up (Temporal {stack.temporal_address})")
                self._client.set_result(stack.client)
                await self._stop.wait()
                say("client disconnected: stopping the embedded stack")
        except Exception as exc:  # noqa: BLE001  (one line here, the reason in each tool call)
            reason = f"{type(exc).__name__}: {exc}" if not str(exc) else str(exc)
            say(f"the kminer stack is unavailable: {reason}")
            if not self._client.done():
                self._client.set_exception(StackUnavailable(f"no kminer stack: {reason}"))
                self._client.exception()  # retrieved: no "never retrieved" noise at exit


async def cmd_mcp(args: argparse.Namespace) -> int:
    from api.mcp.server import serve_stdio

    settings = command_settings(args)
    stack = McpStack(settings)
    # Starts once this task first waits, inside serve_stdio: the SDK has taken stdout for
    # the protocol by then, so nothing the stack starts can write on it.
    stack.start()
    try:
        await serve_stdio(stack.client, settings.task_queue, f"mcp:{getpass.getuser()}")
    except asyncio.CancelledError:  # SIGTERM/SIGINT: the normal end of a server
        _uncancel()
    finally:
        await _until_done(asyncio.ensure_future(stack.close()))
    return 0


async def _until_done(closing: asyncio.Future[None]) -> None:
    """Let the stop finish: a host that signals again while it runs (the SDK's client sends
    SIGTERM 2 s after closing stdin) does not cut it short; HARD_STOP_SECONDS bounds it."""
    while not closing.done():
        try:
            await asyncio.shield(closing)
        except asyncio.CancelledError:
            _uncancel()
    closing.result()


def _uncancel() -> None:
    task = asyncio.current_task()
    if task is not None:
        task.uncancel()
