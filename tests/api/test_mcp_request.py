"""What the MCP tool `knowledge-miner` asks the workflow for: the request as the API builds
it, a slow model's limits included, and its refusals as one tool error."""

from __future__ import annotations

import pytest
from mcp.server.mcpserver.exceptions import ToolError

from api.mcp.tools import mining_request
from contracts.model_calls import ModelLimits


def test_a_request_carries_the_model_limits_a_slow_model_needs() -> None:
    limits = ModelLimits(callSeconds=1200, heartbeatSeconds=60, attempts=2)
    request = mining_request(
        "Which ferry operators lease vessels?", ["shipping"], 4, "auto", limits
    )
    assert request.modelLimits == limits
    assert request.domainTags == ["shipping"]


def test_without_limits_the_workers_own_apply() -> None:
    assert mining_request("Which ferry operators lease vessels?", [], 4, "auto").modelLimits is None


def test_a_refused_request_is_one_tool_error_naming_the_field() -> None:
    with pytest.raises(ToolError, match="maxIterations"):
        mining_request("Which ferry operators lease vessels?", [], 11, "auto")
