"""Tool-call schemas are built once and shared across runs, with the counts unchanged."""

from __future__ import annotations

from deepagents.backends import StateBackend
from deepagents.middleware.filesystem import FilesystemMiddleware
from langchain_core.messages import HumanMessage
from langchain_core.messages.utils import count_tokens_approximately

from contracts.run import MiningRequest, Phase
from contracts.tools import VALIDATION_TOOLS
from kminer.config import Settings
from kminer.stack import embedded_stack
from temporal_client.runs import start_run
from workflows import tool_schemas
from workflows.agent_tools import activity_tools


def built_tools() -> list:
    """What one agent of a run gets: its file tools and our activity tools, new instances."""
    return FilesystemMiddleware(backend=StateBackend()).tools + activity_tools(VALIDATION_TOOLS)


def test_the_count_is_langchains_and_later_tools_reuse_the_first_schemas() -> None:
    messages = [HumanMessage("Which suppliers of lithium carry geopolitical risk?")]
    first, later = built_tools(), built_tools()
    assert tool_schemas.count_tokens(messages, tools=first) == count_tokens_approximately(
        messages, tools=built_tools()
    )
    assert tool_schemas.count_tokens(messages, tools=later) == count_tokens_approximately(
        messages, tools=first
    )
    assert all(a.tool_call_schema is b.tool_call_schema for a, b in zip(first, later, strict=True))


async def test_a_run_counts_tokens_with_the_shared_schemas(settings: Settings) -> None:
    tool_schemas._shared.clear()
    async with embedded_stack(settings, with_api=False) as stack:
        request = MiningRequest(query="Which suppliers of lithium carry geopolitical risk?",
                                domainTags=["supply_chain"], review="auto")  # fmt: skip
        handle = await start_run(stack.client, settings.task_queue, request)
        assert (await handle.result()).phase == Phase.COMPLETED
    # The summarization of every agent counted through the shared table: our activity tools,
    # Deep Agents' file tools and the todo and task tools all built their schema there.
    names = {name for _, name, _, _ in tool_schemas._shared}
    assert {"dkg_sparql", "score_candidates", "read_file", "write_todos", "task"} <= names
