"""Settings from the environment, in one place."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

TASK_QUEUE = "knowledge-miner"
PACKAGE_ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Settings:
    data_dir: Path
    database_url: str
    temporal_address: str | None
    temporal_namespace: str = "default"
    task_queue: str = TASK_QUEUE
    model_name: str = "rules"
    openai_base_url: str | None = None
    tavily_api_key: str | None = None
    tavily_base_url: str | None = None
    dkg_node_url: str | None = None
    seed_dir: Path = field(default_factory=lambda: PACKAGE_ROOT / "storage" / "seed")
    corpus_dir: Path = field(default_factory=lambda: PACKAGE_ROOT / "storage" / "corpus")

    @property
    def dkg_dir(self) -> Path:
        return self.data_dir / "dkg"

    @property
    def stack_file(self) -> Path:
        """Where a running `kminer up` records its addresses for other commands."""
        return self.data_dir / "stack.json"

    @property
    def uses_llm(self) -> bool:
        return self.model_name != "rules"


def load_settings(data_dir: str | Path | None = None) -> Settings:
    root = Path(data_dir or os.environ.get("KM_DATA_DIR") or ".kminer").resolve()
    # An OpenAI key switches the policy to a real model; without one the
    # deterministic rules policy drives the same tools.
    model = "rules"
    if os.environ.get("OPENAI_API_KEY"):
        model = os.environ.get("DEEPAGENTS_MODEL") or "gpt-4o-mini"
    return Settings(
        data_dir=root,
        database_url=os.environ.get("DATABASE_URL") or f"sqlite:///{root / 'kminer.db'}",
        temporal_address=os.environ.get("TEMPORAL_ADDRESS") or None,
        temporal_namespace=os.environ.get("TEMPORAL_NAMESPACE") or "default",
        task_queue=os.environ.get("KM_TASK_QUEUE") or TASK_QUEUE,
        model_name=model,
        openai_base_url=os.environ.get("OPENAI_BASE_URL") or None,
        tavily_api_key=os.environ.get("TAVILY_API_KEY") or None,
        tavily_base_url=os.environ.get("TAVILY_BASE_URL") or None,
        dkg_node_url=os.environ.get("DKG_NODE_URL") or None,
    )
