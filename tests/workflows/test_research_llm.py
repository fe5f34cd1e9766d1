"""With a real model the research plan is the model's: validated, one repair, else rules.

The chat model is a replayed OpenAI API (tests/support/fake_openai.py's ChatModel answers the
agents); the research planner's answers are scripted here.
"""

from __future__ import annotations

import json
from typing import Any

from contracts.research import ResearchTaskStatus
from contracts.run import MiningRequest, Phase, Workspace
from kminer.config import Settings
from kminer.stack import embedded_stack
from temporal_client.runs import start_run
from tests.support.fake_openai import ChatModel, ServeFakeOpenAi, llm_settings, text
from workflows.mining import MiningWorkflow

QUESTION = "Which suppliers of lithium carry geopolitical risk?"
GOOD_PLAN = {
    "plan": "Find who supplies lithium, then what the DKG holds about the largest.",
    "questions": [
        {"question": "Which companies supply lithium?", "keywords": ["lithium", "supplier"],
         "node_type": "document_search", "execution_priority": 1},
        {"question": "What does the DKG hold about Ganfeng Lithium?",
         "keywords": ["Ganfeng Lithium"], "node_type": "dkg_sparql", "execution_priority": 2},
    ],
}  # fmt: skip
BAD_TYPE = {"plan": "x", "questions": [{"question": "Ask the oracle", "node_type": "telepathy"}]}


class PlanningModel(ChatModel):
    def __init__(self) -> None:
        super().__init__()
        self.plans: list[str] = []
        self.planner: list[dict[str, Any]] = []

    def answer(self, method: str, path: str, body: Any, headers: dict[str, str]) -> Any:
        if "You are the research-planner subagent" in text(body["messages"][0]["content"]):
            self.planner.append(body)
            return 200, self.reply(self.plans.pop(0) if self.plans else "no plan")
        return super().answer(method, path, body, headers)


async def run(settings: Settings, url: str) -> Workspace:
    llm = llm_settings(settings, url)
    async with embedded_stack(llm, with_api=False) as stack:
        handle = await start_run(
            stack.client, llm.task_queue,
            MiningRequest(query=QUESTION, domainTags=["supply_chain"], review="auto"),
        )  # fmt: skip
        result = await handle.result()
        assert result.phase == Phase.COMPLETED
        return await handle.query(MiningWorkflow.workspace)


async def test_an_invalid_plan_is_repaired_once_and_the_models_plan_runs(
    settings: Settings, fake_openai: ServeFakeOpenAi
) -> None:
    model = PlanningModel()
    url = fake_openai(model)
    model.plans = ["Sure! First I would look for suppliers, then...", json.dumps(GOOD_PLAN)]
    ws = await run(settings, url)

    assert len(model.planner) == 2, "one answer and one repair"
    repair = text(model.planner[1]["messages"][-1]["content"])
    assert "not valid" in repair and "not JSON" in repair
    task = ws.research
    assert task is not None and task.status == ResearchTaskStatus.COMPLETED
    assert "(by the model)" in task.plan
    asked = [(s.question.question, s.question.node_type, s.question.execution_priority)
             for s in task.subtasks]  # fmt: skip
    assert asked == [
        (QUESTION, "document_search", 1),
        ("Which companies supply lithium?", "document_search", 2),
        ("What does the DKG hold about Ganfeng Lithium?", "dkg_sparql", 3),
    ]
    dkg = task.subtasks[2]
    assert dkg.status == ResearchTaskStatus.COMPLETED and dkg.result is not None
    assert "Ganfeng" in dkg.result.synthesized_answer and dkg.result.sources
    assert ws.usageBySubagent["research-planner"].modelCalls == 2
    assert any("research plan: invalid plan: not JSON" in e for e in ws.errors)
    assert ws.candidates, "the plan's evidence reached enrichment"


async def test_a_plan_still_invalid_after_the_repair_falls_back_to_the_rules_plan(
    settings: Settings, fake_openai: ServeFakeOpenAi
) -> None:
    model = PlanningModel()
    url = fake_openai(model)
    model.plans = [json.dumps(BAD_TYPE), json.dumps({"plan": "still", "questions": []})]
    ws = await run(settings, url)

    assert len(model.planner) == 2, "exactly one repair"
    assert "node_type" in text(model.planner[1]["messages"][-1]["content"])
    task = ws.research
    assert task is not None and task.status == ResearchTaskStatus.COMPLETED
    assert "(by the model)" not in task.plan
    assert task.subtasks[0].question.question == QUESTION and len(task.subtasks) >= 2
    assert any("no valid plan from the model" in e for e in ws.errors)
