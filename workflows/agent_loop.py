"""What one agent loop of a subagent is built from, and how it ended (workflows/subagents.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class AgentParts:
    """What a subagent's graph is built from besides its model."""

    prompt: str
    tools: list[str]
    subagents: Callable[[], list[dict[str, Any]]] | None = None


@dataclass
class LoopEnd:
    """How one agent loop ended: its messages, and what stopped it short."""

    messages: list[Any]
    stopped: str | None = None  # the budget that stopped it
    failure: str | None = None  # why its model failed for good
    error: BaseException | None = None  # that failure, as raised
