"""A real OTLP/HTTP endpoint for the tests: an HTTP server on a free port of 127.0.0.1 that decodes each
``/v1/traces`` protobuf body with the OpenTelemetry protobuf classes and keeps the spans, flattened."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class SunkSpan:
    trace_id: str
    span_id: str
    parent_id: str
    name: str
    kind: int
    start_ns: int
    end_ns: int
    status: int
    status_message: str
    attributes: dict[str, Any] = field(default_factory=dict)
    resource: dict[str, Any] = field(default_factory=dict)


def _value(any_value: Any) -> Any:
    which = any_value.WhichOneof("value")
    return None if which is None else getattr(any_value, which)


def _attributes(pairs: Any) -> dict[str, Any]:
    return {pair.key: _value(pair.value) for pair in pairs}


class OtlpSink:
    """Start with ``with OtlpSink() as sink:``; ``sink.endpoint`` is the base URL; ``sink.spans`` fills."""

    def __init__(self) -> None:
        self.spans: list[SunkSpan] = []
        self.requests = 0
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        sink = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the http.server name
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if self.path != "/v1/traces":
                    self.send_response(404)
                    self.end_headers()
                    return
                sink._take(body)
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.endpoint = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def _take(self, body: bytes) -> None:
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

        request = ExportTraceServiceRequest()
        request.ParseFromString(body)
        found = []
        for resource_spans in request.resource_spans:
            resource = _attributes(resource_spans.resource.attributes)
            for scope_spans in resource_spans.scope_spans:
                for span in scope_spans.spans:
                    found.append(
                        SunkSpan(
                            trace_id=span.trace_id.hex(),
                            span_id=span.span_id.hex(),
                            parent_id=span.parent_span_id.hex(),
                            name=span.name,
                            kind=span.kind,
                            start_ns=span.start_time_unix_nano,
                            end_ns=span.end_time_unix_nano,
                            status=span.status.code,
                            status_message=span.status.message,
                            attributes=_attributes(span.attributes),
                            resource=resource,
                        )
                    )
        with self._changed:
            self.spans += found
            self.requests += 1
            self._changed.notify_all()

    def wait_spans(self, count: int, timeout: float = 60.0) -> list[SunkSpan]:
        """The spans once at least ``count`` arrived (AssertionError after ``timeout``)."""
        with self._changed:
            arrived = self._changed.wait_for(lambda: len(self.spans) >= count, timeout)
            assert arrived, f"{len(self.spans)} span(s) arrived, {count} expected"
            return list(self.spans)

    def __enter__(self) -> OtlpSink:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
