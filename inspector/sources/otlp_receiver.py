"""An OTLP/HTTP receiver as a live source: agents send their telemetry to it, their tool calls show live.

``POST /v1/traces`` and ``POST /v1/logs`` take OTLP protobuf (``application/x-protobuf``, decoded with the
opentelemetry-proto classes of the ``otlp`` extra) or OTLP JSON (``application/json``), gzip or not; each
body is turned into OTLP JSON (ids in hex, enums as integers, as the file exporter writes them) and
decoded by the ``otlp`` format's :class:`~inspector.protocols.otlp.Decoder` on the app's loop, so the
store is only touched there.
A recording is those bodies, one per line: an OTLP JSON file that reads back like any other. Bodies past
``max_body`` bytes (compressed or not) are refused with 413; the server binds to 127.0.0.1 unless told.
"""

from __future__ import annotations

import asyncio
import base64
import gzip
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import IO, Any

from inspector.model import CallStore
from inspector.model.events import Malformed, RawRef, noted
from inspector.model.values import dumps_json, loads_noted, text_noted
from inspector.protocols import otlp
from inspector.sources.base import Source, SourceStatus

MAX_BODY = 16 * 1024 * 1024
"""Bytes a request body may have, before and after decompression."""
PATHS = {"/v1/traces": "traces", "/v1/logs": "logs"}
PEER_TIMEOUT = 30.0
"""Seconds a peer may stay silent in the middle of a request (its headers or its body) before the
connection is closed: a peer that declared more bytes than it sent held a thread forever."""


class BodyError(ValueError):
    """A request body that cannot be read (one line, sent back to the exporter)."""


def body_json(signal: str, body: bytes, content_type: str) -> tuple[dict[str, Any], str | None]:
    """An OTLP/HTTP request body as OTLP JSON (``resourceSpans`` / ``resourceLogs``, ids in hex), and a
    note when its bytes were not all UTF-8 (read with U+FFFD in their place, as every reader does)."""
    if "json" in content_type:
        value, error, note = loads_noted(body)  # lone surrogates made valid, big numbers kept
        if error is not None:
            raise BodyError(f"not JSON: {error}")
        if not isinstance(value, dict):
            raise BodyError("not a JSON object")
        return value, note
    try:
        from google.protobuf.json_format import MessageToDict
        from google.protobuf.message import DecodeError
        from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
    except ImportError:
        raise BodyError(
            "protobuf bodies need the otlp extra: pip install 'toolcall-inspector[otlp]'"
        ) from None
    message: Any = ExportTraceServiceRequest() if signal == "traces" else ExportLogsServiceRequest()
    note = None
    try:
        message.ParseFromString(body)
    except (DecodeError, RecursionError) as exc:
        try:  # a string that is not UTF-8 (a JS exporter writes a lone surrogate as three bytes)
            repaired, changed = _valid_strings(body, message.DESCRIPTOR)
            if not changed:
                raise ValueError("no string to repair")
            message.ParseFromString(repaired)
        except (DecodeError, RecursionError, ValueError):
            raise BodyError(f"not an OTLP {signal} protobuf: {exc}") from None
        note = "held strings that are not UTF-8: read with U+FFFD in place of each bad byte"
    # OTLP JSON writes enums as integers (a span's kind, its status code, a record's severity), as the
    # file exporter and the Collector do; protobuf's JSON mapping writes their names unless told
    value = MessageToDict(message, use_integers_for_enums=True)
    _hex_ids(value)
    return value, note


_MAX_DEPTH = 100  # as deep as the protobuf runtime itself reads


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if at >= len(data) or shift > 63:
            raise ValueError("a varint cut short or too long")
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7


