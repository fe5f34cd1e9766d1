"""Starting runs over HTTP: idempotent with a key, limited per principal, errors as problems."""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import replace
from typing import Any

import httpx

from api.throttle import StartLimiter, retry_after
from kminer.config import Settings
from kminer.stack import Stack, embedded_stack
from workflows.search_attributes import KM_PRINCIPAL, KM_THREAD

QUESTION = {"query": "Who supplies CATL?", "domainTags": ["supply_chain"]}


async def test_the_same_idempotency_key_starts_one_run(stack: Stack, bearer: Any) -> None:
    headers = {**bearer("miner", "ana"), "Idempotency-Key": "batch-7/question-3"}
    async with httpx.AsyncClient(base_url=stack.api_url or "", timeout=30) as http:
        first = await http.post("/api/runs", json=QUESTION, headers=headers)
        again = await http.post("/api/runs", json=QUESTION, headers=headers)
        other = await http.post("/api/runs", json=QUESTION, headers=bearer("miner", "bob")
                                | {"Idempotency-Key": "batch-7/question-3"})  # fmt: skip
    assert first.status_code == again.status_code == 202
    assert first.json()["runId"] == again.json()["runId"]
    assert other.json()["runId"] != first.json()["runId"], "keys are per principal"
    described = await stack.client.get_workflow_handle(first.json()["runId"]).describe()
    found = described.typed_search_attributes
    assert found.get(KM_THREAD) == "supply_chain", "a keyed run is listed like any other"
    assert found.get(KM_PRINCIPAL) == "ana"
    for run in (first, other):
        await stack.client.get_workflow_handle(run.json()["runId"]).cancel()


async def test_starting_too_often_is_429_with_retry_after(settings: Settings, bearer: Any) -> None:
    async with embedded_stack(replace(settings, runs_per_minute=2)) as stack:
        async with httpx.AsyncClient(base_url=stack.api_url or "", timeout=30) as http:
            started = [
                await http.post("/api/runs", json=QUESTION, headers=bearer("miner", "ana"))
                for _ in range(3)
            ]
            others = await http.post("/api/runs", json=QUESTION, headers=bearer("miner", "bob"))
        assert [r.status_code for r in started] == [202, 202, 429]
        assert int(started[2].headers["retry-after"]) >= 1
        assert "starts runs too often" in started[2].json()["detail"]
        assert others.status_code == 202, "the limit is per principal"
        for run in [*started[:2], others]:
            await stack.client.get_workflow_handle(run.json()["runId"]).cancel()


async def test_errors_are_problem_details(stack: Stack, bearer: Any) -> None:
    async with httpx.AsyncClient(base_url=stack.api_url or "", timeout=30) as http:
        missing = await http.get("/api/runs/mine-nope", headers=bearer())
        invalid = await http.post("/api/runs", json={"query": ""}, headers=bearer())
    assert missing.headers["content-type"] == "application/problem+json"
    assert missing.json() == {"type": "about:blank", "title": "Not Found", "status": 404,
                              "detail": "run mine-nope not found"}  # fmt: skip
    assert invalid.status_code == 422 and invalid.json()["title"] == "Unprocessable Entity"
    assert "query" in invalid.json()["detail"]


def test_the_bucket_refills_with_time() -> None:
    now = [0.0]
    limiter = StartLimiter(2, clock=lambda: now[0])
    assert limiter.take("a") == 0.0 and limiter.take("a") == 0.0
    assert limiter.take("a") == 30.0  # 2 a minute: one token every 30 s
    now[0] = 30.0
    assert limiter.take("a") == 0.0
    assert retry_after(0.2) == "1" and retry_after(29.5) == "30"


async def _listed(http: httpx.AsyncClient, headers: dict[str, str], **params: Any) -> Any:
    answer = await http.get("/api/runs", params=params, headers=headers)
    assert answer.status_code == 200, answer.text
    return answer.json()


async def test_runs_are_filtered_by_tag_phase_and_owner_and_paged(
    stack: Stack, bearer: Any
) -> None:
    # The dev server outlives this test: names of its own keep other tests' runs out.
    fresh = uuid.uuid4().hex[:8]
    ana, bob = bearer("miner", f"ana-{fresh}"), bearer("miner", f"bob-{fresh}")
    battery_metals = f"battery_metals_{fresh}"
    asks = [
        ({"query": "Who supplies CATL?", "domainTags": [battery_metals]}, ana),
        ({"query": "Who refines cobalt?", "domainTags": [battery_metals, "risk"]}, ana),
        ({"query": "Who insures shipping?", "domainTags": [f"maritime_{fresh}"]}, bob),
    ]
    async with httpx.AsyncClient(base_url=stack.api_url or "", timeout=30) as http:
        ids = [
            (await http.post("/api/runs", json=body, headers=who)).json()["runId"]
            for body, who in asks
        ]
        await stack.client.get_workflow_handle(ids[0]).cancel()
        reviewer = bearer("reviewer")
        for _ in range(100):  # visibility is eventually consistent
            battery = await _listed(http, reviewer, tag=battery_metals, limit=200)
            canceled = await _listed(http, reviewer, phase="CANCELED", limit=200)
            if {r["runId"] for r in battery["runs"]} == set(ids[:2]) and ids[0] in {
                r["runId"] for r in canceled["runs"]
            }:
                break
            await asyncio.sleep(0.2)
        assert {r["runId"] for r in battery["runs"]} == set(ids[:2])
        assert {r["runId"] for r in canceled["runs"]} >= {ids[0]}
        assert ids[1] not in {r["runId"] for r in canceled["runs"]}

        anas = await _listed(http, ana, limit=200)
        assert {r["runId"] for r in anas["runs"]} == set(ids[:2]), "a miner lists its own runs"
        assert all(r["principal"] == f"ana-{fresh}" for r in anas["runs"])
        assert {r["query"] for r in anas["runs"]} == {"Who supplies CATL?", "Who refines cobalt?"}

        first = await _listed(http, ana, limit=1)
        second = await _listed(http, ana, limit=1, cursor=first["nextCursor"])
        assert first["nextCursor"] and len(first["runs"]) == len(second["runs"]) == 1
        assert {first["runs"][0]["runId"], second["runs"][0]["runId"]} == set(ids[:2])
        assert first["runs"][0]["startedAt"] >= second["runs"][0]["startedAt"], "newest first"

        bad_cursor = await http.get("/api/runs", params={"cursor": "%%%"}, headers=ana)
        bad_phase = await http.get("/api/runs", params={"phase": "DREAMING"}, headers=ana)
        bad_tag = await http.get("/api/runs", params={"tag": "x' OR '1'='1"}, headers=ana)
        # Well-formed but not signed by this API: refused before Temporal sees it.
        head, tail = first["nextCursor"][:-4], first["nextCursor"][-4:]
        forged = head + ("BBBB" if tail == "AAAA" else "AAAA")
        zeros = await http.get("/api/runs", params={"cursor": "0" * 400}, headers=ana)
        tampered = await http.get("/api/runs", params={"cursor": forged}, headers=ana)
        for refused in (bad_cursor, zeros, tampered):
            assert refused.status_code == 400 and "cursor" in refused.json()["detail"]
        assert bad_phase.status_code == 422 and bad_tag.status_code == 422
        for run_id in ids[1:]:
            await stack.client.get_workflow_handle(run_id).cancel()
