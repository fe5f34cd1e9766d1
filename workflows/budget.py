"""Budgets an LLM cannot overrun: model calls, tokens and wall time, per run and per subagent.

Enforced in workflow code, before every model call of an agent tree: `BudgetGuard` is a
LangChain callback with `raise_error`, so a call past a limit raises `BudgetExceeded`
before its activity is scheduled. Callbacks reach the helpers a subagent spawns with
`task` too (they run inside the subagent's tree), so a helper cannot loop past the
budget of the subagent that spawned it. The runner catches the error and goes on with
what the subagent had gathered (partial results, with a note).

Cost is an estimate from `PRICES_PER_MILLION` (USD per million input / output tokens,
OpenAI list prices as of 2026-11 for the models this service names); a model missing
from the table has no estimate (`costUsd` stays None). The rules policy costs nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from temporalio import workflow

from contracts.budget import Budget, Limits
from contracts.run import Usage
from workflows.usage import count_model_call

with workflow.unsafe.imports_passed_through():
    from langchain_core.callbacks import AsyncCallbackHandler

PRICES_PER_MILLION: dict[str, tuple[float, float]] = {
    "rules": (0.0, 0.0),
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4o": (2.50, 10.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-nano": (0.10, 0.40),
}


def cost_usd(model: str, usage: Usage) -> float | None:
    price = PRICES_PER_MILLION.get(model)
    if price is None:
        return None
    cost = usage.inputTokens * price[0] / 1e6 + usage.outputTokens * price[1] / 1e6
    return round(cost, 6)


class BudgetExceeded(Exception):
    """A model call past a limit: the subagent stops there."""


def _over(scope: str, limits: Limits, usage: Usage, began: datetime) -> str | None:
    tokens = usage.inputTokens + usage.outputTokens
    if limits.modelCalls is not None and usage.modelCalls >= limits.modelCalls:
        return f"{scope} budget of {limits.modelCalls} model calls reached"
    if limits.tokens is not None and tokens >= limits.tokens:
        return f"{scope} budget of {limits.tokens} tokens reached ({tokens} used)"
    elapsed = (workflow.now() - began).total_seconds()
    if limits.seconds is not None and elapsed >= limits.seconds:
        return f"{scope} budget of {limits.seconds} s wall time reached"
    return None


class BudgetGuard(AsyncCallbackHandler):
    """Checks the budgets before each model call of one subagent's tree; counts its usage."""

    raise_error = True

    def __init__(
        self, budget: Budget, role: str, run: Usage, run_began: datetime, mine: Usage
    ) -> None:
        self.budget = budget
        self.role = role
        self.run = run
        self.run_began = run_began
        self.mine = mine
        self.began = workflow.now()

    def check(self) -> None:
        reason = _over("run", self.budget.run, self.run, self.run_began) or _over(
            f"{self.role} subagent", self.budget.subagent, self.mine, self.began
        )
        if reason:
            raise BudgetExceeded(reason)

    async def on_chat_model_start(self, serialized: Any, messages: Any, **kw: Any) -> None:
        self.check()

    async def on_llm_start(self, serialized: Any, prompts: Any, **kw: Any) -> None:
        self.check()

    async def on_llm_end(self, response: Any, **kwargs: Any) -> None:
        count_model_call(self.mine, response)

    async def on_tool_end(self, output: Any, **kwargs: Any) -> None:
        self.mine.toolCalls += 1
