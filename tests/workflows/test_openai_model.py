"""The LLM path: ChatOpenAI through the plugin's model activity, against a replayed API."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

from temporalio.client import Client
from temporalio.worker import Worker

from kminer.config import Settings
from kminer.model_provider import build_model_provider
from kminer.worker import deepagents_plugin
from storage.sql.db import make_engine
from storage.sql.memory_repo import MemoryRepository
from tests.support.fake_openai import FIXTURES, ServeFakeOpenAi
from tests.support.memory_route_workflow import MemoryRouteWorkflow


class ChatCompletions:
    """Answers the first turn with a recorded tool call, the next with a recorded answer."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []

    def answer(self, method: str, path: str, body: Any, headers: dict[str, str]) -> Any:
        self.requests.append({"path": path, "body": body})
        answered = any(m.get("role") == "tool" for m in body.get("messages", []))
        return 200, json.loads(
            (FIXTURES / ("final.json" if answered else "tool_call.json")).read_text()
        )


async def test_an_openai_model_drives_an_agent_through_activities(
    settings: Settings, fake_openai: ServeFakeOpenAi, tmp_path: Path
) -> None:
    recorded = ChatCompletions()
    openai_url = fake_openai(recorded)
    engine = make_engine(f"sqlite:///{tmp_path / 'memory.db'}")
    MemoryRepository(engine).append(
        run_id="earlier",
        step="discovery",
        tag="supply_chain",
        name="discovery-notes",
        lines=["pattern A"],
    )
    plugin = deepagents_plugin(settings, engine, model_provider=build_model_provider(openai_url))
    client = await Client.connect(settings.temporal_address or "", plugins=[plugin])
    async with Worker(client, task_queue=settings.task_queue, workflows=[MemoryRouteWorkflow]):
        messages = await client.execute_workflow(
            MemoryRouteWorkflow.run,
            "gpt-4o-mini",
            id=f"llm-{uuid.uuid4().hex[:8]}",
            task_queue=settings.task_queue,
        )

    first, second = recorded.requests
    assert first["path"] == "/v1/chat/completions"
    assert first["body"]["model"] == "gpt-4o-mini" and first["body"]["temperature"] == 0.2
    assert "read_file" in {t["function"]["name"] for t in first["body"]["tools"]}
    tool_turn = next(m for m in second["body"]["messages"] if m["role"] == "tool")
    assert "- pattern A" in tool_turn["content"], "the memory note reached the model"
    assert json.loads(messages[-1]["content"])["notes"] == ["pattern A still holds"]
