"""One Temporal runtime per process whose metrics feed the Prometheus registry.

Workflows record through Temporal's replay-safe metric meter (`workflows/run_metrics.py`);
the runtime buffers those updates and a daemon thread drains them into prometheus-client
objects every second (`/metrics` drains once more before answering). Temporal's own
core metrics in the buffer are dropped: the buffer is a channel for ours.
"""

from __future__ import annotations

import threading
import time

from temporalio.runtime import (
    BUFFERED_METRIC_KIND_COUNTER,
    BUFFERED_METRIC_KIND_HISTOGRAM,
    MetricBuffer,
    MetricBufferDurationFormat,
    Runtime,
    TelemetryConfig,
)

from activities.metrics import MODEL_CALLS, MODEL_COST, MODEL_TOKENS, PHASE_SECONDS, RUNS_ENDED
from workflows import run_metrics

DRAIN_SECONDS = 1.0
BUFFER_SIZE = 100_000

_lock = threading.Lock()
_buffer: MetricBuffer | None = None
_runtime: Runtime | None = None


def telemetry_runtime() -> Runtime:
    """The process's runtime for every client (created once, drained in the background)."""
    global _buffer, _runtime
    with _lock:
        if _runtime is None:
            _buffer = MetricBuffer(BUFFER_SIZE, MetricBufferDurationFormat.SECONDS)
            _runtime = Runtime(telemetry=TelemetryConfig(metrics=_buffer))
            threading.Thread(target=_drain_forever, name="kminer-metrics", daemon=True).start()
        return _runtime


def _drain_forever() -> None:
    while True:
        time.sleep(DRAIN_SECONDS)
        drain_metrics()


def drain_metrics() -> int:
    """Apply buffered workflow metric updates to the Prometheus registry; how many applied."""
    if _buffer is None:
        return 0
    with _lock:
        updates = _buffer.retrieve_updates()
    applied = 0
    for update in updates:
        name, kind, attrs = update.metric.name, update.metric.kind, update.attributes
        value = update.value
        if name == run_metrics.PHASE_SECONDS and kind == BUFFERED_METRIC_KIND_HISTOGRAM:
            PHASE_SECONDS.labels(phase=str(attrs.get("phase", ""))).observe(float(value))
        elif name == run_metrics.MODEL_TOKENS and kind == BUFFERED_METRIC_KIND_COUNTER:
            labels = {"model": str(attrs.get("model", "")), "kind": str(attrs.get("kind", ""))}
            MODEL_TOKENS.labels(**labels).inc(value)
        elif name == run_metrics.MODEL_CALLS and kind == BUFFERED_METRIC_KIND_COUNTER:
            MODEL_CALLS.labels(model=str(attrs.get("model", ""))).inc(value)
        elif name == run_metrics.MODEL_COST and kind == BUFFERED_METRIC_KIND_COUNTER:
            MODEL_COST.labels(model=str(attrs.get("model", ""))).inc(value / 1_000_000)
        elif name == run_metrics.RUNS_ENDED and kind == BUFFERED_METRIC_KIND_COUNTER:
            RUNS_ENDED.labels(outcome=str(attrs.get("outcome", ""))).inc(value)
        else:
            continue
        applied += 1
    return applied
