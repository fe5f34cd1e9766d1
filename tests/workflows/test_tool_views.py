"""A role's view of a tool is built on its first model call; later calls find it by name."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.utils.function_calling import convert_to_openai_tool

from contracts.tools import ENRICHMENT_TOOLS
from workflows import tool_views
from workflows.agent_tools import activity_tools


@pytest.fixture
def conversions(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the tools converted to OpenAI format, in order, with no view built."""
    converted: list[str] = []

    def counted(tool: Any) -> dict[str, Any]:
        converted.append(tool.name)
        return convert_to_openai_tool(tool)

    monkeypatch.setattr(tool_views, "convert_to_openai_tool", counted)
    monkeypatch.setattr(tool_views, "_views", {})
    return converted


def shown(tools: list[Any]) -> list[str]:
    return [t["function"]["name"] for t in tools]


def test_each_tool_is_converted_once_however_many_model_calls_and_runs(
    conversions: list[str],
) -> None:
    first = tool_views.tools_for("enrichment", activity_tools(ENRICHMENT_TOOLS))
    assert sorted(conversions) == sorted(shown(first))

    # Later model calls of the run, and a later run's own tool instances.
    again = tool_views.tools_for("enrichment", activity_tools(ENRICHMENT_TOOLS))
    later = tool_views.tools_for("enrichment", activity_tools(ENRICHMENT_TOOLS))

    assert sorted(conversions) == sorted(shown(first)), "no tool converted a second time"
    assert again == first and later == first


def test_the_view_is_the_short_form_of_the_converted_tool(conversions: list[str]) -> None:
    (tool,) = activity_tools([ENRICHMENT_TOOLS[-1]])
    function = convert_to_openai_tool(tool)["function"]

    view = tool_views.tool_view("enrichment", tool)

    assert view == {
        "type": "function",
        "function": {
            "name": tool.name,
            "description": function["description"],
            "parameters": tool_views.compact_schema(
                function["parameters"], tool_views.HIDDEN.get(tool.name, ())
            ),
        },
    }


def test_each_role_has_its_own_view(conversions: list[str]) -> None:
    tools = activity_tools(ENRICHMENT_TOOLS)

    enrichment = tool_views.tools_for("enrichment", tools)
    resolver = tool_views.tools_for("entity-resolver", tools)

    assert conversions == shown(enrichment) + shown(resolver)
    assert set(shown(resolver)) < set(shown(enrichment))
