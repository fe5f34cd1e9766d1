"""With a real model, the research plan comes from the model (seed 004's planning agent).

The model answers with a JSON plan validated against seed 004's `ResearchQuestion`
fields; an invalid answer gets one repair turn naming what was wrong; a second invalid
answer (or a budget stop) leaves the caller to use the deterministic plan. The model
call is the plugin's `TemporalModel` (as `ClockedModel`, whose result moves the run's
clock on), so it is a `deepagents.invoke_model` activity,
counted in the run's usage and checked against its budget like every agent's call.
The question itself is always sub-question 1 (searched at discovery's breadth), so a
model's plan never reads less than one search would have.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, Field, ValidationError
from temporalio import workflow

from contracts.model_calls import ModelLimits
from contracts.research import NodeType, PlanResult, ResearchQuestion
from workflows.budget import BudgetExceeded
from workflows.degradation import model_failure
from workflows.local_model import ClockedModel
from workflows.model_limits import on_queue, planner_options
from workflows.patches import DEGRADE_PATCH, patched

with workflow.unsafe.imports_passed_through():
    from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

PLANNER_ROLE = "research-planner"
PLANNER = """You are the research-planner subagent of Knowledge Miner.
Break the user's question into at most {limit} sub-questions that together answer it,
each investigated by one node type:
- "document_search": passages of the indexed documents or the web;
- "web_search": the web;
- "dkg_sparql": what the OriginTrail DKG already holds about the named entities;
- "memory_search": what earlier runs noted for these domain tags.
Give each its search keywords and an execution_priority (1 runs first; a sub-question
that builds on others gets a higher number). Respond with ONLY a JSON object:
{{"plan": "<two sentences>", "questions": [{{"question": "...", "keywords": ["..."],
"node_type": "document_search", "execution_priority": 1}}]}}"""


class PlannedQuestion(BaseModel):
    question: str = Field(min_length=3, max_length=500)
    keywords: list[str] = Field(default_factory=list, max_length=12)
    node_type: NodeType
    execution_priority: int = Field(default=1, ge=1, le=5)


class ModelPlan(BaseModel):
    plan: str = ""
    questions: list[PlannedQuestion] = Field(min_length=1, max_length=10)


def parse_plan(text: str, limit: int) -> ModelPlan:
    """The model's answer as a plan, or ValueError saying what is wrong with it."""
    body = text.strip()
    if body.startswith("```"):
        body = body.strip("`").removeprefix("json").strip()
    try:
        raw = json.loads(body)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON ({exc.msg} at character {exc.pos})") from None
    try:
        plan = ModelPlan.model_validate(raw)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()[:5]
        )
        raise ValueError(problems) from None
    if len(plan.questions) > limit:
        raise ValueError(f"{len(plan.questions)} sub-questions, at most {limit} allowed")
    return plan


def as_plan(
    query: str, plan: ModelPlan, limit: int, primary: int, per_question: int, search: str
) -> PlanResult:
    """The question first, then the model's sub-questions (each once), renumbered."""
    own: NodeType = "document_search" if search == "local-corpus" else "web_search"
    rows: list[dict[str, Any]] = [
        {"question": query, "keywords": [], "node_type": own,
         "node_config": {"maxResults": primary}, "execution_priority": 1},
    ]  # fmt: skip
    seen = {query.strip().lower()}
    for q in sorted(plan.questions, key=lambda q: q.execution_priority):
        if q.question.strip().lower() in seen:
            continue
        seen.add(q.question.strip().lower())
        config = {"maxResults": per_question} if q.node_type.endswith("_search") else {}
        rows.append({**q.model_dump(), "node_config": config,
                     "execution_priority": q.execution_priority + 1})  # fmt: skip
    questions = [ResearchQuestion(id=i, **r) for i, r in enumerate(rows[:limit], start=1)]
    lines = [f"Research plan for: {query} (by the model)", plan.plan]
    lines += [f"{q.id}. [p{q.execution_priority} {q.node_type}] {q.question}" for q in questions]
    return PlanResult(plan="\n".join(line for line in lines if line), questions=questions)


async def model_plan(
    model: str,
    query: str,
    tags: list[str],
    limit: int,
    callbacks: list[Any],
    model_queue: str | None = None,
    limits: ModelLimits | None = None,
) -> tuple[ModelPlan | None, list[str], str | None]:
    """(the model's valid plan or None, what went wrong on the way, why the model failed
    for good when it did); `model_queue`: where the model calls run (None: the run's own
    queue), `limits`: their timeouts and attempts (workflows/model_limits.py)."""
    chat = ClockedModel(
        model=model, activity_options=on_queue(planner_options(limits), model_queue)
    )
    messages: list[Any] = [
        SystemMessage(PLANNER.format(limit=limit)),
        HumanMessage(json.dumps({"query": query, "domainTags": tags})),
    ]
    problems: list[str] = []
    config = {"callbacks": callbacks}
    for _attempt in range(2):  # the answer, and one repair
        try:
            reply = await chat.ainvoke(messages, config=config)
        except BudgetExceeded as exc:
            problems.append(f"planning stopped: {exc}")
            return None, problems, None
        except Exception as exc:
            # A failing model degrades planning to the rules plan (workflows/degradation.py).
            failure = model_failure(exc)
            if failure is None or not patched(DEGRADE_PATCH):
                raise
            problems.append(f"planning degraded: {failure}")
            return None, problems, failure
        text = reply.content if isinstance(reply.content, str) else json.dumps(reply.content)
        try:
            return parse_plan(text, limit), problems, None
        except ValueError as exc:
            problems.append(f"invalid plan: {exc}")
            messages += [
                AIMessage(text),
                HumanMessage(
                    f"That plan is not valid: {exc}. Reply with only the JSON object, "
                    f"at most {limit} sub-questions."
                ),
            ]
    return None, problems, None
