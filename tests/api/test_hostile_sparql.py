"""The SPARQL that took the whole stack down (issue 24) is a 4xx naming the limit within
10 s, and afterwards the stack is healthy, its evaluator gone and its CPU idle."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest

from kminer.stack import Stack
from storage.dkg.sparql_guard import MAX_QUERY_OPERATORS
from tests.support.hostile_sparql import CRASHING, ENDLESS, ORDINARY, alive, cpu_seconds

HOSTILE = {**CRASHING, **ENDLESS}


async def evaluators_and_server_idle(pids: list[int]) -> None:
    """Over one second neither this process (API and worker) nor an evaluator computes."""
    server, evaluators = time.process_time(), {pid: cpu_seconds(pid) for pid in pids}
    await asyncio.sleep(1.0)
    assert time.process_time() - server < 0.5
    for pid, before in evaluators.items():
        assert cpu_seconds(pid) - before < 0.1, f"evaluator {pid} still computes"


@pytest.mark.parametrize("name", HOSTILE)
async def test_a_query_that_took_the_stack_down_is_a_4xx_within_10_s(
    stack: Stack, bearer: Any, name: str
) -> None:
    async with httpx.AsyncClient(
        base_url=stack.api_url or "", headers=bearer(), timeout=30
    ) as http:
        warm = await http.post("/api/dkg/sparql", json={"query": ORDINARY})
        assert warm.status_code == 200, warm.text
        sandbox = stack.services.dkg.sandbox
        (used,) = sandbox.pids()  # the warm evaluator a lone caller gets again

        started = time.monotonic()
        answer = await http.post("/api/dkg/sparql", json={"query": HOSTILE[name]})
        assert time.monotonic() - started < 10.0
        assert answer.status_code == 400, answer.text
        assert answer.headers["content-type"].startswith("application/problem+json")
        detail = answer.json()["detail"]
        if name in CRASHING:
            assert "operators (" in detail and f"the limit is {MAX_QUERY_OPERATORS:,}" in detail
        else:
            assert detail == "query exceeds the 5 s time limit (its evaluation was stopped)"
            assert not alive(used), "the evaluator of the endless query was not stopped"

        assert (await http.get("/healthz")).status_code == 200
        assert (await http.get("/readyz")).status_code == 200
        await evaluators_and_server_idle(sandbox.pids())
        again = await http.post("/api/dkg/sparql", json={"query": ORDINARY})
        assert again.status_code == 200 and again.json()["rows"]


async def test_endless_queries_at_once_are_all_answered_within_10_s(
    stack: Stack, bearer: Any
) -> None:
    """More endless queries than evaluators: the ones that wait are refused by the same
    limit, counted from when they arrived, and none outlives it."""
    async with httpx.AsyncClient(
        base_url=stack.api_url or "", headers=bearer(), timeout=30
    ) as http:
        started = time.monotonic()
        answers = await asyncio.gather(
            *(
                http.post("/api/dkg/sparql", json={"query": query})
                for query in [*ENDLESS.values()] * 2
            )
        )
        assert time.monotonic() - started < 10.0
        assert [a.status_code for a in answers] == [400] * 4
        assert all("5 s time limit" in a.json()["detail"] for a in answers)
        assert (await http.get("/healthz")).status_code == 200
        await evaluators_and_server_idle(stack.services.dkg.sandbox.pids())
