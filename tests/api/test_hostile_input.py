"""Bad input gets a 4xx naming the limit and never takes the service down."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from api.limits import MAX_JSON_DEPTH, json_depth
from kminer.stack import Stack
from mining.jsonld import MAX_DEPTH
from mining.jsonld import nesting_depth as jsonld_depth
from storage.dkg.sparql_guard import MAX_QUERY_DEPTH, nesting_depth, strip_ignorable
from tests.support.runs import start_reviewed_run


def nested_query(depth: int) -> str:
    return "SELECT * WHERE " + "{ OPTIONAL " * depth + "{ ?s ?p ?o }" + " }" * depth


def nested_asset_json(depth: int) -> str:
    """The same asset as JSON text, built without recursion (json.dumps would overflow)."""
    head = '{"@context": "https://schema.org/", "@type": "Claim", "name": "x"'
    return head + ', "about": {"@type": "Thing"' * (depth - 1) + "}" * depth


def nested_asset(depth: int) -> dict[str, Any]:
    asset: dict[str, Any] = {"@context": "https://schema.org/", "@type": "Claim", "name": "x"}
    node = asset
    for _ in range(depth - 1):
        node["about"] = {"@type": "Thing"}
        node = node["about"]
    return asset


async def healthy(http: httpx.AsyncClient) -> None:
    assert (await http.get("/healthz")).status_code == 200


@pytest.mark.parametrize("depth", [MAX_QUERY_DEPTH + 1, 5_000, 100_000])
async def test_deeply_nested_sparql_is_refused_before_parsing(
    stack: Stack, bearer: Any, depth: int
) -> None:
    async with httpx.AsyncClient(
        base_url=stack.api_url or "", headers=bearer(), timeout=30
    ) as http:
        answer = await http.post("/api/dkg/sparql", json={"query": nested_query(depth)})
        assert answer.status_code in (400, 413), answer.text
        detail = answer.json()["detail"]
        limits = ("at most 100 allowed", "at most 50,000 allowed", "at most 1,048,576 bytes")
        assert any(limit in detail for limit in limits), detail
        await healthy(http)
        ok = await http.post("/api/dkg/sparql", json={"query": nested_query(50)})
        assert ok.status_code == 200


async def test_a_50_mb_body_is_413(stack: Stack, bearer: Any) -> None:
    async with httpx.AsyncClient(
        base_url=stack.api_url or "", headers=bearer(), timeout=60
    ) as http:
        big = json.dumps({"query": "x" * (50 * 1024 * 1024)})
        answer = await http.post(
            "/api/runs", content=big, headers={"content-type": "application/json"}
        )
        assert answer.status_code == 413
        assert "at most 1,048,576 bytes allowed" in answer.json()["detail"]
        await healthy(http)


@pytest.mark.parametrize("depth", [500, 10_000])
async def test_deeply_nested_edits_are_refused_and_the_run_waits(
    stack: Stack, bearer: Any, settings: Any, depth: int
) -> None:
    handle, ws = await start_reviewed_run(stack, settings.task_queue)
    first = ws.candidates[0].id
    body = f'[{{"candidateId": "{first}", "action": "edit", "asset": {nested_asset_json(depth)}}}]'
    async with httpx.AsyncClient(
        base_url=stack.api_url or "", headers=bearer(), timeout=30
    ) as http:
        answer = await http.post(
            f"/api/runs/{handle.id}/decisions",
            content=body,
            headers={"content-type": "application/json"},
        )
        assert 400 <= answer.status_code < 500, answer.text
        assert f"at most {MAX_JSON_DEPTH} allowed" in answer.text or (
            f"at most {MAX_DEPTH} allowed" in answer.text
        )
        await healthy(http)
        after = (await http.get(f"/api/runs/{handle.id}")).json()
    assert after["phase"] == "REVIEW"
    assert sorted(after["pendingApprovals"]) == sorted(ws.pendingApprovals)
    await handle.cancel()


def test_an_asset_just_past_the_depth_limit_is_invalid() -> None:
    from mining.jsonld import jsonld_problem

    assert json.loads(nested_asset_json(5)) == nested_asset(5)
    assert jsonld_problem(nested_asset(MAX_DEPTH)) is None
    assert jsonld_problem(nested_asset(MAX_DEPTH + 1)) == (
        f"asset nests {MAX_DEPTH + 1} levels deep: at most {MAX_DEPTH} allowed"
    )
    assert jsonld_depth([[[]]]) == 3 and jsonld_depth("x") == 0


def test_depth_scanners_ignore_brackets_in_strings() -> None:
    assert json_depth(b'{"a": "{{{[[[", "b": [1, {"c": "\\"]"}]}') == 3
    assert nesting_depth('SELECT * WHERE { ?s ?p "{{{" . ?s <http://x/y> ?o # {{\n }') == 1
    assert strip_ignorable("ASK { ?s ?p 'it''s' }").startswith("ASK {")


def test_stripping_blanks_each_comment_string_and_iri_and_keeps_the_rest() -> None:
    query = (
        "SELECT ?s # c {\nWHERE { ?s <http://x/a> 'x{' . "
        'FILTER(?v < 3 && ?w <?z) """a\nb""" }'
    )
    assert strip_ignorable(query) == "SELECT ?s  \nWHERE { ?s     . FILTER(?v < 3 && ?w <?z)   }"
