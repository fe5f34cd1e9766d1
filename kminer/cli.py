"""`kminer`: up, demo, mine, batch, review, mcp, worker, api, dkg, corpus, db. Bad input: exit 2."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
import threading
import warnings
from datetime import timedelta
from pathlib import Path
from typing import Any, NoReturn

from pydantic import ValidationError

from kminer.batch_cli import BatchUsageError, add_batch_parser
from kminer.cli_args import UsageError, command_settings
from kminer.corpus_cli import add_corpus_parser, cmd_corpus
from kminer.db_cli import DbUsageError, add_db_parser, cmd_db
from kminer.dkg_cli import cmd_dkg
from kminer.mcp_cli import cmd_mcp
from kminer.schedule_cli import ScheduleUsageError, add_schedule_parser
from kminer.service_cli import ServiceUsageError, add_service_parsers
from kminer.tracing import flush_traces

warnings.filterwarnings("ignore", message=".*allowed_objects.*")
REVIEW_RPC_TIMEOUT = timedelta(seconds=30)  # `kminer review RUN` reading the workspace
HARD_STOP_SECONDS = 20.0  # after SIGTERM, the longest a command may take to stop


async def _serve_until_stopped() -> None:
    """Run until SIGINT/SIGTERM cancels the command (see `_until_sigterm`)."""
    await asyncio.Event().wait()


def _stopped_cleanly() -> int:
    """For long-running commands a stop signal is the normal end: exit 0."""
    task = asyncio.current_task()
    if task is not None:
        task.uncancel()
    return 0


async def cmd_up(args: argparse.Namespace) -> int:
    from kminer.stack import embedded_stack

    settings = command_settings(args)
    try:
        async with embedded_stack(settings, api_port=args.port) as stack:
            print(f"Temporal  {stack.temporal_address}", flush=True)
            print(f"API       {stack.api_url}  (healthz: {stack.api_url}/healthz)", flush=True)
            from api.auth import TokenIssuer, load_secret
            from api.routes.ui import sign_in_link

            token = TokenIssuer(load_secret(settings.data_dir)).mint("local-admin", "admin")
            if stack.api_url:
                print(f"chat UI   {sign_in_link(stack.api_url, token)}", flush=True)
            print(f"sign in   Authorization: Bearer {token}", flush=True)
            print(f"data dir  {settings.data_dir}  — Ctrl-C to stop", flush=True)
            await _serve_until_stopped()
    except asyncio.CancelledError:
        return _stopped_cleanly()
    return 0


async def cmd_worker(args: argparse.Namespace) -> int:
    from kminer.service_cli import cmd_worker as run_worker

    try:
        return await run_worker(args, command_settings(args))
    except asyncio.CancelledError:
        return _stopped_cleanly()


async def cmd_api(args: argparse.Namespace) -> int:
    from kminer.service_cli import cmd_api as run_api

    try:
        return await run_api(args, command_settings(args))
    except asyncio.CancelledError:
        return _stopped_cleanly()


def _request(args: argparse.Namespace):  # noqa: ANN202
    from contracts.run import MiningRequest

    try:
        return MiningRequest(
            query=args.query,
            domainTags=args.tag or [],
            maxIterations=args.max_iterations,
            review="auto" if args.auto_approve else "required",
        )
    except ValidationError as exc:
        first = exc.errors()[0]
        raise UsageError(first["msg"].removeprefix("Value error, ")) from None


async def cmd_batch(args: argparse.Namespace) -> int:
    from kminer.batch_cli import cmd_batch as run_batch

    return await run_batch(args, command_settings(args))


async def cmd_schedule(args: argparse.Namespace) -> int:
    from kminer.schedule_cli import cmd_schedule as run_schedule

    return await run_schedule(args, command_settings(args))


async def cmd_mine(args: argparse.Namespace) -> int:
    from kminer.stack import embedded_stack, read_stack_file
    from kminer.worker import connect
    from temporal_client.runs import follow, start_run

    request = _request(args)
    settings = command_settings(args)
    out = sys.stderr if args.json else sys.stdout
    running = read_stack_file(settings)
    if running:
        client = await connect(settings, running["temporal"])
        handle = await start_run(client, settings.task_queue, request)
        print(f"run {handle.id} (thread {request.threadId})", file=out, flush=True)
        result = await follow(handle, out=out)
    else:
        async with embedded_stack(settings, with_api=False) as stack:
            handle = await start_run(stack.client, settings.task_queue, request)
            print(f"run {handle.id} (thread {request.threadId})", file=out, flush=True)
            result = await follow(handle, out=out)
    if args.json:
        print(result.model_dump_json(indent=2))
    else:
        print(f"\n{result.summary}\n\n{result.synthesizedReport}")
        for item in result.publishedAssets:
            print(f"published {item.candidateId} -> {item.ual}")
    return 0


def _decisions(args: argparse.Namespace) -> list[Any]:
    """The review flags as decisions; a bad edit file is refused before any connection."""
    from contracts.run import Decision

    decisions = [Decision(candidateId=c, action="approve") for c in args.approve or []]
    decisions += [
        Decision(candidateId=c, action="reject", reason=args.reason) for c in args.reject or []
    ]
    for cid, path in args.edit or []:
        try:
            asset = json.loads(Path(path).read_text())
        except (OSError, json.JSONDecodeError, RecursionError) as exc:
            raise UsageError(f"cannot read edited asset {path}: {exc}") from None
        if not isinstance(asset, dict):
            raise UsageError(f"edited asset {path} must be a JSON-LD object")
        from mining.jsonld import jsonld_problem

        problem = jsonld_problem(asset)
        if problem:
            raise UsageError(f"edited asset {path} is not publishable JSON-LD: {problem}")
        decisions.append(Decision(candidateId=cid, action="edit", asset=asset))
    return decisions


async def cmd_review(args: argparse.Namespace) -> int:
    from temporalio.client import WorkflowUpdateFailedError
    from temporalio.service import RPCError, RPCStatusCode

    from kminer.stack import read_stack_file
    from kminer.worker import connect
    from temporal_client.workspaces import read_workspace
    from workflows.mining import MiningWorkflow

    decisions = _decisions(args)
    settings = command_settings(args)
    running = read_stack_file(settings)
    address = settings.temporal_address or (running["temporal"] if running else None)
    if not address:
        raise UsageError("no running stack for this data dir; start one with kminer up")
    client = await connect(settings, address)
    handle = client.get_workflow_handle(args.run_id)
    try:
        if not decisions:
            # An ended run whose query fails is read from its result.
            ws = await read_workspace(handle, REVIEW_RPC_TIMEOUT, client.data_converter)
            print(ws.model_dump_json(indent=2, include={"phase", "pendingApprovals", "candidates"}))
            return 0
        import getpass

        who = f"cli:{getpass.getuser()}"
        signed = [d.model_copy(update={"reviewer": d.reviewer or who}) for d in decisions]
        results = await handle.execute_update(MiningWorkflow.decide, signed)
    except WorkflowUpdateFailedError as exc:
        raise UsageError(f"decision refused: {getattr(exc.cause, 'message', exc.cause)}") from None
    except RPCError as exc:
        if exc.status == RPCStatusCode.NOT_FOUND:
            raise UsageError(f"no run {args.run_id}") from None
        raise
    for r in results:
        print(f"{r.candidateId}: {r.status} (confidence {r.confidence})")
    return 0


async def cmd_token(args: argparse.Namespace) -> int:
    from api.auth import TokenIssuer, load_secret

    settings = command_settings(args)
    try:
        token = TokenIssuer(load_secret(settings.data_dir)).mint(args.sub, args.role, args.ttl)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    print(token)
    return 0


async def cmd_demo(args: argparse.Namespace) -> int:
    from kminer.demo import run_demo

    return await run_demo(command_settings(args))


class OneLineParser(argparse.ArgumentParser):
    """Usage mistakes are one line and exit 2 (`--help` still shows the usage)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


