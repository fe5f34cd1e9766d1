"""The worker-side model provider: only a model *name* crosses into the workflow."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from workflows.agents.policy import RulesPolicyModel

RULES = "rules"
TEMPERATURE = 0.2


def build_model_provider(base_url: str | None = None) -> Callable[[str], Any]:
    def provide(name: str) -> Any:
        if name == RULES:
            return RulesPolicyModel()
        from activities.chat_model import ToolCallingChatOpenAI

        # Temporal owns retries: the client must not retry on its own. A tool call the
        # model writes as text is taken or refused there (activities/chat_model.py).
        return ToolCallingChatOpenAI(
            model=name, temperature=TEMPERATURE, max_retries=0, base_url=base_url
        )

    return provide