def _varint_bytes(value: int) -> bytes:
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _valid_strings(data: bytes, descriptor: Any, depth: int = 0) -> tuple[bytes, bool]:
    """``data`` (a protobuf message of type ``descriptor``) with every string field made valid UTF-8
    (U+FFFD for each bad byte, as every reader reads bytes), and whether one changed; raises ValueError
    for what is not a message of that shape. The protobuf runtime refuses a whole request for one such
    string: a batch of spans was lost for one tool's output."""
    if depth > _MAX_DEPTH:
        raise ValueError("nested too deeply")
    fields = descriptor.fields_by_number
    out = bytearray()
    changed = False
    at = 0
    while at < len(data):
        start = at
        key, at = _varint(data, at)
        key_end = at
        wire = key & 7
        if wire == 0:
            _, at = _varint(data, at)
        elif wire in (1, 5):
            at += 8 if wire == 1 else 4
        elif wire == 2:
            length, body = _varint(data, at)
            at = body + length
            field = fields.get(key >> 3)
            if at > len(data) or field is None or field.type not in (field.TYPE_STRING, field.TYPE_MESSAGE):
                pass
            elif field.type == field.TYPE_STRING:
                text, bad = text_noted(data[body:at])
                if bad is not None:
                    fixed = text.encode("utf-8")
                    out += data[start:key_end] + _varint_bytes(len(fixed)) + fixed
                    changed = True
                    continue
            else:
                inner, inner_changed = _valid_strings(data[body:at], field.message_type, depth + 1)
                if inner_changed:
                    out += data[start:key_end] + _varint_bytes(len(inner)) + inner
                    changed = True
                    continue
        else:
            raise ValueError(f"wire type {wire}")
        if at > len(data):
            raise ValueError("a field cut short")
        out += data[start:at]
    return bytes(out), changed


def _hex_ids(value: dict[str, Any]) -> None:
    """The protobuf JSON mapping writes bytes in base64; OTLP JSON writes trace and span ids in hex."""
    for group in value.get("resourceSpans", []) + value.get("resourceLogs", []):
        for scope in group.get("scopeSpans", []) + group.get("scopeLogs", []):
            for item in scope.get("spans", []) + scope.get("logRecords", []):
                for key in ("traceId", "spanId", "parentSpanId"):
                    if isinstance(item.get(key), str):
                        item[key] = base64.b64decode(item[key]).hex()


def _inflate(body: bytes, encoding: str, limit: int) -> bytes:
    if encoding in ("", "identity"):
        return body
    if encoding not in ("gzip", "deflate"):
        raise BodyError(f"unsupported Content-Encoding {encoding!r}")
    inflater = zlib.decompressobj(wbits=31 if encoding == "gzip" else 15)
    try:
        out = inflater.decompress(body, limit + 1)
    except (zlib.error, gzip.BadGzipFile) as exc:
        raise BodyError(f"bad {encoding} body: {exc}") from None
    if len(out) > limit:
        raise BodyError(f"body over {limit} bytes once decompressed")
    return out


