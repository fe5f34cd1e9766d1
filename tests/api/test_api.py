"""The REST API over a real stack: health, validation errors, runs and decisions."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from typing import Any

import httpx
from temporalio.client import WorkflowFailureError

from contracts.run import Phase
from kminer.config import Settings
from kminer.stack import Stack


async def test_healthz_answers_once_the_stack_is_up(stack: Stack, bearer: Any) -> None:
    async with httpx.AsyncClient(base_url=stack.api_url or "", headers=bearer()) as http:
        answer = await http.get("/healthz")
    assert answer.status_code == 200
    assert answer.json()["status"] == "ok"
    [worker] = stack.supervision.states  # the stack's one worker; the dev server is the tests'
    child = answer.json()["children"][worker]
    assert worker.startswith("worker:") and (child["state"], child["restarts"]) == ("running", 0)


async def test_a_bad_tag_is_a_422_with_the_rule(stack: Stack, bearer: Any) -> None:
    async with httpx.AsyncClient(base_url=stack.api_url or "", headers=bearer()) as http:
        answer = await http.post("/api/runs", json={"query": "q", "domainTags": ["no-dash"]})
    assert answer.status_code == 422
    assert "invalid domain tag 'no-dash'" in answer.text


async def test_model_limits_no_call_can_keep_are_a_422_with_the_rule(
    stack: Stack, bearer: Any
) -> None:
    async with httpx.AsyncClient(base_url=stack.api_url or "", headers=bearer()) as http:
        limits = {"callSeconds": 30, "heartbeatSeconds": 60}
        answer = await http.post("/api/runs", json={"query": "q", "modelLimits": limits})
    assert answer.status_code == 422
    assert "heartbeatSeconds (60) must be less than callSeconds (30)" in answer.text


async def test_a_run_is_started_reviewed_and_decided_over_http(stack: Stack, bearer: Any) -> None:
    async with httpx.AsyncClient(
        base_url=stack.api_url or "", headers=bearer(), timeout=30
    ) as http:
        started = await http.post(
            "/api/runs",
            json={
                "query": "Which suppliers of lithium carry geopolitical risk?",
                "domainTags": ["#Supply_Chain"],
            },
        )
        assert started.status_code == 202, started.text
        assert started.headers["location"] == f"/api/runs/{started.json()['runId']}"
        run = started.json()
        assert run["threadId"] == "supply_chain"
        for _ in range(300):
            ws = (await http.get(f"/api/runs/{run['runId']}")).json()
            if ws["phase"] == Phase.REVIEW:
                break
            await asyncio.sleep(0.2)
        assert ws["phase"] == "REVIEW" and ws["pendingApprovals"]

        unknown = await http.post(
            f"/api/runs/{run['runId']}/decisions",
            json=[{"candidateId": "cand-missing", "action": "approve"}],
        )
        assert unknown.status_code == 409
        assert "unknown candidate" in unknown.json()["detail"]

        decisions = [
            {"candidateId": cid, "action": "reject", "reason": "test"}
            for cid in ws["pendingApprovals"]
        ]
        decided = await http.post(f"/api/runs/{run['runId']}/decisions", json=decisions)
        assert decided.status_code == 200
        assert {d["status"] for d in decided.json()} == {"rejected"}
        for _ in range(100):
            result = await http.get(f"/api/runs/{run['runId']}/result")
            if result.status_code == 200:
                break
            await asyncio.sleep(0.2)
        assert result.json()["publishedAssets"] == []


async def test_the_dkg_endpoint_refuses_updates(stack: Stack, bearer: Any) -> None:
    async with httpx.AsyncClient(base_url=stack.api_url or "", headers=bearer()) as http:
        refused = await http.post(
            "/api/dkg/sparql", json={"query": "INSERT DATA { <urn:a> <urn:b> <urn:c> }"}
        )
        count = await http.post(
            "/api/dkg/sparql",
            json={
                "query": "SELECT (COUNT(*) AS ?n) WHERE { GRAPH <did:dkg:metadata> "
                "{ ?ual dkg:stakeAmount ?s FILTER(?s > 50000) } }"
            },
        )
    assert refused.status_code == 400 and "read queries" in refused.json()["detail"]
    assert count.status_code == 200 and int(count.json()["rows"][0]["n"]) > 0


async def test_unknown_runs_are_404(stack: Stack, bearer: Any) -> None:
    async with httpx.AsyncClient(base_url=stack.api_url or "", headers=bearer()) as http:
        answer = await http.get("/api/runs/mine-doesnotexist")
    assert answer.status_code == 404


async def test_the_result_of_a_failed_run_is_a_409_with_the_cause(
    stack: Stack, bearer: Any, settings: Settings
) -> None:
    run_id = f"bad-{uuid.uuid4().hex[:8]}"
    handle = await stack.client.start_workflow(
        "MiningWorkflow",
        {"query": "lithium", "domainTags": ["no spaces allowed"]},
        id=run_id,
        task_queue=settings.task_queue,
    )
    with contextlib.suppress(WorkflowFailureError):
        await handle.result()
    async with httpx.AsyncClient(base_url=stack.api_url or "", headers=bearer()) as http:
        answer = await http.get(f"/api/runs/{run_id}/result")
    assert answer.status_code == 409
    assert "FAILED" in answer.json()["detail"]
    assert "invalid domain tag 'no spaces allowed'" in answer.json()["detail"]


async def test_started_runs_are_listed_with_their_status(
    stack: Stack, bearer: Any, settings: Settings
) -> None:
    async with httpx.AsyncClient(
        base_url=stack.api_url or "", headers=bearer(), timeout=30
    ) as http:
        started = await http.post(
            "/api/runs", json={"query": "lithium suppliers", "domainTags": ["supply_chain"]}
        )
        run_id = started.json()["runId"]
        for _ in range(50):  # visibility is eventually consistent
            listed = await http.get("/api/runs", params={"limit": 200})
            if any(r["runId"] == run_id for r in listed.json()["runs"]):
                break
            await asyncio.sleep(0.2)
        assert listed.status_code == 200
        mine = next(r for r in listed.json()["runs"] if r["runId"] == run_id)
        assert mine["status"] == "RUNNING" and mine["closedAt"] is None
        assert mine["threadId"] == "supply_chain" and mine["domainTags"] == ["supply_chain"]
        assert (await http.get("/api/runs", params={"limit": 0})).status_code == 422
        await http.post(f"/api/runs/{run_id}/cancel")
