"""`kminer mcp` as an MCP host starts it: alone, with no `kminer up` of its data dir
running. It brings the embedded stack up itself, serves the tools over stdio, and stops
what it started when the client goes (stdin closes)."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

import mcp_types
from mcp import ClientSession, StdioServerParameters, stdio_client

from tests.support.hostile_sparql import alive, evaluators_of
from tests.support.paths import ROOT
from tests.support.runs import QUESTION

RUN_SECONDS = 300.0  # the stack's start and a whole run on the rules policy, on a slow machine
STOP_SECONDS = 60.0
# The code under test, whichever checkout the venv was installed from; nothing else of
# the test's environment (no TEMPORAL_ADDRESS, no model key), as an MCP host passes it.
SERVER_ENV = {"PYTHONPATH": str(ROOT)}


def kminer_mcp(data: Path) -> list[str]:
    return [sys.executable, "-m", "kminer.cli", "mcp", "--data-dir", str(data)]


def payload(result: mcp_types.CallToolResult) -> Any:
    text = "".join(getattr(block, "text", "") for block in result.content)
    return text if result.is_error else json.loads(text)


def wait_until_gone(pid: int, timeout: float = STOP_SECONDS) -> bool:
    deadline = time.monotonic() + timeout
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    return not alive(pid)


async def test_an_mcp_client_given_only_kminer_mcp_lists_the_tool_and_mines(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    errlog = tmp_path / "kminer-mcp.err"
    params = StdioServerParameters(
        command=sys.executable, args=kminer_mcp(data)[1:], env=SERVER_ENV, cwd=tmp_path
    )
    try:
        with errlog.open("w") as err:
            async with stdio_client(params, errlog=err) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    tools = {t.name for t in (await session.list_tools()).tools}
                    assert "knowledge-miner" in tools
                    result = await session.call_tool(
                        "knowledge-miner",
                        {"query": QUESTION, "domainTags": ["supply_chain"], "review": "auto"},
                        read_timeout_seconds=RUN_SECONDS,
                    )
                    assert not result.is_error, payload(result)
                    response = payload(result)
                    assert response["phase"] == "COMPLETED" and response["answer"]["text"]
                    assert response["candidateAssets"] and all(
                        isinstance(c["linkedAssets"], list) for c in response["candidateAssets"]
                    )
                    stack = json.loads((data / "stack.json").read_text())
                    assert stack["api"] is None, "no API: the tools need only Temporal"
                    assert alive(stack["pid"]) and alive(stack["temporalPid"])
        assert wait_until_gone(stack["temporalPid"]), "the dev server it started must stop"
        assert wait_until_gone(stack["pid"])
        said = errlog.read_text()
        assert "starting the embedded one" in said and "embedded stack up" in said
    finally:
        print(errlog.read_text() if errlog.exists() else "", file=sys.stderr)


def _send(proc: subprocess.Popen, message: dict[str, Any]) -> None:
    assert proc.stdin is not None
    proc.stdin.write((json.dumps({"jsonrpc": "2.0", **message}) + "\n").encode())
    proc.stdin.flush()


def _answer(out: IO[bytes], request_id: int, lines: list[bytes], timeout: float) -> dict:
    """Read stdout until the answer to `request_id`, keeping every line read."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([out], [], [], deadline - time.monotonic())
        if not ready:
            break
        line = out.readline()
        assert line, "stdout closed before the answer"
        lines.append(line)
        message = json.loads(line)
        if message.get("id") == request_id:
            return message
    raise AssertionError(f"no answer to request {request_id} within {timeout} s")


def test_when_the_client_closes_stdin_the_stack_it_started_stops_and_stdout_held_only_the_protocol(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", str(tmp_path)), **SERVER_ENV}
    errlog = (tmp_path / "kminer-mcp.err").open("wb")
    proc = subprocess.Popen(
        kminer_mcp(data), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errlog, env=env
    )
    assert proc.stdout is not None
    lines: list[bytes] = []
    try:
        hello = {"protocolVersion": mcp_types.LATEST_PROTOCOL_VERSION, "capabilities": {},
                 "clientInfo": {"name": "test", "version": "0"}}  # fmt: skip
        _send(proc, {"id": 1, "method": "initialize", "params": hello})
        assert _answer(proc.stdout, 1, lines, 30)["result"]["serverInfo"]["name"]
        _send(proc, {"method": "notifications/initialized"})
        # A tool call waits for the stack: its answer shows Temporal is there.
        call = {"name": "knowledge-miner-status", "arguments": {"runId": "mine-nothing"}}
        _send(proc, {"id": 2, "method": "tools/call", "params": call})
        status = _answer(proc.stdout, 2, lines, RUN_SECONDS)["result"]
        assert status["isError"] and "no run mine-nothing" in status["content"][0]["text"]
        stack = json.loads((data / "stack.json").read_text())
        assert stack["pid"] == proc.pid and alive(stack["temporalPid"])
        evaluators = evaluators_of(proc.pid)
        assert evaluators, "the embedded stack warms a SPARQL evaluator up"

        assert proc.stdin is not None
        proc.stdin.close()  # the client goes
        began = time.monotonic()
        assert proc.wait(timeout=STOP_SECONDS) == 0
        print(f"stopped {time.monotonic() - began:.1f} s after stdin closed", file=sys.stderr)
        lines += proc.stdout.read().splitlines()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        errlog.close()
        print((tmp_path / "kminer-mcp.err").read_text(), file=sys.stderr)
    assert all(json.loads(line)["jsonrpc"] == "2.0" for line in lines if line.strip())
    assert not (data / "stack.json").exists()
    assert wait_until_gone(stack["temporalPid"]), "the dev server stops with the stack"
    assert not any(alive(pid) for pid in evaluators), "and so do the SPARQL evaluators"


def test_a_stack_that_cannot_start_is_one_line_on_stderr_and_each_tool_call_says_why(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "kminer.db").write_bytes(b"this is not a SQLite database, and must stay as it is")
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", str(tmp_path)), **SERVER_ENV}
    proc = subprocess.Popen(kminer_mcp(data), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    lines: list[bytes] = []
    try:
        hello = {"protocolVersion": mcp_types.LATEST_PROTOCOL_VERSION, "capabilities": {},
                 "clientInfo": {"name": "test", "version": "0"}}  # fmt: skip
        _send(proc, {"id": 1, "method": "initialize", "params": hello})
        _answer(proc.stdout, 1, lines, 30)
        _send(proc, {"method": "notifications/initialized"})
        call = {"name": "knowledge-miner", "arguments": {"query": QUESTION}}
        _send(proc, {"id": 2, "method": "tools/call", "params": call})
        refused = _answer(proc.stdout, 2, lines, RUN_SECONDS)["result"]
        assert refused["isError"]
        assert "no kminer stack" in refused["content"][0]["text"]
        assert "kminer.db" in refused["content"][0]["text"]
        assert proc.stdin is not None
        proc.stdin.close()
        assert proc.wait(timeout=STOP_SECONDS) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    said = proc.stderr.read().decode()
    unavailable = [line for line in said.splitlines() if "unavailable" in line]
    assert len(unavailable) == 1 and "Traceback" not in said, said
    assert (data / "kminer.db").read_bytes().startswith(b"this is not a SQLite")
