"""`kminer batch FILE`: one question per line (or JSON lines with tags), mined as child
runs of one BatchWorkflow with a concurrency limit; a progress line, then a summary table."""

from __future__ import annotations

import argparse
import json
import sys
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from pydantic import ValidationError

POLL_SECONDS = 0.5


class BatchUsageError(Exception):
    """An unreadable file or a bad line: one line, exit 2."""


def add_batch_parser(sub: Any, with_data_dir: Callable[[Any], Any]) -> None:
    batch = with_data_dir(sub.add_parser("batch", help="mine many questions from a file"))
    batch.add_argument("file", help='one question a line, or JSON lines {"query", "domainTags"}')
    batch.add_argument("--concurrency", type=int, default=4, help="runs at once (1..50)")
    batch.add_argument("--tag", action="append", help="domain tag for plain-text lines")
    batch.add_argument("--max-iterations", type=int, default=4)
    batch.add_argument("--auto-approve", action="store_true", help="publish what is accepted")
    batch.add_argument("--json", action="store_true", help="print the result rows as JSON")


def read_requests(args: argparse.Namespace) -> list[Any]:
    """The file's questions as MiningRequests; a bad line is refused with its number."""
    from contracts.run import MiningRequest

    try:
        lines = Path(args.file).read_text().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise BatchUsageError(f"cannot read {args.file}: {exc}") from None
    review = "auto" if args.auto_approve else "required"
    requests = []
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        fields: dict[str, Any] = {
            "query": text,
            "domainTags": args.tag or [],
            "maxIterations": args.max_iterations,
            "review": review,
        }
        if text.startswith("{"):
            try:
                given = json.loads(text)
            except json.JSONDecodeError as exc:
                raise BatchUsageError(f"{args.file}:{number}: not JSON: {exc.msg}") from None
            if not isinstance(given, dict):
                raise BatchUsageError(f"{args.file}:{number}: a JSON line must be an object")
            fields |= given
        try:
            requests.append(MiningRequest.model_validate(fields))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "line"
            msg = first["msg"].removeprefix("Value error, ")
            raise BatchUsageError(f"{args.file}:{number}: {where}: {msg}") from None
    if not requests:
        raise BatchUsageError(f"{args.file} holds no questions")
    return requests


def summary_table(rows: list[Any]) -> str:
    head = f"{'#':>3}  {'status':<9} {'cands':>5} {'publ':>4}  {'run':<22} question"
    lines = [head, "-" * len(head)]
    for r in rows:
        query = r.query if len(r.query) <= 60 else r.query[:57] + "..."
        lines.append(
            f"{r.index + 1:>3}  {r.status:<9} {r.candidates:>5} {r.published:>4}  {r.runId:<22} "
            + query
        )
        if r.error:
            lines.append(f"{'':>5}error: {r.error}")
    done = sum(1 for r in rows if r.status == "completed")
    lines.append(
        f"{done} of {len(rows)} completed, {sum(r.published for r in rows)} assets published"
    )
    return "\n".join(lines)


def _bar(progress: Any, out: TextIO) -> None:
    finished = progress.completed + progress.failed
    width = 30
    filled = width * finished // max(progress.total, 1)
    out.write(
        f"\r[{'#' * filled}{'.' * (width - filled)}] {finished}/{progress.total}"
        f" ({progress.running} running, {progress.failed} failed)"
    )
    out.flush()


async def run_batch(client: Any, task_queue: str, batch: Any, out: TextIO) -> Any:
    from temporal_client.runs import watch
    from workflows.batch import BatchWorkflow

    handle = await client.start_workflow(
        BatchWorkflow.run,
        batch,
        id=f"batch-{uuid.uuid4().hex[:10]}",
        task_queue=task_queue,
        memo={"principal": "cli"},
    )
    print(f"batch {handle.id}: {len(batch.requests)} questions", file=out, flush=True)

    async def show() -> None:
        _bar(await handle.query(BatchWorkflow.progress), out)

    result = await watch(handle, show, POLL_SECONDS)
    await show()
    out.write("\n")
    return result


async def cmd_batch(args: argparse.Namespace, settings: Any) -> int:
    from kminer.stack import embedded_stack, read_stack_file
    from kminer.worker import connect
    from workflows.batch import BatchInput

    requests = read_requests(args)
    if not 1 <= args.concurrency <= 50:
        raise BatchUsageError("--concurrency must be between 1 and 50")
    batch = BatchInput(requests=requests, maxConcurrent=args.concurrency)
    out = sys.stderr if args.json else sys.stdout
    address = settings.temporal_address
    running = read_stack_file(settings)
    if address or running:
        client = await connect(settings, address or running["temporal"])
        result = await run_batch(client, settings.task_queue, batch, out)
    else:
        async with embedded_stack(settings, with_api=False) as stack:
            result = await run_batch(stack.client, settings.task_queue, batch, out)
    if args.json:
        print(json.dumps([r.model_dump() for r in result.items], indent=2))
    else:
        print(summary_table(result.items))
    return 0 if all(r.status == "completed" for r in result.items) else 1
