"""What a model is shown of its tools: those its role needs, with short schemas.

Every tool a Deep Agents graph holds went to the model with every call: the filesystem
tools, `task`, a 3.9 kB `write_todos` description and each argument model's full JSON
schema, 17 to 19 kB a call (14 schemas). A small model served on two cores reads that at
7 to 13 tokens a second before it writes a word. `ToolView` sends each role the tools its
job uses, described in a line, with schemas stripped of titles, nested descriptions,
null defaults and the fields a model should leave to the workflow: at most 4 kB a call
(tests/workflows/test_small_model.py measures it per subagent).

Only what the model is shown changes: the graph still holds every tool, so the rules
policy (which ignores the binding) calls the ones it always did, and the tools validate
each call against their full argument models. Building a view schedules nothing.
"""

from __future__ import annotations

import copy
from collections.abc import Awaitable, Callable
from typing import Any

from temporalio import workflow

from contracts.activity_names import (
    DKG_FIND_DUPLICATES,
    DKG_FIND_RELATED_ASSETS,
    DKG_GET_ASSET,
    DKG_GET_ASSET_METADATA,
    DKG_SPARQL,
    EXTRACT_STATEMENTS,
    PROPOSE_KNOWLEDGE_ASSETS,
    SCORE_CANDIDATES,
    WEB_SEARCH,
)

with workflow.unsafe.imports_passed_through():
    from langchain.agents.middleware import AgentMiddleware
    from langchain_core.utils.function_calling import convert_to_openai_tool

WRITE_TODOS = "write_todos"
TASK = "task"
ROLE_TOOLS: dict[str, tuple[str, ...]] = {
    "discovery": (WRITE_TODOS, DKG_FIND_RELATED_ASSETS, DKG_SPARQL, DKG_GET_ASSET, WEB_SEARCH,
                  EXTRACT_STATEMENTS),
    "enrichment": (WRITE_TODOS, TASK, DKG_FIND_RELATED_ASSETS, DKG_SPARQL,
                   PROPOSE_KNOWLEDGE_ASSETS),
    "validation": (WRITE_TODOS, SCORE_CANDIDATES, DKG_GET_ASSET_METADATA, DKG_FIND_DUPLICATES,
                   DKG_SPARQL),
    "entity-resolver": (DKG_FIND_RELATED_ASSETS, DKG_SPARQL),
}  # fmt: skip
# Deep Agents' own descriptions run to kilobytes; a line says what these do here.
SHORT_DESCRIPTIONS = {
    WRITE_TODOS: "Record your plan as todos, each {content, status: pending, in_progress or "
    "completed}; call it again as they progress.",
    TASK: "Hand a subtask to a helper: subagent_type 'entity-resolver' resolves the entity "
    'names listed in description to DKG UALs and answers {"links": {name: UAL}}.',
}
# Arguments the workflow fills better than a model: the discovery statements travel by
# statementsRef, and a threshold of the model's own is ignored (workflows/workspace.py).
HIDDEN = {PROPOSE_KNOWLEDGE_ASSETS: ("statements",), SCORE_CANDIDATES: ("threshold",)}
_views: dict[tuple[str, str], dict[str, Any]] = {}


def _compact(node: Any, top: bool = False) -> Any:
    """A JSON schema without titles, null defaults, `X or null` unions or, below the top
    level of the arguments, descriptions."""
    if isinstance(node, list):
        return [_compact(item) for item in node]
    if not isinstance(node, dict):
        return node
    options = node.get("anyOf")
    if isinstance(options, list):
        kept = [o for o in options if o != {"type": "null"}]
        if len(kept) == 1 and len(kept) < len(options):
            rest = {k: v for k, v in node.items() if k != "anyOf"}
            return _compact({**rest, **kept[0]}, top)
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "title" or (key == "default" and value is None):
            continue
        if key == "description" and not top:
            continue
        if key == "properties" and isinstance(value, dict):
            out[key] = {name: _compact(prop, top) for name, prop in value.items()}
        else:
            out[key] = _compact(value)
    return out


def compact_schema(schema: dict[str, Any], hidden: tuple[str, ...] = ()) -> dict[str, Any]:
    """The arguments' schema a model is shown: `hidden` fields left out, the rest short."""
    schema = copy.deepcopy(schema)
    properties = schema.get("properties") or {}
    for name in hidden:
        properties.pop(name, None)
    if "required" in schema:
        schema["required"] = [r for r in schema["required"] if r not in hidden]
    out = _compact({k: v for k, v in schema.items() if k != "properties"})
    out["properties"] = {name: _compact(prop, top=True) for name, prop in properties.items()}
    return out


def tool_view(role: str, tool: Any) -> dict[str, Any]:
    """`tool` as `role`'s model is shown it (OpenAI function format), built once: the
    view is found by the tool's name, so a model call after the first converts nothing
    (converting a tool rebuilds its arguments' JSON schema)."""
    name = _name(tool)
    view = _views.get((role, name))
    if view is None:
        spec = tool if isinstance(tool, dict) else convert_to_openai_tool(tool)
        function = spec.get("function", spec)
        view = {
            "type": "function",
            "function": {
                "name": name,
                "description": SHORT_DESCRIPTIONS.get(name, function.get("description", "")),
                "parameters": compact_schema(
                    function.get("parameters") or {}, HIDDEN.get(name, ())
                ),
            },
        }
        _views[(role, name)] = view
    return view


def _name(tool: Any) -> str:
    if isinstance(tool, dict):
        return str(tool.get("function", tool).get("name"))
    return str(tool.name)


def tools_for(role: str, tools: list[Any]) -> list[Any]:
    """The tools `role`'s model is shown (a role without a list: all, as they are)."""
    wanted = ROLE_TOOLS.get(role)
    if wanted is None:
        return tools
    named = {_name(t): t for t in tools}
    return [tool_view(role, named[name]) for name in wanted if name in named]


class ToolView(AgentMiddleware):
    """Shows the model of `role` its view of the tools (see the module doc)."""

    def __init__(self, role: str) -> None:
        super().__init__()
        self.role = role

    def wrap_model_call(self, request: Any, handler: Callable[[Any], Any]) -> Any:
        return handler(request.override(tools=tools_for(self.role, list(request.tools))))

    async def awrap_model_call(self, request: Any, handler: Callable[[Any], Awaitable[Any]]) -> Any:
        return await handler(request.override(tools=tools_for(self.role, list(request.tools))))
