"""A long run stays inside issue 12's budget: history under 1 MB at maxIterations 10, at
most 15 worker-dispatched activities, and the rules policy deciding in the workflow (no
model activity at all, workflows/local_model.py). Candidates travel by reference
(workflows/candidate_refs.py); what a provider model is sent is checked in
tests/workflows/test_llm_mining.py."""

from __future__ import annotations

import json
from collections import Counter

from temporalio.api.enums.v1 import EventType

from contracts.run import MiningRequest, Phase
from kminer.config import Settings
from kminer.stack import Stack
from temporal_client.runs import start_run
from tests.support.runs import QUESTION, executed, local_activity_type
from workflows.candidate_refs import CANDIDATES_FILE
from workflows.mining import MiningWorkflow

HISTORY_LIMIT_BYTES = 1_000_000
DISPATCHED_LIMIT = 15
MODEL_CALL = "deepagents.invoke_model"


async def test_a_long_run_keeps_history_small_and_round_trips_few(
    stack: Stack, settings: Settings
) -> None:
    request = MiningRequest(
        query=QUESTION,
        domainTags=["supply_chain", "general_risk"],
        maxIterations=10,
        review="auto",
    )
    handle = await start_run(stack.client, settings.task_queue, request)
    result = await handle.result()
    assert result.phase == Phase.COMPLETED
    assert len(result.candidateAssets) >= 10, "a long run proposes many candidates"

    size = 0
    dispatched: Counter[str] = Counter()
    local: Counter[str] = Counter()
    async for event in handle.fetch_history_events():
        size += event.ByteSize()
        if event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
            dispatched[event.activity_task_scheduled_event_attributes.activity_type.name] += 1
        elif (name := local_activity_type(event)) is not None:
            local[name] += 1

    assert size < HISTORY_LIMIT_BYTES, size
    assert sum(dispatched.values()) <= DISPATCHED_LIMIT, dispatched
    assert not local[MODEL_CALL] and not dispatched[MODEL_CALL], "the policy decides in place"
    assert result.usage.modelCalls >= 6, "its calls are still the agents' model calls"
    # The cheap tools ran beside the workflow: the resolver's lookups and the scoring.
    assert local["dkg_find_related_assets"] >= 1 and local["score_candidates"] == 1, local

    # The reference resolves: the file holds every candidate's full JSON-LD, and the
    # agent's one score call (by reference) scored them all, so the workflow trusted it.
    assets = json.loads(await handle.query(MiningWorkflow.research_file, CANDIDATES_FILE))
    assert sorted(a["identifier"] for a in assets) == sorted(
        a["identifier"] for a in result.candidateAssets
    )
    assert all("discoveredAt" in a["provenance"] for a in assets)
    assert all("trustSignals" in a for a in result.candidateAssets)
    assert await executed(handle, "score_candidates") == 1
    # The report has its summary and a line for every candidate, however many there are
    # (the score rows a capped tool response keeps are no limit on it).
    report = result.synthesizedReport.splitlines()
    assert report[0].startswith(f"Validated {len(result.candidateAssets)} candidates"), report[0]
    listed = {line.split(":", 1)[0].removeprefix("- ") for line in report if line.startswith("- ")}
    assert listed == {a["candidateId"] for a in result.candidateAssets}
