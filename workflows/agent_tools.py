"""Agent tools that run as activities, built inside the workflow.

`activity_as_tool` would mirror each activity's single positional parameter,
so a model would see `{"args": {...}}`; these tools advertise the flat argument
model instead and still dispatch every call as its own activity.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from temporalio import workflow
from temporalio.common import RetryPolicy

from workflows.tool_contracts import TOOL_ARGS, TOOL_DESCRIPTIONS, ToolResponse

with workflow.unsafe.imports_passed_through():
    from langchain_core.tools import StructuredTool

TOOL_TIMEOUT = timedelta(seconds=20)
TOOL_RETRY = RetryPolicy(maximum_attempts=5, initial_interval=timedelta(seconds=1))


def activity_tool(name: str, task_queue: str | None = None) -> StructuredTool:
    args_model = TOOL_ARGS[name]

    async def run(**kwargs: Any) -> str:
        response = await workflow.execute_activity(
            name,
            args_model(**kwargs),
            result_type=ToolResponse,
            task_queue=task_queue,
            start_to_close_timeout=TOOL_TIMEOUT,
            retry_policy=TOOL_RETRY,
            summary=f"tool:{name}",
        )
        return response.model_dump_json()

    return StructuredTool.from_function(
        coroutine=run, name=name, description=TOOL_DESCRIPTIONS[name], args_schema=args_model
    )


def activity_tools(names: list[str], task_queue: str | None = None) -> list[StructuredTool]:
    """Tools for `names`; `task_queue` routes them to the worker owning the DKG (None: the
    run's own queue, the same commands as before the option existed)."""
    return [activity_tool(n, task_queue) for n in names]
