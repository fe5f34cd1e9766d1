"""Requests at the edges get a 4xx that names the problem: out-of-range numbers, a decision
on a finished run, JSON sent under any spelling of its media type, a boolean for a
version, and the methods a path really allows."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

from api.limits import MAX_JSON_DEPTH, parsed_as_json
from kminer.stack import Stack

BIGGEST_ID = 2**63 - 1  # SQLite's and Postgres's largest integer


async def _completed_run(http: httpx.AsyncClient, headers: dict[str, str]) -> str:
    body = {"query": "Who supplies CATL?", "domainTags": ["supply_chain"], "review": "auto"}
    started = await http.post("/api/runs", json=body, headers=headers)
    assert started.status_code == 202, started.text
    run_id = started.json()["runId"]
    for _ in range(900):
        done = await http.get(f"/api/runs/{run_id}/result", headers=headers)
        if done.status_code != 409:
            break
        await asyncio.sleep(0.2)
    assert done.status_code == 200, done.text
    return run_id


async def test_finished_runs_refuse_decisions_and_page_their_trail_within_bounds(
    stack: Stack, bearer: Any
) -> None:
    reviewer = bearer("reviewer", "rita")
    async with httpx.AsyncClient(base_url=stack.api_url or "", timeout=30) as http:
        run_id = await _completed_run(http, bearer("miner", "ana"))
        decided = await http.post(
            f"/api/runs/{run_id}/decisions",
            json=[{"candidateId": "cand-1", "action": "approve"}],
            headers=reviewer,
        )
        unknown = await http.post(
            "/api/runs/mine-nope/decisions",
            json=[{"candidateId": "cand-1", "action": "reject"}],
            headers=reviewer,
        )
        trail = f"/api/runs/{run_id}/audit"
        past_the_end = await http.get(trail, params={"after": BIGGEST_ID}, headers=reviewer)
        overflow = await http.get(trail, params={"after": str(2**63)}, headers=reviewer)
        negative = await http.get(trail, params={"after": -1}, headers=reviewer)
        huge_limit = await http.get(trail, params={"limit": str(10**30)}, headers=reviewer)

    assert decided.status_code == 409, decided.text
    assert decided.headers["content-type"] == "application/problem+json"
    assert decided.json()["detail"] == f"run {run_id} ended COMPLETED: it takes no more decisions"
    assert unknown.status_code == 404, "a run that never existed is still not found"
    assert past_the_end.status_code == 200 and past_the_end.json()["events"] == []
    for refused in (overflow, negative, huge_limit):
        assert refused.status_code == 422, refused.text
        assert refused.json()["errors"][0]["loc"][0] == "query"
    assert "less than or equal to 9223372036854775807" in overflow.json()["detail"]


DEEP = b'{"query": "q", "x": ' + b"[" * (MAX_JSON_DEPTH + 1) + b"]" * (MAX_JSON_DEPTH + 1) + b"}"


@pytest.mark.parametrize(
    "content_type",
    [
        "application/json",
        "Application/JSON",
        "APPLICATION/JSON; charset=UTF-8",
        "application/json ;charset=utf-8",
        "application/vnd.api+json",
        None,  # no type named: scanned all the same
    ],
)
async def test_json_depth_is_checked_under_any_spelling_of_the_json_media_type(
    stack: Stack, bearer: Any, content_type: str | None
) -> None:
    headers = bearer("miner", "ana")
    if content_type is not None:
        headers["Content-Type"] = content_type
    async with httpx.AsyncClient(base_url=stack.api_url or "", timeout=30) as http:
        deep = await http.post("/api/runs", content=DEEP, headers=headers)
        shallow = await http.post("/api/runs", content=b'{"query": ""}', headers=headers)
    assert deep.status_code == 400, deep.text
    assert f"at most {MAX_JSON_DEPTH} allowed" in deep.json()["detail"]
    assert shallow.status_code == 422
    if content_type is not None:
        assert "query" in shallow.json()["detail"], "FastAPI parsed it as JSON"


def test_only_what_fastapi_parses_as_json_is_scanned() -> None:
    assert parsed_as_json(b"Application/JSON")
    assert parsed_as_json(b"application/problem+json; charset=utf-8")
    assert parsed_as_json(None) and parsed_as_json(b"")
    assert not parsed_as_json(b"text/plain")
    assert not parsed_as_json(b"multipart/form-data; boundary=x")
    assert not parsed_as_json(b"text/json")  # FastAPI hands such a body over unparsed


@pytest.mark.parametrize("version", [False, True, 1.0, "0", None])
async def test_a_note_version_must_be_an_integer(stack: Stack, bearer: Any, version: Any) -> None:
    async with httpx.AsyncClient(base_url=stack.api_url or "", timeout=30) as http:
        answer = await http.put(
            "/api/memory/strict_versions/discovery-notes",
            content=json.dumps({"content": "x", "version": version}),
            headers={**bearer("admin"), "Content-Type": "application/json"},
        )
        unwritten = await http.get("/api/memory/strict_versions/discovery-notes", headers=bearer())
    assert answer.status_code == 422, answer.text
    assert answer.json()["errors"][0]["loc"] == ["body", "version"]
    assert unwritten.status_code == 404, "nothing was written"


async def test_an_integer_version_still_edits_the_note(stack: Stack, bearer: Any) -> None:
    async with httpx.AsyncClient(base_url=stack.api_url or "", timeout=30) as http:
        answer = await http.put(
            "/api/memory/strict_versions/discovery-notes",
            json={"content": "x", "version": 0},
            headers=bearer("admin"),
        )
    assert answer.status_code == 200 and answer.json()["version"] == 1


@pytest.mark.parametrize(
    ("path", "allowed"),
    [
        ("/api/memory/supply_chain/discovery-notes", "GET, PUT"),
        ("/api/runs", "GET, POST"),
        ("/api/runs/mine-x/cancel", "POST"),
    ],
)
async def test_a_refused_method_names_every_method_the_path_allows(
    stack: Stack, bearer: Any, path: str, allowed: str
) -> None:
    async with httpx.AsyncClient(base_url=stack.api_url or "", timeout=30) as http:
        options = await http.request("OPTIONS", path, headers=bearer())
        delete = await http.delete(path, headers=bearer())
    for answer in (options, delete):
        assert answer.status_code == 405
        assert answer.headers["allow"] == allowed
        assert answer.headers["content-type"] == "application/problem+json"