def parser() -> argparse.ArgumentParser:
    p = OneLineParser(prog="kminer", description="Durable knowledge mining on Temporal")
    sub = p.add_subparsers(dest="command", required=True)

    def with_data_dir(sp: argparse.ArgumentParser) -> argparse.ArgumentParser:
        sp.add_argument("--data-dir", help="state directory (default $KM_DATA_DIR or ./.kminer)")
        return sp

    up = with_data_dir(sub.add_parser("up", help="start Temporal, a worker and the API"))
    up.add_argument("--port", type=int, default=8000, help="API port (default 8000)")
    with_data_dir(sub.add_parser("demo", help="mine, review and publish on the demo data"))
    token = with_data_dir(sub.add_parser("token", help="mint an API token (bearer JWT)"))
    token.add_argument("--role", choices=["miner", "reviewer", "admin"], default="miner")
    token.add_argument("--sub", required=True, help="who the token is for")
    token.add_argument("--ttl", type=int, default=12 * 3600, help="seconds (default 12 h)")
    mine = with_data_dir(sub.add_parser("mine", help="run one mining question"))
    mine.add_argument("query")
    mine.add_argument("--tag", action="append", help="domain tag (repeatable)")
    mine.add_argument("--max-iterations", type=int, default=4)
    mine.add_argument("--auto-approve", action="store_true", help="publish what validation accepts")
    mine.add_argument("--json", action="store_true", help="print only the response JSON")
    review = with_data_dir(sub.add_parser("review", help="show or decide a run's candidates"))
    review.add_argument("run_id")
    review.add_argument("--approve", action="append", metavar="ID")
    review.add_argument("--reject", action="append", metavar="ID")
    review.add_argument("--edit", action="append", nargs=2, metavar=("ID", "FILE"))
    review.add_argument("--reason", default="rejected by reviewer")
    mcp_help = "serve the MCP tools over stdio (on kminer up, or on a stack of its own)"
    with_data_dir(sub.add_parser("mcp", help=mcp_help))
    add_service_parsers(sub, with_data_dir)
    dkg = sub.add_parser("dkg", help="query the DKG (embedded, or DKG_NODE_URL)")
    dsub = dkg.add_subparsers(dest="dkg_command", required=True)
    q = with_data_dir(dsub.add_parser("query", help="run a read-only SPARQL query"))
    q.add_argument("sparql")
    q.add_argument("--limit", type=int, default=100)
    with_data_dir(dsub.add_parser("get", help="fetch an asset and its metadata")).add_argument(
        "ual"
    )
    with_data_dir(dsub.add_parser("load", help="load JSON-LD assets (file or dir)")).add_argument(
        "path"
    )
    with_data_dir(
        dsub.add_parser("backup", help="export the embedded store as N-Quads (online)")
    ).add_argument("file")
    with_data_dir(
        dsub.add_parser("restore", help="load a backup into an empty store (owner stopped)")
    ).add_argument("file")
    add_corpus_parser(sub, with_data_dir)
    add_db_parser(sub, with_data_dir)
    add_batch_parser(sub, with_data_dir)
    add_schedule_parser(sub, with_data_dir)
    return p


