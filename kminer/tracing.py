"""OpenTelemetry tracing of runs through Temporal's contrib interceptor, when configured.

With `OTEL_EXPORTER_OTLP_ENDPOINT` (or `..._TRACES_ENDPOINT`) set, every client call
(start, signal, update, query) and every workflow, activity and update on the worker
becomes a span, linked across processes through Temporal headers, exported as OTLP
over HTTP. `OTEL_SERVICE_NAME` names the service (default `knowledge-miner`).
"""

from __future__ import annotations

import threading

from temporalio.client import Interceptor

from kminer.config import Settings

_lock = threading.Lock()
_provider: object | None = None


def _exporter_url(endpoint: str) -> str:
    # The generic endpoint is a base URL; the traces endpoint is used as given.
    base = endpoint.rstrip("/")
    return base if base.endswith("/v1/traces") else f"{base}/v1/traces"


def tracing_interceptors(settings: Settings) -> list[Interceptor]:
    """[TracingInterceptor] when an OTLP endpoint is configured, else []."""
    if not settings.otlp_endpoint:
        return []
    from temporalio.contrib.opentelemetry import TracingInterceptor

    _install_provider(settings.otlp_endpoint)
    return [TracingInterceptor()]


def _install_provider(endpoint: str) -> None:
    global _provider
    with _lock:
        if _provider is not None:
            return
        from opentelemetry import trace
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        from opentelemetry.sdk.resources import OTELResourceDetector, Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor

        resource = Resource({"service.name": "knowledge-miner"}).merge(
            OTELResourceDetector().detect()
        )
        provider = TracerProvider(resource=resource)
        provider.add_span_processor(
            BatchSpanProcessor(OTLPSpanExporter(endpoint=_exporter_url(endpoint)))
        )
        trace.set_tracer_provider(provider)
        _provider = provider


def flush_traces(timeout_s: float = 5.0) -> None:
    """Send buffered spans now: commands leave with os._exit, which skips atexit hooks."""
    provider = _provider
    if provider is not None:
        provider.force_flush(int(timeout_s * 1000))  # type: ignore[attr-defined]
