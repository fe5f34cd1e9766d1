"""An agent reads and edits /memories/** in SQL, each operation an activity."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from temporalio.api.enums.v1 import EventType
from temporalio.client import Client
from temporalio.worker import Worker

from kminer.config import Settings
from kminer.worker import deepagents_plugin
from storage.sql.db import make_engine
from storage.sql.memory_backend import SqlMemoryBackend, note_key
from storage.sql.memory_repo import MemoryRepository
from tests.support.memory_route_workflow import MemoryRouteWorkflow

NOTE = "/memories/knowledge/supply_chain/discovery-notes.md"


class ScriptedNoteKeeper(BaseChatModel):
    """Stands in for an LLM: read the note, edit its head, try to rewrite a run's section
    and a path memory refuses, answer."""

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedNoteKeeper:
        return self

    def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kw: Any):
        step = sum(1 for m in messages if m.type == "ai")
        calls = {
            0: [{"name": "read_file", "args": {"file_path": NOTE}, "id": "r"}],
            1: [
                {
                    "name": "edit_file",
                    "id": "e",
                    "args": {
                        "file_path": NOTE,
                        "old_string": "# Discovery Notes - supply_chain",
                        "new_string": "# Discovery Notes - supply_chain\nPattern A is confirmed.",
                    },
                },
                {
                    "name": "write_file",
                    "id": "w",
                    "args": {"file_path": "/memories/secrets.txt", "content": "x"},
                },
            ],
            2: [
                {
                    "name": "edit_file",
                    "id": "s",
                    "args": {
                        "file_path": NOTE,
                        "old_string": "- pattern A",
                        "new_string": "- pattern B",
                    },
                },
            ],
        }.get(step)
        message = AIMessage(content="", tool_calls=calls) if calls else AIMessage(content="done")
        return ChatResult(generations=[ChatGeneration(message=message)])


def test_only_note_paths_are_memory() -> None:
    assert note_key("/knowledge/supply_chain/schema-notes.md") == ("supply_chain", "schema-notes")
    assert note_key("/knowledge/Supply-Chain/schema-notes.md") is None
    assert note_key("/knowledge/supply_chain/other.md") is None
    assert note_key("/secrets.txt") is None


def test_the_backend_refuses_deletes(tmp_path: Path) -> None:
    backend = SqlMemoryBackend(MemoryRepository(make_engine(f"sqlite:///{tmp_path}/m.db")))
    assert backend.delete("/knowledge/climate/schema-notes.md").error


async def _run_note_keeper(client: Client, settings: Settings, shared: bool) -> Any:
    handle = await client.start_workflow(
        MemoryRouteWorkflow.run,
        args=["scripted", shared],
        id=f"memory-{uuid.uuid4().hex[:8]}",
        task_queue=settings.task_queue,
    )
    return handle, await handle.result()


async def _backend_ops(handle: Any) -> list[dict[str, Any]]:
    """The inputs of the run's `deepagents.backend_op` activities."""
    ops = []
    async for event in handle.fetch_history_events():
        if event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
            attrs = event.activity_task_scheduled_event_attributes
            if attrs.activity_type.name == "deepagents.backend_op":
                ops.append(json.loads(attrs.input.payloads[0].data))
    return ops


def _memory_repo(tmp_path: Path) -> tuple[Any, MemoryRepository]:
    engine = make_engine(f"sqlite:///{tmp_path / 'memory.db'}")
    repo = MemoryRepository(engine)
    repo.append(
        run_id="earlier",
        step="discovery",
        tag="supply_chain",
        name="discovery-notes",
        lines=["pattern A"],
    )
    return engine, repo


async def _note_keeper_client(settings: Settings, tmp_path: Path) -> tuple[Any, Client]:
    """The seeded memory repository, and a client whose plugin scripts the note keeper."""
    engine, repo = _memory_repo(tmp_path)
    provider = lambda name: ScriptedNoteKeeper()  # noqa: E731
    plugin = deepagents_plugin(settings, engine, model_provider=provider)
    return repo, await Client.connect(settings.temporal_address or "", plugins=[plugin])


async def test_an_agent_reads_and_edits_memory_through_activities(
    settings: Settings, tmp_path: Path
) -> None:
    repo, client = await _note_keeper_client(settings, tmp_path)
    async with Worker(client, task_queue=settings.task_queue, workflows=[MemoryRouteWorkflow]):
        handle, messages = await _run_note_keeper(client, settings, shared=False)

    read = next(m for m in messages if m["name"] == "read_file")
    assert "- pattern A" in read["content"]
    refused = next(m for m in messages if m["name"] == "write_file")
    assert "long-term memory only holds" in refused["content"]
    kept = [m["content"] for m in messages if m["name"] == "edit_file"]
    assert any("run sections stay as runs wrote them" in answer for answer in kept), kept
    note = repo.read("supply_chain", "discovery-notes")
    assert note is not None
    assert note.content == (
        "# Discovery Notes - supply_chain\nPattern A is confirmed.\n"
        "\n## Run earlier (discovery)\n- pattern A\n"
    ), "the head edited, the run's section as the run wrote it"
    assert note.version == 1 and note.updated_by_run == handle.id
    assert len(await _backend_ops(handle)) >= 2, "the read and the edit ran as activities"


async def test_runs_sharing_a_graph_each_reach_their_own_memory(
    settings: Settings, tmp_path: Path
) -> None:
    repo, client = await _note_keeper_client(settings, tmp_path)
    async with Worker(client, task_queue=settings.task_queue, workflows=[MemoryRouteWorkflow]):
        first, _ = await _run_note_keeper(client, settings, shared=True)
        note = repo.read("supply_chain", "discovery-notes")
        assert note is not None and note.version == 1 and note.updated_by_run == first.id
        second, messages = await _run_note_keeper(client, settings, shared=True)

    refused = next(m for m in messages if m["name"] == "write_file")
    assert "long-term memory only holds" in refused["content"]
    note = repo.read("supply_chain", "discovery-notes")
    assert note is not None and note.version == 2 and note.updated_by_run == second.id
    for handle in (first, second):
        ops = await _backend_ops(handle)
        assert len(ops) >= 2, "the read and the edit ran as activities"
        assert {op["factory_argument"]["runId"] for op in ops} == {handle.id}
        # One backend a run, as when each run built its graph: one ref in its inputs.
        assert len({op["backend_ref"] for op in ops}) == 1


def test_a_run_edits_only_the_notes_of_its_tags(tmp_path: Path) -> None:
    repo = MemoryRepository(make_engine(f"sqlite:///{tmp_path}/m.db"))
    backend = SqlMemoryBackend(repo, "run-1", ["supply_chain"])
    refused = backend.write("/knowledge/climate/schema-notes.md", "# not mine")
    assert refused.error and "only the notes of its tags: supply_chain" in refused.error
    assert backend.write("/knowledge/supply_chain/schema-notes.md", "# mine").error is None
