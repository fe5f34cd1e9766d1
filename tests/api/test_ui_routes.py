"""The chat UI's routes: the page and its files are served without a token, the
Cytoscape.js that `make install` put in place is served, and none of it enters the
OpenAPI schema; a run's research files are readable through the API."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from api.routes.ui import sign_in_link
from contracts.run import Phase
from kminer.stack import Stack


def test_the_sign_in_link_carries_the_token_in_the_fragment() -> None:
    assert sign_in_link("http://127.0.0.1:8000/", "abc.def.ghi") == (
        "http://127.0.0.1:8000/#token=abc.def.ghi"
    )


async def test_the_page_and_its_files_need_no_token_and_stay_out_of_openapi(
    stack: Stack,
) -> None:
    async with httpx.AsyncClient(base_url=stack.api_url or "") as http:
        page = await http.get("/")
        script = await http.get("/ui/static/app.js")
        graph = await http.get("/ui/vendor/cytoscape/cytoscape.min.js")
        missing = await http.get("/ui/static/nothing.js")
        schema = (await http.get("/openapi.json")).json()
        api = await http.get("/api/runs")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert '<script type="module" src="/ui/static/app.js">' in page.text
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert graph.status_code == 200 and "cytoscape" in graph.text[:2000].lower()
    assert missing.status_code == 404
    assert not [p for p in schema["paths"] if p == "/" or p.startswith("/ui")]
    assert api.status_code == 401, "the API itself still needs a token"


async def test_a_research_file_is_readable_by_path(stack: Stack, bearer: Any) -> None:
    async with httpx.AsyncClient(
        base_url=stack.api_url or "", headers=bearer(), timeout=30
    ) as http:
        run = (
            await http.post("/api/runs", json={"query": "lithium suppliers", "review": "required"})
        ).json()
        for _ in range(300):
            ws = (await http.get(f"/api/runs/{run['runId']}")).json()
            if ws["phase"] == Phase.REVIEW:
                break
            await asyncio.sleep(0.2)
        assert ws["filesystemFiles"], ws["phase"]
        listed = ws["filesystemFiles"][0]
        found = await http.get(f"/api/runs/{run['runId']}/files", params={"path": listed["path"]})
        unknown = await http.get(f"/api/runs/{run['runId']}/files", params={"path": "/nope.md"})
        no_run = await http.get("/api/runs/mine-none/files", params={"path": listed["path"]})
        await http.post(f"/api/runs/{run['runId']}/cancel")
    assert found.status_code == 200, found.text
    assert found.json()["path"] == listed["path"] and found.json()["size"] == listed["size"]
    assert found.json()["content"]
    assert unknown.status_code == 404 and "/nope.md" in unknown.json()["detail"]
    assert no_run.status_code == 404
