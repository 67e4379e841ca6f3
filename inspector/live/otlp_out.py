"""Calls out as OpenTelemetry spans (GenAI semantic conventions), built and sent with the OpenTelemetry SDK.

One ``execute_tool {tool}`` span per call (kind INTERNAL, ``gen_ai.tool.*`` attributes, the call's own
request and result times, status ERROR with ``error.type`` when it ended badly), under one
``invoke_agent`` span per conversation (``gen_ai.conversation.id``); a subagent's calls are children of
the call that started it, so a tracing backend draws the tree the timeline shows. Arguments and results
go out only when asked (``content``), cut to a limit. The SDK and its OTLP/HTTP protobuf exporter are the
optional extra ``otlp``: importing this module without them raises :class:`OtlpMissing` with the line to
install them.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from inspector.model import Call, CallStore, State
from inspector.model.values import dumps_json

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import ReadableSpan

INSTALL_HINT = "pip install 'toolcall-inspector[otlp]'"
TRACES_PATH = "/v1/traces"
DEFAULT_ENDPOINT = "http://localhost:4318"
CONTENT_LIMIT = 4096
"""Characters of a call's arguments or result sent with ``--otlp-content`` (the rest is cut, and said)."""
BATCH = 512
"""Spans per OTLP request."""

ERROR_TYPES = {
    State.FAILED: "failed",
    State.DENIED: "denied",
    State.TIMED_OUT: "timed_out",
    State.CANCELED: "canceled",
}
"""``error.type`` of a call that ended badly, by its state."""

UNFINISHED = "inspector.call.unfinished"
"""Attribute of a span whose call had no result when it was sent (it ends when the session's record ends,
or when the inspector quit)."""


class OtlpMissing(RuntimeError):
    """The OpenTelemetry SDK or its OTLP/HTTP exporter is not installed."""


def _sdk() -> Any:
    try:
        from opentelemetry import trace
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import SpanProcessor, TracerProvider
    except ImportError as exc:
        raise OtlpMissing(f"OpenTelemetry is not installed ({exc.name}): {INSTALL_HINT}") from None
    return trace, Resource, SpanProcessor, TracerProvider


def traces_url(endpoint: str) -> str:
    """The traces URL of a base endpoint, as ``OTEL_EXPORTER_OTLP_ENDPOINT`` takes it (``/v1/traces``
    added; an endpoint already ending with it is kept)."""
    base = endpoint.rstrip("/")
    return base if base.endswith(TRACES_PATH) else base + TRACES_PATH