COMMANDS = {
    "up": cmd_up,
    "demo": cmd_demo,
    "token": cmd_token,
    "mine": cmd_mine,
    "review": cmd_review,
    "worker": cmd_worker,
    "api": cmd_api,
    "dkg": cmd_dkg,
    "corpus": cmd_corpus,
    "mcp": cmd_mcp,
    "db": cmd_db,
    "batch": cmd_batch,
    "schedule": cmd_schedule,
}


async def _until_sigterm(command: Any, args: argparse.Namespace) -> int:
    """SIGTERM cancels the command like Ctrl-C, so every stack it started is stopped; a
    stop still held after HARD_STOP_SECONDS (an activity stuck in a thread) ends the
    process there (the dev server follows it: its parent-death signal)."""
    task = asyncio.current_task()
    if task is not None:

        def stop() -> None:
            task.cancel()
            deadline = threading.Timer(HARD_STOP_SECONDS, os._exit, args=(143,))
            deadline.daemon = True
            deadline.start()

        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop)
    return await command(args)


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return asyncio.run(_until_sigterm(COMMANDS[args.command], args))
    except asyncio.CancelledError:
        print("kminer: stopped", file=sys.stderr)
        return 143
    except (
        UsageError,
        DbUsageError,
        ServiceUsageError,
        BatchUsageError,
        ScheduleUsageError,
    ) as exc:
        print(f"kminer: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # noqa: BLE001  (one line, not a stack trace)
        from temporalio.client import WorkflowFailureError

        from kminer.stack import StackError
        from storage.sql.migrate import UnusableDatabase

        if isinstance(exc, StackError | UnusableDatabase):  # bad input: the user's to fix
            print(f"kminer: {exc}", file=sys.stderr)
            return 2
        if isinstance(exc, WorkflowFailureError):
            print(f"kminer: the run failed: {exc.cause or exc}", file=sys.stderr)
            return 1
        print(f"kminer: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1


def run(argv: list[str] | None = None) -> NoReturn:
    """The console script: the command's status, then leave without interpreter teardown.

    The Temporal client's native (Rust) threads can outlive the interpreter while it
    finalizes and abort the process (exit 134) after a command already succeeded
    (temporalio/sdk-python issue 300). Everything a command owns is closed inside
    `main` (stacks stopped, files and databases closed), so after flushing output the
    process ends at once with the real status.
    """
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse: --help (0) and usage errors (2)
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
        if isinstance(exc.code, str):
            print(exc.code, file=sys.stderr)
    flush_traces()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more to say
            pass
    os._exit(code)


if __name__ == "__main__":
    run()