class OtlpSource(Source):
    """Listens on ``host:port`` for OTLP/HTTP and threads the tool calls it is sent into ``store``."""

    name = "otlp"
    is_live = True

    def __init__(
        self,
        store: CallStore,
        *,
        host: str = "127.0.0.1",
        port: int = 4318,
        max_body: int = MAX_BODY,
        record: IO[str] | None = None,
        peer_timeout: float = PEER_TIMEOUT,
    ) -> None:
        super().__init__()
        self.store = store
        self.host, self.port, self.max_body = host, port, max_body
        self.peer_timeout = peer_timeout
        self.record = record
        self.decoder = otlp.Decoder()
        self.requests = 0
        self.refused = 0
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def bind(self) -> None:
        """Take the port now (raises OSError when it is taken or not allowed: the caller says so)."""
        if self._server is None:
            self._server = ThreadingHTTPServer((self.host, self.port), self._handler())
            self._server.daemon_threads = True
            self.port = self._server.server_address[1]

    async def start(self) -> None:
        """Bind if not done yet, and serve."""
        self._loop = asyncio.get_running_loop()
        self.bind()
        assert self._server is not None
        self._thread = threading.Thread(target=self._server.serve_forever, name="otlp-receiver", daemon=True)
        self._thread.start()
        self._set_state(status=SourceStatus.CONNECTED, detail=f"listening on {self.url}")

    async def stop(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            await asyncio.get_running_loop().run_in_executor(None, server.shutdown)
            server.server_close()
        self._set_state(status=SourceStatus.DISCONNECTED, detail="stopped")

    def take(self, value: dict[str, Any], where: str, note: str | None = None) -> None:
        """Thread one body's calls (on the loop) and record it; ``note``: what was wrong with its bytes."""
        line = dumps_json(value)
        if self.record is not None:
            try:
                self.record.write(line + "\n")
                self.record.flush()
            except OSError as exc:
                self._set_state(record_error=str(exc))
                self.record = None
        raw = RawRef("otlp", where, data=line.encode("utf-8", "surrogateescape"), protocol=otlp.NAME)
        events = noted(note, raw, where, self.decoder.feed(value, raw))
        for event in events:
            self.store.ingest(event)
        self._emit_events(events)

    def refuse(self, where: str, reason: str) -> None:
        """A body that could not be read, shown as a malformed record (on the loop)."""
        event = Malformed(where, reason, source="otlp")
        self.store.ingest(event)
        self._emit_events([event])

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        source = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            timeout = source.peer_timeout

            def handle(self) -> None:
                try:
                    super().handle()
                except OSError:  # the peer went away or went silent (a timeout): only its request is lost
                    self.close_connection = True

            def do_POST(self) -> None:  # noqa: N802 - the http.server name
                signal = PATHS.get(self.path.split("?", 1)[0])
                if signal is None:
                    self._reply(404, "only /v1/traces and /v1/logs")
                    return
                try:
                    length = int(self.headers.get("Content-Length") or "")
                except ValueError:
                    self._reply(411, "Content-Length required")
                    return
                if length < 0 or length > source.max_body:
                    source.refused += 1
                    self._reply(413, f"body over {source.max_body} bytes", close=True)
                    return
                where = f"POST /v1/{signal} #{source.requests + 1}"
                try:
                    body = self.rfile.read(length)
                except OSError as exc:  # silent past the timeout, or reset: said, and the connection closed
                    source.refused += 1
                    why = (
                        "the peer stopped sending"
                        if isinstance(exc, TimeoutError)
                        else "the connection broke"
                    )
                    source._call(source.refuse, where, f"{why} after {length:,} bytes were announced")
                    self.close_connection = True
                    return
                if len(body) < length:  # the peer closed the connection before sending it all
                    source.refused += 1
                    source._call(source.refuse, where, f"body cut short: {len(body):,} of {length:,} bytes")
                    self.close_connection = True
                    return
                kind = (self.headers.get("Content-Type") or "application/x-protobuf").lower()
                try:
                    data = _inflate(
                        body, (self.headers.get("Content-Encoding") or "").lower(), source.max_body
                    )
                    value, note = body_json(signal, data, kind)
                except BodyError as exc:
                    source.refused += 1
                    source._call(source.refuse, where, str(exc))  # said before the answer, which may fail
                    self._reply(400, str(exc))
                    return
                source.requests += 1
                source._call(source.take, value, f"POST /v1/{signal} #{source.requests}", note)
                if "json" in kind:  # an empty Export*ServiceResponse, in the request's encoding
                    self._reply(200, "{}", content_type="application/json")
                else:
                    self._reply(200, "", content_type="application/x-protobuf")

            def _reply(
                self, code: int, text: str, *, close: bool = False, content_type: str = "text/plain"
            ) -> None:
                body = text.encode()
                self.send_response(code)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                if close:
                    self.send_header("Connection", "close")
                    self.close_connection = True
                self.end_headers()
                self.wfile.write(body)  # a peer gone meanwhile: OSError, caught in handle()

            def log_message(self, *args: Any) -> None:
                pass

        return Handler

    def _call(self, function: Any, *args: Any) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(function, *args)
