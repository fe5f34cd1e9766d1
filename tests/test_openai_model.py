"""The LLM path: ChatOpenAI through the plugin's model activity, against a replayed API."""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest
from temporalio.client import Client
from temporalio.worker import Worker

from activities.agents.models import build_model_provider
from kminer.config import Settings
from kminer.worker import deepagents_plugin
from storage.db import make_engine
from storage.memory_repo import MemoryRepository
from tests.memory_route_workflow import MemoryRouteWorkflow

FIXTURES = Path(__file__).parent / "fixtures/openai"


class ChatCompletions(BaseHTTPRequestHandler):
    """Answers the first turn with a recorded tool call, the next with a recorded answer."""

    requests: list[dict[str, Any]] = []

    def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        ChatCompletions.requests.append({"path": self.path, "body": body})
        answered = any(m.get("role") == "tool" for m in body.get("messages", []))
        data = (FIXTURES / ("final.json" if answered else "tool_call.json")).read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def openai_url(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    server = HTTPServer(("127.0.0.1", 0), ChatCompletions)
    ChatCompletions.requests = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


async def test_an_openai_model_drives_an_agent_through_activities(
    settings: Settings, openai_url: str, tmp_path: Path
) -> None:
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

    first, second = ChatCompletions.requests
    assert first["path"] == "/v1/chat/completions"
    assert first["body"]["model"] == "gpt-4o-mini" and first["body"]["temperature"] == 0.2
    assert "read_file" in {t["function"]["name"] for t in first["body"]["tools"]}
    tool_turn = next(m for m in second["body"]["messages"] if m["role"] == "tool")
    assert "- pattern A" in tool_turn["content"], "the memory note reached the model"
    assert json.loads(messages[-1]["content"])["notes"] == ["pattern A still holds"]
