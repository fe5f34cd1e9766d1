"""The MCP tools through the mcp SDK's own client: over stdio (`kminer mcp`, here on the
data dir's running stack; alone in tests/e2e/test_mcp_alone.py) and over streamable HTTP
at /mcp of the running API, against a real stack."""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import httpx2
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult

from kminer.config import Settings
from kminer.stack import Stack
from tests.support.paths import ROOT

QUESTION = "Which suppliers of lithium carry geopolitical risk?"
KMINER = str(Path(sys.executable).with_name("kminer"))
RESPONSE_KEYS = {"summary", "candidateAssets", "domainTags", "memoryWrites", "answer"}
RUN_SECONDS = 240.0  # a whole run on the rules policy, with room for a slow machine


def payload(result: CallToolResult) -> Any:
    """The tool's JSON answer (its text block), or the error text of a tool error."""
    text = "".join(getattr(block, "text", "") for block in result.content)
    return text if result.is_error else json.loads(text)


@asynccontextmanager
async def stdio_session(settings: Settings, errlog: Path) -> AsyncIterator[ClientSession]:
    """`kminer mcp` for the stack's data dir, as an MCP host would start it."""
    params = StdioServerParameters(
        command=KMINER,
        args=["mcp", "--data-dir", str(settings.data_dir)],
        # The stack of this test polls its own task queue; the command reads it from here,
        # and runs the code under test whichever checkout the venv was installed from.
        env={"KM_TASK_QUEUE": settings.task_queue, "PYTHONPATH": str(ROOT)},
    )
    with errlog.open("w") as err:
        async with stdio_client(params, errlog=err) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                yield session


@asynccontextmanager
async def http_session(url: str, headers: dict[str, str]) -> AsyncIterator[ClientSession]:
    timeout = httpx2.Timeout(30.0, read=RUN_SECONDS)
    async with httpx2.AsyncClient(headers=headers, timeout=timeout) as http:
        async with streamable_http_client(url, http_client=http) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                yield session


async def test_stdio_lists_the_tools_and_mines_with_progress(
    stack: Stack, settings: Settings, tmp_path: Path
) -> None:
    errlog = tmp_path / "kminer-mcp.err"
    progress: list[tuple[float, str | None]] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append((value, message))

    try:
        async with stdio_session(settings, errlog) as session:
            tools = {t.name: t for t in (await session.list_tools()).tools}
            assert {"knowledge-miner", "knowledge-miner-decide", "knowledge-miner-status"} <= set(
                tools
            )
            schema = tools["knowledge-miner"].input_schema
            props = schema["properties"]
            assert {"query", "domainTags", "maxIterations", "review"} <= set(props)
            assert schema["required"] == ["query"]
            assert props["domainTags"]["type"] == "array"
            assert (props["maxIterations"]["minimum"], props["maxIterations"]["maximum"]) == (1, 10)
            assert set(props["review"]["enum"]) == {"required", "auto"}
            assert props["review"]["default"] == "auto"

            result = await session.call_tool(
                "knowledge-miner",
                {"query": QUESTION, "domainTags": ["supply_chain"], "review": "auto"},
                read_timeout_seconds=RUN_SECONDS,
                progress_callback=on_progress,
            )
            assert not result.is_error, payload(result)
            response = payload(result)
            assert RESPONSE_KEYS <= set(response)
            assert response["domainTags"] == ["supply_chain"]
            assert response["phase"] == "COMPLETED"
            assert response["answer"]["text"]
            assert progress, "at least one progress notification"
            messages = [m for _, m in progress]
            assert messages[0].startswith(f"run {response['runId']} started")
            assert "phase DISCOVERY" in messages and "phase COMPLETED" in messages
            assert [v for v, _ in progress] == sorted(v for v, _ in progress)

            status = payload(
                await session.call_tool("knowledge-miner-status", {"runId": response["runId"]})
            )
            assert status["phase"] == "COMPLETED" and status["pendingApprovals"] == []
            assert status["answer"]["text"] == response["answer"]["text"]

            bad = await session.call_tool(
                "knowledge-miner", {"query": QUESTION, "domainTags": ["no-dash"]}
            )
            assert bad.is_error
            assert "invalid domain tag 'no-dash'" in payload(bad)
            assert "^[a-z0-9_]{1,64}$" in payload(bad)
            too_many = await session.call_tool(
                "knowledge-miner", {"query": QUESTION, "maxIterations": 11}
            )
            assert too_many.is_error and "maxIterations" in payload(too_many)
            # A slow local model's limits ride on the request, checked as the API checks them.
            assert "modelLimits" in props
            slow = await session.call_tool(
                "knowledge-miner",
                {"query": QUESTION, "modelLimits": {"callSeconds": 30, "heartbeatSeconds": 60}},
            )
            assert slow.is_error and "heartbeatSeconds (60) must be less than" in payload(slow)
        # With the data dir's stack running it uses that one, and starts none of its own.
        said = errlog.read_text()
        assert "using the kminer stack of" in said and "embedded" not in said
    finally:
        print(errlog.read_text() if errlog.exists() else "", file=sys.stderr)


