"""OpenTelemetry: a run traced end to end when an OTLP endpoint is set, nothing otherwise."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from kminer.config import Settings
from kminer.tracing import tracing_interceptors
from tests.support.processes import kminer
from tests.support.runs import QUESTION


class OtlpReceiver(BaseHTTPRequestHandler):
    """An OTLP/HTTP collector that keeps what it is sent (protobuf bodies)."""

    received: list[tuple[str, bytes]] = []

    def do_POST(self) -> None:  # noqa: N802  (http.server's naming)
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.received.append((self.path, body))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def collector() -> Iterator[tuple[str, list[tuple[str, bytes]]]]:
    received: list[tuple[str, bytes]] = []
    handler = type("Receiver", (OtlpReceiver,), {"received": received})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", received
    finally:
        server.shutdown()
        server.server_close()


def spans_of(received: list[tuple[str, bytes]]) -> list[tuple[str, bytes, str]]:
    """(span name, trace id, service name) of every span the collector got."""
    spans = []
    for _, body in received:
        request = ExportTraceServiceRequest.FromString(body)
        for resource_spans in request.resource_spans:
            attributes = {a.key: a.value.string_value for a in resource_spans.resource.attributes}
            for scope in resource_spans.scope_spans:
                for span in scope.spans:
                    spans.append((span.name, span.trace_id, attributes.get("service.name", "")))
    return spans


def test_without_an_endpoint_nothing_is_traced(settings: Settings) -> None:
    assert tracing_interceptors(replace(settings, otlp_endpoint="")) == []


def test_a_mined_run_arrives_as_one_trace_at_the_collector(
    settings: Settings, collector: tuple[str, list[tuple[str, bytes]]], monkeypatch
) -> None:
    endpoint, received = collector
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint)
    done = kminer(settings, "mine", QUESTION, "--tag", "supply_chain", "--auto-approve", "--json")
    assert done.returncode == 0, done.stderr[-3000:]
    run_id = json.loads(done.stdout)["runId"]
    assert run_id

    assert {path for path, _ in received} == {"/v1/traces"}
    spans = spans_of(received)
    names = {name for name, _, _ in spans}
    assert "StartWorkflow:MiningWorkflow" in names
    assert "RunWorkflow:MiningWorkflow" in names
    assert any(name.startswith("RunActivity:") for name in names), sorted(names)
    started = next(t for name, t, _ in spans if name == "StartWorkflow:MiningWorkflow")
    ran = {t for name, t, _ in spans if name.startswith(("RunWorkflow:", "RunActivity:"))}
    assert ran == {started}, "the workflow and its activities continue the client's trace"
    assert {service for _, _, service in spans} == {"knowledge-miner"}