def cut(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, saying how long it was when cut."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… [cut: {len(text)} characters in all]"


def _as_text(value: Any) -> str:
    return value if isinstance(value, str) else dumps_json(value)


NS_MAX = 2**64 - 1
"""The last time OTLP carries (a fixed64 of nanoseconds since 1970: the year 2554)."""


def _ns(seconds: float) -> int:
    """Nanoseconds since 1970 as OTLP carries them: a time it cannot carry (before 1970, past 2554, not a
    number) is sent as the nearest it can (one such call made the SDK refuse the whole batch, and
    ``export-otlp`` sent nothing)."""
    if not seconds > 0:  # before 1970, or NaN
        return 0
    if seconds >= NS_MAX / 1e9:
        return NS_MAX
    return int(round(seconds * 1e9))


@dataclass
class SpanOptions:
    """What goes into the spans besides the call's identity and times."""

    content: bool = False
    limit: int = CONTENT_LIMIT
    service: str = "toolcall-inspector"


@dataclass
class _Conversation:
    key: tuple[str, str]
    calls: list[Call] = field(default_factory=list)


class SpanBuilder:
    """Turns calls into finished SDK spans, collected for an exporter (nothing is sent here)."""

    def __init__(self, options: SpanOptions | None = None, *, processor: Any = None, ids: Any = None) -> None:
        trace, resource_cls, processor_cls, provider_cls = _sdk()
        self.options = options or SpanOptions()
        self._trace = trace
        self.finished: list[ReadableSpan] = []
        collected = self.finished

        class _Collect(processor_cls):  # type: ignore[misc,valid-type]
            def on_end(self, span: ReadableSpan) -> None:
                collected.append(span)

        resource = resource_cls.create({"service.name": self.options.service})
        self._provider = provider_cls(resource=resource, **({"id_generator": ids} if ids is not None else {}))
        self._provider.add_span_processor(processor if processor is not None else _Collect())
        self._tracer = self._provider.get_tracer("inspector")

    def take(self) -> list[ReadableSpan]:
        """The spans finished since the last take."""
        spans = list(self.finished)
        del self.finished[:]
        return spans

    def start_conversation(self, group: str, agent: str, start: float) -> Any:
        """An ``invoke_agent`` span left open (end it with :meth:`end_span`); its calls go under it."""
        name = f"invoke_agent {agent}" if agent else "invoke_agent"
        attributes: dict[str, Any] = {"gen_ai.operation.name": "invoke_agent"}
        if group:
            attributes["gen_ai.conversation.id"] = group
        if agent:
            attributes["gen_ai.agent.name"] = agent
        return self._tracer.start_span(
            name, kind=self._trace.SpanKind.INTERNAL, start_time=_ns(start), attributes=attributes
        )

    def end_span(self, span: Any, end: float) -> None:
        span.end(end_time=_ns(end))

    def call_span(
        self, call: Call, parent: Any, start: float, end: float, now: float | None, unfinished: bool
    ) -> Any:
        """One ended ``execute_tool`` span for ``call`` under ``parent``; returned so children can nest."""
        trace = self._trace
        attributes: dict[str, Any] = {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": call.tool,
            "gen_ai.tool.call.id": call.call_id,
            "gen_ai.tool.type": "function",
        }
        if call.group:
            attributes["gen_ai.conversation.id"] = call.group
        if unfinished:
            attributes[UNFINISHED] = True
        state = call.state(now)
        error_type = ERROR_TYPES.get(state)
        if error_type is not None:
            attributes["error.type"] = error_type
        if self.options.content:
            attributes.update(self._content(call))
        span = self._tracer.start_span(
            f"execute_tool {call.tool}",
            context=trace.set_span_in_context(parent),
            kind=trace.SpanKind.INTERNAL,
            start_time=_ns(start),
            attributes=attributes,
        )
        if error_type is not None:
            first = call.result
            message = (first.error_message or first.error_code or error_type) if first else error_type
            span.set_status(trace.Status(trace.StatusCode.ERROR, cut(str(message), 256)))
        span.end(end_time=_ns(max(end, start)))
        return span

    def _content(self, call: Call) -> dict[str, str]:
        from inspector.sources.session import hydrate

        request, results = hydrate(call)
        found: dict[str, str] = {}
        limit = self.options.limit
        if request.params is not None:
            found["gen_ai.tool.call.arguments"] = cut(_as_text(request.params), limit)
        if results:
            first = results[0]
            value = first.data if first.data is not None else first.error_message
            if value is not None:
                found["gen_ai.tool.call.result"] = cut(_as_text(value), limit)
        return found

    def shutdown(self) -> None:
        self._provider.shutdown()


def store_spans(store: CallStore, options: SpanOptions | None = None) -> list[ReadableSpan]:
    """Every call of a store read to its end as spans: one ``invoke_agent`` per conversation (per file
    and group), each call under it or under the call that started it. A call with no result is sent
    ended at the session's last record, marked unfinished."""
    from inspector.model.stats import source_of

    builder = SpanBuilder(options)
    now = store.clock.now()
    conversations: dict[tuple[str, str], _Conversation] = {}
    for item in store.items:
        if isinstance(item, Call):
            key = (source_of(item), item.group)
            conversations.setdefault(key, _Conversation(key)).calls.append(item)
    spans: list[ReadableSpan] = []
    for conversation in conversations.values():
        every = [call for top in conversation.calls for call in top.walk()]
        times = [t for call in every for t in _times(call) if t is not None]
        first = min(times) if times else now
        last = max([*times, first])
        agent = next((c.request.raw.protocol for c in every if c.request.raw is not None), "")
        root = builder.start_conversation(conversation.key[1], agent, first)
        for top in conversation.calls:
            _emit(builder, top, root, first, last, now)
        builder.end_span(root, last)
        spans += builder.take()
    builder.shutdown()
    return spans


def _times(call: Call) -> tuple[float | None, float | None]:
    first = call.result
    return call.request.ts, first.ts if first is not None else None


def _emit(builder: SpanBuilder, call: Call, parent: Any, floor: float, last: float, now: float) -> None:
    start, ended = _times(call)
    start = start if start is not None else (ended if ended is not None else floor)
    unfinished = call.result is None
    end = ended if ended is not None else (max(last, start) if unfinished else start)
    span = builder.call_span(call, parent, start, end, now, unfinished)
    for child in call.children:
        if isinstance(child, Call):
            _emit(builder, child, span, start, last, now)


class ExportFailed(Exception):
    """The endpoint did not take the spans (one line saying why)."""


class _LastError(logging.Handler):
    """Keeps the exporter's last complaint (instead of letting it print per batch)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.last = ""
        self.error = ""

    def emit(self, record: logging.LogRecord) -> None:
        for arg in record.args if isinstance(record.args, tuple) else ():
            if isinstance(arg, BaseException):
                self.error = _reason(arg)
        try:
            self.last = record.getMessage()
        except Exception:  # noqa: BLE001 - a bad log record never stops an export
            self.last = str(record.msg)

    @property
    def reason(self) -> str:
        return self.error or self.last or "the export failed"


def _reason(error: BaseException) -> str:
    """The telling part of a transport error (``[Errno 111] Connection refused``), else its first line."""
    text = str(error)
    found = re.search(r"\[Errno -?\d+\][^'\")]*", text)
    if found:
        return found.group(0).strip()
    return f"{type(error).__name__}: {text.splitlines()[0] if text else ''}"[:200]


def exporter(endpoint: str, timeout: float = 10.0) -> Any:
    """The SDK's OTLP/HTTP protobuf span exporter for a base endpoint."""
    try:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    except ImportError as exc:
        raise OtlpMissing(f"the OTLP exporter is not installed ({exc.name}): {INSTALL_HINT}") from None
    return OTLPSpanExporter(endpoint=traces_url(endpoint), timeout=timeout)


def send(spans: Sequence[ReadableSpan], endpoint: str, timeout: float = 10.0) -> int:
    """Send ``spans`` in batches; the number sent. Raises ExportFailed at the first batch refused (the
    exporter's own reason in one line), sending nothing more."""
    from opentelemetry.sdk.trace.export import SpanExportResult

    out = exporter(endpoint, timeout)
    handler = _LastError()
    loggers = [logging.getLogger(name) for name in ("opentelemetry.exporter", "opentelemetry.sdk")]
    saved = [(lg, lg.propagate) for lg in loggers]
    for lg in loggers:
        lg.addHandler(handler)
        lg.propagate = False
    sent = 0
    try:
        for batch in _batches(spans, BATCH):
            if out.export(batch) is not SpanExportResult.SUCCESS:
                raise ExportFailed(f"{traces_url(endpoint)}: {handler.reason}")
            sent += len(batch)
    finally:
        for lg, propagate in saved:
            lg.removeHandler(handler)
            lg.propagate = propagate
        out.shutdown()
    return sent


def _batches(spans: Sequence[ReadableSpan], size: int) -> Iterable[Sequence[ReadableSpan]]:
    for start in range(0, len(spans), size):
        yield spans[start : start + size]


class OtlpStream:
    """Sends a live store's calls as spans as they end (``--otlp URL`` on a followed file, ``live``,
    ``hub``, ``otlp-listen``): the SDK's batch processor exports on its own thread, so nothing waits on
    the endpoint. Each call's span id is chosen when the call is first seen, so a subagent's call that
    ends first still names its parent call's span; the ``invoke_agent`` span of each conversation, and
    any call still without a result (marked unfinished), are sent at :meth:`close`. An endpoint that does
    not take the spans is reported once through ``on_problem`` (from the exporter's thread)."""

    def __init__(
        self,
        store: CallStore,
        endpoint: str,
        *,
        options: SpanOptions | None = None,
        on_problem: Any = None,
        timeout: float = 5.0,
    ) -> None:
        from opentelemetry.sdk.trace.export import BatchSpanProcessor

        self.store = store
        self.endpoint = endpoint
        self.problem = ""
        self._on_problem = on_problem
        self._ids = _chosen_ids()
        self._handler = _LastError()
        self._loggers = _quiet_exporter_logs(self._handler)
        self._exporter = _reporting(exporter(endpoint, timeout), self._report)
        self._builder = SpanBuilder(options, processor=BatchSpanProcessor(self._exporter), ids=self._ids)
        self._span_ids: dict[int, int] = {}  # id(call) -> its span id
        self._roots: dict[str, tuple[int, int, float, str]] = {}  # group -> trace id, span id, start, agent
        self._sent: set[int] = set()
        self._calls: dict[int, Call] = {}
        self._last = 0.0
        self.closed = False
        self.loop: Any = None  # the loop the store is fed on, once seen
        store.subscribe(self._changed)

    def _report(self) -> None:
        if self.problem:
            return
        self.problem = f"OTLP export to {traces_url(self.endpoint)} failed: {self._handler.reason}"
        if self._on_problem is not None:
            self._on_problem(self.problem)

    def _changed(self, item: object) -> None:
        if self.loop is None:
            import asyncio  # here: the command line reads CONTENT_LIMIT, and a headless command needs no loop

            try:
                self.loop = asyncio.get_running_loop()
            except RuntimeError:
                pass
        if self.closed or not isinstance(item, Call):
            return
        for call in item.walk():
            self._see(call)
            if call.results and id(call) not in self._sent:
                self._send(call, unfinished=False)

    def _see(self, call: Call) -> None:
        if id(call) in self._span_ids:
            return
        self._calls[id(call)] = call
        self._span_ids[id(call)] = _random_id(64)
        start = call.request.ts if call.request.ts is not None else self.store.clock.now()
        self._last = max(self._last, start)
        if call.group not in self._roots:
            agent = call.request.raw.protocol if call.request.raw is not None else ""
            self._roots[call.group] = (_random_id(128), _random_id(64), start, agent)

    def _parent(self, call: Call) -> Any:
        from opentelemetry.trace import NonRecordingSpan, SpanContext, TraceFlags

        trace_id, root_id, _, _ = self._roots[call.group]
        parent = call.parent
        span_id = self._span_ids.get(id(parent), root_id) if parent is not None else root_id
        context = SpanContext(trace_id, span_id, is_remote=False, trace_flags=TraceFlags(TraceFlags.SAMPLED))
        return NonRecordingSpan(context)

    def _send(self, call: Call, *, unfinished: bool) -> None:
        self._sent.add(id(call))
        start, ended = _times(call)
        now = self.store.clock.now()
        start = start if start is not None else (ended if ended is not None else now)
        end = ended if ended is not None else max(now, start)
        self._last = max(self._last, end)
        self._ids.next_span = self._span_ids[id(call)]
        self._builder.call_span(call, self._parent(call), start, end, now, unfinished)

    def close(self) -> None:
        """Send what is left (unfinished calls, each conversation's span) and flush; safe to call twice."""
        if self.closed:
            return
        self.closed = True
        for key, call in list(self._calls.items()):
            if key not in self._sent:
                self._send(call, unfinished=True)
        for group, (trace_id, span_id, start, agent) in self._roots.items():
            self._ids.next_trace, self._ids.next_span = trace_id, span_id
            root = self._builder.start_conversation(group, agent, start)
            self._builder.end_span(root, max(self._last, start))
        self._builder.shutdown()
        for logger, propagate in self._loggers:
            logger.removeHandler(self._handler)
            logger.propagate = propagate


def _random_id(bits: int) -> int:
    import random

    return random.getrandbits(bits) or 1


def _quiet_exporter_logs(handler: logging.Handler) -> list[tuple[logging.Logger, bool]]:
    """The exporter's complaints go to ``handler`` only (never to a terminal the UI draws on)."""
    saved = []
    for name in ("opentelemetry.exporter", "opentelemetry.sdk"):
        logger = logging.getLogger(name)
        saved.append((logger, logger.propagate))
        logger.addHandler(handler)
        logger.propagate = False
    return saved


def _chosen_ids() -> Any:
    from opentelemetry.sdk.trace.id_generator import RandomIdGenerator

    class ChosenIds(RandomIdGenerator):  # type: ignore[misc]
        """Hands out the id chosen for the next span (set just before it starts), else a random one."""

        next_span = 0
        next_trace = 0

        def generate_span_id(self) -> int:
            chosen, self.next_span = self.next_span, 0
            return chosen or int(super().generate_span_id())

        def generate_trace_id(self) -> int:
            chosen, self.next_trace = self.next_trace, 0
            return chosen or int(super().generate_trace_id())

    return ChosenIds()


def _reporting(inner: Any, report: Any) -> Any:
    from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult

    class Reporting(SpanExporter):  # type: ignore[misc]
        """The OTLP exporter, calling ``report()`` when a batch is not taken."""

        def export(self, spans: Sequence[ReadableSpan]) -> Any:
            result = inner.export(spans)
            if result is not SpanExportResult.SUCCESS:
                report()
            return result

        def shutdown(self) -> None:
            inner.shutdown()

        def force_flush(self, timeout_millis: int = 30000) -> bool:
            return True

    return Reporting()


def stream_to(
    endpoint: str, store: CallStore, source: Any, options: SpanOptions, err: Any = None
) -> OtlpStream:
    """An :class:`OtlpStream` for a live source: a failure is said once on ``err`` (headless) and in the
    source's state (the status bar), on the loop that feeds the store."""
    holder: list[OtlpStream] = []

    def on_problem(text: str) -> None:
        if err is not None:
            err.write(f"inspector: {text} (the calls keep coming in)\n")
            err.flush()
        loop = holder[0].loop if holder else None
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(source.report_export, text)

    import asyncio

    stream = OtlpStream(store, endpoint, options=options, on_problem=on_problem)
    try:
        stream.loop = asyncio.get_running_loop()  # the store may be fed from a loading thread too
    except RuntimeError:
        pass
    holder.append(stream)
    return stream
