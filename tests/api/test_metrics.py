"""/readyz checks what a run needs; /metrics speaks Prometheus text, open like /healthz."""

from __future__ import annotations

from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families

from kminer.stack import Stack
from tests.support.runs import wait_for_review


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def test_readyz_and_metrics_after_a_run(stack: Stack, bearer: Any) -> None:
    async with httpx.AsyncClient(base_url=stack.api_url or "", timeout=60) as http:
        ready = await http.get("/readyz")
        assert ready.status_code == 200
        supervised = {name: "ok" for name in stack.supervision.states}  # the stack's worker
        assert supervised and ready.json() == {
            "status": "ok", "temporal": "ok", "database": "ok", "dkg": "ok", **supervised,
        }  # fmt: skip
        started = await http.post(
            "/api/runs",
            json={"query": "Who supplies CATL?", "domainTags": ["supply_chain"]},
            headers=bearer("miner", "ana"),
        )
        handle = stack.client.get_workflow_handle(started.json()["runId"])
        await wait_for_review(handle)  # discovery has searched by then
        await handle.cancel()
        text = (await http.get("/metrics")).text
    found = samples(text)
    assert found[("kminer_api_runs_started_total", ())] >= 1
    assert found[("kminer_tool_calls_total", (("outcome", "ok"), ("tool", "web_search")))] >= 1
    latency = ("kminer_tool_latency_ms_count", (("tool", "web_search"),))
    assert found[latency] >= 1
    assert any(name == "kminer_runs" for name, _ in found)


async def test_a_finished_run_reports_its_phase_durations_and_model_use(
    stack: Stack, bearer: Any
) -> None:
    async with httpx.AsyncClient(base_url=stack.api_url or "", timeout=60) as http:
        before = samples((await http.get("/metrics")).text)
        started = await http.post(
            "/api/runs",
            json={"query": "Who supplies CATL?", "domainTags": ["supply_chain"], "review": "auto"},
            headers=bearer("miner", "ana"),
        )
        await stack.client.get_workflow_handle(started.json()["runId"]).result()
        after = samples((await http.get("/metrics")).text)

    def grew(name: str, labels: dict[str, str]) -> float:
        key = (name, tuple(sorted(labels.items())))
        return after.get(key, 0.0) - before.get(key, 0.0)

    for phase in ("PLANNING", "DISCOVERY", "ENRICHMENT", "VALIDATION", "PUBLISHING"):
        assert grew("kminer_phase_duration_seconds_count", {"phase": phase}) == 1, phase
    assert grew("kminer_phase_duration_seconds_sum", {"phase": "DISCOVERY"}) > 0
    assert grew("kminer_phase_duration_seconds_count", {"phase": "COMPLETED"}) == 0
    assert grew("kminer_runs_ended_total", {"outcome": "completed"}) == 1
    assert grew("kminer_model_calls_total", {"model": "rules"}) >= 3
    assert grew("kminer_model_tokens_total", {"model": "rules", "kind": "input"}) > 0
