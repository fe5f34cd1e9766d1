"""Prometheus metrics of the service (seed 002 "Observability"), in one registry.

Tool calls are counted where every tool's answer is made (`activities/common.py`);
runs started and decisions where the API takes them; published assets where the DKG
answers. Run totals by status come from Temporal's visibility when `/metrics` is read,
so runs started from the CLI or the Temporal CLI count too.
"""

from __future__ import annotations

from prometheus_client import Counter, Histogram

TOOL_CALLS = Counter(
    "kminer_tool_calls_total", "Agent tool calls, by tool and outcome", ["tool", "outcome"]
)
TOOL_LATENCY = Histogram(
    "kminer_tool_latency_ms",
    "Agent tool latency in milliseconds",
    ["tool"],
    buckets=(1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000),
)
RUNS_STARTED = Counter("kminer_api_runs_started_total", "Runs started through the API")
DECISIONS = Counter(
    "kminer_api_decisions_total", "Review decisions taken through the API", ["action"]
)
PUBLISHED = Counter("kminer_assets_published_total", "Knowledge Assets published", ["created"])


def tool_call(tool: str, elapsed_ms: int, success: bool) -> None:
    TOOL_CALLS.labels(tool=tool, outcome="ok" if success else "error").inc()
    TOOL_LATENCY.labels(tool=tool).observe(elapsed_ms)


# Recorded by workflows (workflows/run_metrics.py), carried here by temporal_client/telemetry.py.
PHASE_SECONDS = Histogram(
    "kminer_phase_duration_seconds",
    "Time runs spent in each phase",
    ["phase"],
    buckets=(0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 86400, 604800),
)
MODEL_TOKENS = Counter("kminer_model_tokens", "Model tokens used by runs", ["model", "kind"])
MODEL_CALLS = Counter("kminer_model_calls", "Model calls made by runs", ["model"])
RUNS_ENDED = Counter("kminer_runs_ended", "Runs that ended, by outcome", ["outcome"])
MODEL_COST = Counter(
    "kminer_model_cost_usd",
    "Estimated model cost of runs in USD (price table in workflows/budget.py)",
    ["model"],
)

# Model replies to calls with tools bound, by how the worker read them
# (activities/chat_model.py): tool_calls, final, parsed_from_text, refused, unusable.
MODEL_REPLIES = Counter(
    "kminer_model_replies_total", "Model replies to calls with tools, by reading", ["reading"]
)
TOOL_SCHEMA_BYTES = Histogram(
    "kminer_model_tool_schema_bytes",
    "Bytes of the tool schemas sent with one model call",
    buckets=(512, 1024, 2048, 3072, 4096, 6144, 8192, 16384, 32768),
)
