"""What a run writes belongs to whom the run acts for: its blobs are served only to who may
read the run, and its research is reused only by runs of the same principal (unless the
operator shares the research cache)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import httpx
from sqlmodel import Session

from kminer.config import Settings
from kminer.stack import Stack, embedded_stack
from storage.sql.tables import ResearchRun

TAGS = ["supply_chain", "general_risk"]
QUESTION = "Which suppliers of lithium carry geopolitical risk?"
PARAPHRASE = "What lithium suppliers are exposed to geopolitical risks?"


async def _mined(http: httpx.AsyncClient, headers: dict[str, str], query: str) -> dict[str, Any]:
    """A run of `query` started over HTTP and published without review; its workspace."""
    body = {"query": query, "domainTags": TAGS, "review": "auto", "maxIterations": 2}
    started = await http.post("/api/runs", json=body, headers=headers)
    assert started.status_code == 202, started.text
    run_id = started.json()["runId"]
    for _ in range(900):
        done = await http.get(f"/api/runs/{run_id}/result", headers=headers)
        if done.status_code != 409:
            break
        await asyncio.sleep(0.2)
    assert done.status_code == 200, done.text
    workspace = await http.get(f"/api/runs/{run_id}", headers=headers)
    assert workspace.status_code == 200, workspace.text
    return {"runId": run_id, **workspace.json()}


async def test_a_blob_is_served_only_to_who_may_read_its_run(stack: Stack, bearer: Any) -> None:
    ana = bearer("miner", "ana")
    async with httpx.AsyncClient(base_url=stack.api_url or "", timeout=30) as http:
        run = await _mined(http, ana, QUESTION)
        with Session(stack.services.engine) as session:
            task = session.get(ResearchRun, run["runId"])
        assert task is not None and task.principal == "ana"
        url = f"/api/blobs/{task.evidence_ref}"  # the research evidence the run stored

        own = await http.get(url, headers=ana)
        stranger = await http.get(url, headers=bearer("miner", "bob"))
        reviewer = await http.get(url, headers=bearer("reviewer", "rita"))
        admin = await http.get(url, headers=bearer("admin", "root"))
        unknown = await http.get(f"/api/blobs/{'0' * 64}", headers=bearer("admin"))
        malformed = await http.get("/api/blobs/not-a-digest", headers=ana)
        anonymous = await http.get(url)

    assert own.status_code == 200, own.text
    assert own.json()["sha256"] == task.evidence_ref and '"statements"' in own.json()["content"]
    assert stranger.status_code == 404, "another miner's run data"
    assert stranger.json()["detail"] == f"no blob {task.evidence_ref}", "as if it did not exist"
    assert reviewer.status_code == admin.status_code == 200, "they read every run"
    assert reviewer.json() == own.json()
    assert unknown.status_code == 404
    assert malformed.status_code == 422
    assert anonymous.status_code == 401


async def test_research_is_reused_only_by_runs_of_the_same_principal(
    stack: Stack, bearer: Any
) -> None:
    ana, bob = bearer("miner", "ana"), bearer("miner", "bob")
    async with httpx.AsyncClient(base_url=stack.api_url or "", timeout=30) as http:
        first = await _mined(http, ana, QUESTION)
        bobs = await _mined(http, bob, PARAPHRASE)
        anas = await _mined(http, ana, PARAPHRASE)
    assert not first["research"]["cacheHit"]
    assert not bobs["research"]["cacheHit"], "bob's run does not see ana's research"
    assert bobs["research"]["reusedTaskId"] is None
    assert anas["research"]["cacheHit"] and anas["research"]["reusedTaskId"] == first["runId"]
    assert bobs["research"]["cacheLookup"]["source_id"] is None


async def test_an_operator_may_share_the_research_cache(settings: Settings, bearer: Any) -> None:
    async with embedded_stack(replace(settings, research_cache_shared=True)) as stack:
        async with httpx.AsyncClient(base_url=stack.api_url or "", timeout=30) as http:
            first = await _mined(http, bearer("miner", "ana"), QUESTION)
            bobs = await _mined(http, bearer("miner", "bob"), PARAPHRASE)
    assert bobs["research"]["cacheHit"] and bobs["research"]["reusedTaskId"] == first["runId"]