async def test_http_review_then_decide_gives_the_completed_result(
    stack: Stack, bearer: Any
) -> None:
    url = f"{stack.api_url}/mcp"
    async with http_session(url, bearer(role="reviewer", sub="alice")) as session:
        assert "knowledge-miner" in {t.name for t in (await session.list_tools()).tools}
        reached: list[str | None] = []

        async def on_progress(value: float, total: float | None, message: str | None) -> None:
            reached.append(message)

        started = await session.call_tool(
            "knowledge-miner",
            {"query": QUESTION, "domainTags": ["#Supply_Chain"], "review": "required"},
            read_timeout_seconds=RUN_SECONDS,
            progress_callback=on_progress,
        )
        assert not started.is_error, payload(started)
        review = payload(started)
        assert review["phase"] == "REVIEW" and review["pendingApprovals"]
        assert "phase REVIEW" in reached
        first = review["candidates"][0]
        assert {"id", "name", "confidence", "accepted", "reasoning"} <= set(first)
        run_id = review["runId"]

        status = payload(await session.call_tool("knowledge-miner-status", {"runId": run_id}))
        assert status["phase"] == "REVIEW"
        assert status["pendingApprovals"] == review["pendingApprovals"]
        assert status["todos"] and "answer" in status

        refused = await session.call_tool(
            "knowledge-miner-decide",
            {"runId": run_id, "decisions": [{"candidateId": "cand-missing", "action": "approve"}]},
        )
        assert refused.is_error and "unknown candidate" in payload(refused)

        decisions = [
            {"candidateId": cid, "action": "reject", "reason": "test"}
            for cid in review["pendingApprovals"]
        ]
        decided = await session.call_tool(
            "knowledge-miner-decide",
            {"runId": run_id, "decisions": decisions},
            read_timeout_seconds=RUN_SECONDS,
        )
        assert not decided.is_error, payload(decided)
        response = payload(decided)
        assert RESPONSE_KEYS <= set(response)
        assert response["phase"] == "COMPLETED" and response["publishedAssets"] == []
        assert {d["reviewer"] for d in response["decisions"]} == {"alice"}

    # The runs list shows the question of a run an agent started, as of one the API did.
    headers = bearer(role="reviewer", sub="alice")
    async with httpx.AsyncClient(base_url=stack.api_url, headers=headers) as api:
        listed = (await api.get("/api/runs")).json()["runs"]
    assert {r["runId"]: r["query"] for r in listed}[run_id] == QUESTION


async def test_http_mcp_needs_a_token_and_deciding_needs_a_reviewer(
    stack: Stack, bearer: Any
) -> None:
    url = f"{stack.api_url}/mcp"
    hello = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    accept = {"Accept": "application/json, text/event-stream"}
    async with httpx.AsyncClient() as http:
        missing = await http.post(url, json=hello, headers=accept)
        garbage = await http.post(url, json=hello, headers={**accept, "Authorization": "Bearer x"})
    assert missing.status_code == 401 and "Bearer" in missing.headers["www-authenticate"]
    assert garbage.status_code == 401

    async with http_session(url, bearer(role="miner", sub="bob")) as session:
        refused = await session.call_tool(
            "knowledge-miner-decide",
            {"runId": "mine-anything", "decisions": [{"candidateId": "c", "action": "approve"}]},
        )
        assert refused.is_error and "needs 'reviewer'" in payload(refused)
        unknown = await session.call_tool("knowledge-miner-status", {"runId": "mine-nothing"})
        assert unknown.is_error and "no run mine-nothing" in payload(unknown)
