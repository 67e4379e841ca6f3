"""OTLP JSON: what agents emit over OpenTelemetry, read as tool calls.

The layout of the OpenTelemetry file exporter and the Collector's ``file`` exporter: one ``TracesData``
(``resourceSpans``) or ``LogsData`` (``resourceLogs``) JSON object per line, ids in hex, 64-bit integers
as strings. What becomes a call:

- spans: GenAI ``execute_tool`` spans (``gen_ai.tool.call.id``, also the older ``gen_ai.tool.call_id``)
  and Claude Code's ``claude_code.tool`` spans (``tool_use_id``); a tool span under another tool span
  (through any spans between them: a subagent's interaction) is nested under that call;
- log events: Claude Code's ``claude_code.tool_result`` / ``claude_code.tool_decision`` (joined by
  ``tool_use_id``: a rejected call has only its decision) and Codex's ``codex.tool_result`` /
  ``codex.tool_decision`` (by ``call_id``, with ``arguments``, ``output``, ``duration_ms``, ``success``).

A file is read whole (its spans known together, so a parent found in a later line still nests its
children, and the calls come in time order); lines decoded one at a time (the OTLP receiver's, and a
followed file's: the decoder that read the file goes on with its appended lines) go through the same
:class:`Decoder`, which keeps what it saw and sends an ``Adopt`` when a parent arrives after its children. Where each field comes from: tests/fixtures/otlp/README.md.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import inspector.protocols.common.jsonfile as _jsonfile
import inspector.protocols.common.reread as _reread
from inspector.model import values
from inspector.model.events import Adopt, Event, Malformed, Outcome, RawRef, Request, Result, Skipped, noted
from inspector.model.values import loads_text, time_s
from inspector.protocols.common.values import arguments_summary, parse_time
from inspector.protocols.format import Format
from inspector.protocols.sniffers.otlp import sniff
from inspector.textsafe import one_line

if TYPE_CHECKING:
    from inspector.protocols.codex.ends import State as CodexState

NAME = "otlp"
DESCRIPTION = "OTLP JSON (file exporter: TracesData / LogsData per line): GenAI and Claude Code tool spans, Claude Code and Codex tool events"

ERROR_TYPES = {
    "denied": Outcome.DENIED,
    "rejected": Outcome.DENIED,
    "timed_out": Outcome.TIMEOUT,
    "timeout": Outcome.TIMEOUT,
    "canceled": Outcome.CANCELED,
    "cancelled": Outcome.CANCELED,
    "aborted": Outcome.CANCELED,
}
"""A span's ``error.type`` that says more than "failed"."""

STATUS_ERROR = 2
MAX_DEPTH = 64
"""Nested ``arrayValue`` / ``kvlistValue`` levels read in an attribute value."""
UNFINISHED = "inspector.call.unfinished"
"""Set by ``inspector export-otlp`` on the span of a call that had no result: read back, it has none."""


# -- the format-module contract ------------------------------------------------------------


def read(path: str) -> Iterator[Event]:
    """Every call of an OTLP JSON file, in time order; a bad line is one Malformed event."""
    decoder = Decoder()
    lines: list[tuple[Any, RawRef]] = []
    # a bad line is said as it comes (before every call, as ever): a flood of them is not held to the end
    for chunk in _jsonfile.read_chunks(path):
        raw = RawRef(path, chunk.where, chunk.offset, chunk.length, protocol=NAME)
        if chunk.error is not None:
            yield Malformed(chunk.where, chunk.error, source=path, raw=raw)
            continue
        if chunk.note is not None:  # bytes not UTF-8, read as U+FFFD: said, and the line kept
            yield Malformed(chunk.where, chunk.note, source=path, raw=raw)
        if not _is_otlp(chunk.value):
            yield Malformed(
                chunk.where, "not TracesData or LogsData (no resourceSpans or resourceLogs)", path, raw
            )
            continue
        decoder.index(chunk.value)
        lines.append((chunk.value, raw))
    events: list[Event] = []
    for value, raw in lines:
        events += decoder.decode(value, raw)
    _remember(path, decoder)
    yield from _in_time_order(events, decoder)


_FOLLOWED_KEPT = 16
_FOLLOWED: dict[str, Decoder] = {}
"""Per file read or followed, the decoder that read it: a line appended later is decoded knowing the
spans before it, so a subagent's span nests under its call across lines as in a file read at once
(a parent that comes after its children adopts them)."""


def _remember(path: str, decoder: Decoder) -> None:
    """Keep the decoder of ``path`` for its follow; the files read last only."""
    _FOLLOWED.pop(path, None)
    _FOLLOWED[path] = decoder
    while len(_FOLLOWED) > _FOLLOWED_KEPT:
        del _FOLLOWED[next(iter(_FOLLOWED))]


def decode_line(line: bytes, raw: RawRef) -> list[Event]:
    """The calls of one line appended to a followed file (a line is a whole TracesData or LogsData),
    decoded by the decoder that read the lines before it (line 1: a new file, or the old one started
    again, gets a new one)."""
    events: list[Event] = []
    decoder = None if raw.where == "line 1" else _FOLLOWED.get(raw.source)
    if decoder is None:
        decoder = Decoder()
        _remember(raw.source, decoder)
    for chunk in _jsonfile.line_chunks(line, raw.offset, raw.where):
        one = RawRef(raw.source, chunk.where, chunk.offset, chunk.length, protocol=NAME)
        if chunk.error is not None:
            events.append(Malformed(chunk.where, chunk.error, source=raw.source, raw=one))
        else:
            events += noted(chunk.note, one, chunk.where, decoder.feed(chunk.value, one))
    return events


def redecode(raw: RawRef) -> list[Event]:
    """Decode the one line ``raw`` points at again (its calls, with their payloads)."""
    value, error = loads_text(_text(_reread.reread(raw)), record=True)
    if error is not None:
        return [Malformed(raw.where, error, source=raw.source, raw=raw)]
    return Decoder().feed(value, raw)


def _text(data: bytes | str) -> str:
    return values.text_noted(data)[0]  # bad bytes as its read made them


def _is_otlp(value: Any) -> bool:
    return isinstance(value, dict) and ("resourceSpans" in value or "resourceLogs" in value)


# -- OTLP JSON values ----------------------------------------------------------------------


def any_value(value: Any, depth: int = 0) -> Any:
    """The Python value of an OTLP ``AnyValue`` object (``{"stringValue": ...}`` and the others); past
    ``MAX_DEPTH`` nested arrays or lists, the rest is left out (None)."""
    if not isinstance(value, dict) or not value or depth > MAX_DEPTH:
        return None
    kind, inner = next(iter(value.items()))
    if kind in ("intValue", "doubleValue"):
        try:
            return int(inner) if kind == "intValue" else float(inner)
        except (TypeError, ValueError, OverflowError):
            return inner
    if kind in ("arrayValue", "kvlistValue"):
        values = inner.get("values") if isinstance(inner, dict) else None
        if not isinstance(values, list):
            return None
        if kind == "arrayValue":
            return [any_value(v, depth + 1) for v in values]
        return attributes(values, depth + 1)
    return inner


def attributes(pairs: Any, depth: int = 0) -> dict[str, Any]:
    """An OTLP attribute list (``[{"key": k, "value": AnyValue}]``) as a dict."""
    found: dict[str, Any] = {}
    if isinstance(pairs, list):
        for pair in pairs:
            if isinstance(pair, dict) and isinstance(pair.get("key"), str):
                found[pair["key"]] = any_value(pair.get("value"), depth)
    return found


def _unknown_end(value: Any, start: float | None, end: float | None) -> str | None:
    """Why a span's end time is unknown (None: it is known), saying what ``value`` holds, cut short."""
    if end is not None and time_s(end) is not None and (start is None or end >= start):
        return None
    if value is None:
        return "no end time"
    shown = one_line(repr(value), 60)
    if end is not None and time_s(end) is not None:
        return f"its end time {shown} is before its start"
    return f"its end time {shown} is not a time"


def _nanos(value: Any) -> float | None:
    try:
        seconds = int(value) / 1e9
    except (TypeError, ValueError, OverflowError):
        return None
    return seconds if seconds > 0 else None


def _text_of(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _payload(value: Any) -> Any:
    """A JSON string (arguments, parameters) as its value; any other text stays text."""
    if isinstance(value, str) and value[:1] in ("{", "["):
        parsed, error = loads_text(value)
        if error is None:
            return parsed
    return value


def _true(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return None


# -- decoding ------------------------------------------------------------------------------


@dataclass
class _Span:
    parent: str
    call_id: str | None  # a tool span's call id, else None
    group: str


class Decoder:
    """Turns OTLP JSON values into events, keeping what it saw: spans by id (to nest a tool span under
    the tool span it runs beneath), the calls already requested (to join a result to its decision)."""

    def __init__(self) -> None:
        self.spans: dict[str, _Span] = {}
        self.call_spans: dict[str, str] = {}  # a tool span's call id -> its span id
        self.verdicts: dict[
            str, tuple[Outcome, str]
        ] = {}  # a claude_code.tool span id -> its children's verdict
        self.arguments: dict[tuple[str, str], Any] = {}  # a logged call's arguments, from its tool_result
        self.requested: set[tuple[str, str]] = set()
        # a logged call requested without its arguments (its decision came in an earlier body than its
        # tool_result: live, or a followed file): the tool_result that brings them fills them in
        self.bare: dict[tuple[str, str], Request] = {}
        self.codex: dict[str, CodexState] = {}  # by conversation: Codex's processes still running
        self.unplaced: dict[
            str, tuple[str, str]
        ] = {}  # span id -> (group, call id) with no parent call found

    def feed(self, value: Any, raw: RawRef) -> list[Event]:
        """The events of one value seen alone, and the adoptions its spans make possible."""
        if not _is_otlp(value):
            return [
                Malformed(
                    raw.where,
                    "not TracesData or LogsData (no resourceSpans or resourceLogs)",
                    raw.source,
                    raw,
                )
            ]
        self.index(value)
        events = self.decode(value, raw)
        return events + self._adoptions()

    def index(self, value: Any) -> None:
        """Learn the spans of ``value`` (ids, parents, tool call ids) before decoding anything."""
        for resource, span in _spans(value):
            span_id = _text_of(span.get("spanId"))
            if not span_id:
                continue
            attrs = attributes(span.get("attributes"))
            call_id = _span_call_id(span, attrs)
            group = _group(attrs, resource) or _text_of(span.get("traceId"))
            self.spans[span_id] = _Span(_text_of(span.get("parentSpanId")), call_id, group)
            if call_id is not None:
                self.call_spans[call_id] = span_id
            verdict = _child_verdict(span, attrs)
            if verdict is not None and span.get("parentSpanId"):
                self.verdicts[_text_of(span.get("parentSpanId"))] = verdict
        for resource, record in _records(value):
            attrs = attributes(record.get("attributes"))
            if _event_name(record, attrs).endswith("tool_result"):
                call_id = _text_of(attrs.get("tool_use_id")) or _text_of(attrs.get("call_id"))
                found = attrs.get("arguments", attrs.get("tool_input", attrs.get("tool_parameters")))
                if call_id and found is not None:
                    self.arguments[(_group(attrs, resource), call_id)] = found

    def parent_call(self, span_id: str) -> tuple[str | None, bool]:
        """The call id of the nearest tool span above ``span_id``, and whether the walk reached a root
        (False: it stopped at a span not seen yet, which may still turn out to be a tool span)."""
        seen: set[str] = set()
        current = self.spans.get(span_id)
        while current is not None and current.parent and current.parent not in seen:
            seen.add(current.parent)
            above = self.spans.get(current.parent)
            if above is None:
                return None, False
            if above.call_id is not None:
                return above.call_id, True
            current = above
        return None, True

    def decode(self, value: Any, raw: RawRef) -> list[Event]:
        events: list[Event] = []
        for resource, span in _spans(value):
            events += self._span(resource, span, raw)
        for resource, record in _records(value):
            events += self._record(resource, record, raw)
        return events

    def _span(self, resource: dict[str, Any], span: dict[str, Any], raw: RawRef) -> list[Event]:
        attrs = attributes(span.get("attributes"))
        call_id = _span_call_id(span, attrs)
        if call_id is None:
            return [Skipped(f"span {_text_of(span.get('name'))[:60] or '?'}", raw.where)]
        span_id = _text_of(span.get("spanId"))
        group = _group(attrs, resource) or _text_of(span.get("traceId"))
        parent, complete = self.parent_call(span_id) if span_id else (None, True)
        if parent is None and not complete:
            self.unplaced[span_id] = (group, call_id)
        tool = _text_of(attrs.get("gen_ai.tool.name")) or _text_of(attrs.get("tool_name")) or "?"
        start, end = _nanos(span.get("startTimeUnixNano")), _nanos(span.get("endTimeUnixNano"))
        args = attrs.get("gen_ai.tool.call.arguments", attrs.get("tool_input", attrs.get("tool_parameters")))
        params = _payload(args)
        request = Request(
            call_id,
            tool,
            group=group,
            params=params,
            ts=start,
            sender=_text_of(resource.get("service.name")),
            raw=raw,
            parent_id=parent,
            summary=arguments_summary(params) if params is not None else "",
        )
        self.requested.add((group, call_id))
        if attrs.get(UNFINISHED) is True:  # the inspector's own export of a call with no result
            return [request]
        # An exported span has ended (an SDK exports a span when it ends): an end that cannot be read
        # (missing, not a number, negative, past 9999, before the start) is unknown, not pending.
        unknown = _unknown_end(span.get("endTimeUnixNano"), start, end)
        if unknown is not None:
            end = None
        status = _status(span)
        failed = (
            status.get("code") in (STATUS_ERROR, "STATUS_CODE_ERROR") or _true(attrs.get("success")) is False
        )
        error_type = _text_of(attrs.get("error.type"))
        outcome = ERROR_TYPES.get(error_type, Outcome.ERROR) if failed or error_type else Outcome.SUCCESS
        message = _text_of(status.get("message")) or _text_of(attrs.get("error")) or None
        verdict = self.verdicts.get(span_id)
        if verdict is not None and outcome is Outcome.SUCCESS:  # Claude Code: the outcome is its children's
            outcome, message = verdict[0], verdict[1] or message
        result = Result(
            call_id,
            outcome,
            group=group,
            data=_payload(attrs.get("gen_ai.tool.call.result")),
            error_code=error_type or None,
            error_message=message if outcome is not Outcome.SUCCESS else None,
            ts=end,
            sender=request.sender,
            raw=raw,
            tool=tool,
        )
        if unknown is not None:
            note = f"span {span_id or call_id}: {unknown}: shown ended, its end unknown"
            return [request, Malformed(raw.where, note, raw.source, raw), result]
        return [request, result]

    def _record(self, resource: dict[str, Any], record: dict[str, Any], raw: RawRef) -> list[Event]:
        attrs = attributes(record.get("attributes"))
        name = _event_name(record, attrs)
        kind = name.rpartition(".")[2]
        if kind not in ("tool_result", "tool_decision"):
            return [Skipped(f"log {name[:60] or '?'}", raw.where)]
        call_id = _text_of(attrs.get("tool_use_id")) or _text_of(attrs.get("call_id"))
        tool = _text_of(attrs.get("tool_name")) or "?"
        space = _text_of(attrs.get("tool_namespace"))
        if name.startswith("codex.") and space.startswith("mcp__") and not tool.startswith(space):
            tool = f"{space}__{tool}"  # an MCP tool by the qualified name the rollout gives it
        if not call_id:
            return [Malformed(raw.where, f"{name} without tool_use_id or call_id", raw.source, raw)]
        group = _group(attrs, resource)
        sender = _text_of(resource.get("service.name"))
        ts = parse_time(attrs.get("event.timestamp")) or _nanos(record.get("timeUnixNano"))
        ts = ts or _nanos(record.get("observedTimeUnixNano"))
        key = (group, call_id)
        events: list[Event] = []
        params = _payload(attrs.get("arguments", attrs.get("tool_input", attrs.get("tool_parameters"))))
        if params is None:
            params = _payload(self.arguments.get(key))
        if name.startswith("codex."):  # a shell argv as one command line, as the rollout reader shows it
            from inspector.protocols.codex.calls import params as codex_params  # only for Codex's events

            params = codex_params(tool, params)
        if kind == "tool_decision":
            decision = _text_of(attrs.get("decision")).lower()
            if key not in self.requested:
                self.requested.add(key)
                request = _log_request(call_id, tool, group, params, ts, sender, raw)
                events.append(request)
                if params is None:
                    self.bare[key] = request
            if decision in ("reject", "denied", "abort"):
                self.bare.pop(key, None)
                outcome = Outcome.CANCELED if decision == "abort" else Outcome.DENIED
                source = _text_of(attrs.get("source"))
                reason = f"{decision} ({source})" if source else decision
                events.append(
                    Result(
                        call_id,
                        outcome,
                        group=group,
                        error_message=reason,
                        ts=ts,
                        sender=sender,
                        raw=raw,
                        tool=tool,
                    )
                )
            return events
        duration = attrs.get("duration_ms")
        try:
            took = float(duration) / 1000.0 if duration is not None else None
        except (TypeError, ValueError, OverflowError):
            took = None
        if took is not None and not math.isfinite(took):
            took = None
        if key not in self.requested:
            self.requested.add(key)
            start = ts - took if ts is not None and took is not None else ts
            events.append(_log_request(call_id, tool, group, params, start, sender, raw))
        bare = self.bare.pop(key, None)
        if bare is not None and params is not None and bare.params is None:
            # the call is shown already: its request takes the arguments before the result is threaded
            bare.params = params
            bare.summary = arguments_summary(params)
        ok = _true(attrs.get("success"))
        output = attrs.get("output")
        if name.startswith("codex.") and isinstance(output, str):
            return events + self._codex_output(call_id, tool, group, params, output, ok, ts, sender, raw)
        error = _text_of(attrs.get("error")) or (_text_of(output) if ok is False else "")
        events.append(
            Result(
                call_id,
                Outcome.ERROR if ok is False else Outcome.SUCCESS,
                group=group,
                data=output,
                error_code=_text_of(attrs.get("error_type")) or None,
                error_message=error or None,
                ts=ts,
                sender=sender,
                raw=raw,
                tool=tool,
            )
        )
        return events

    def _codex_output(
        self,
        call_id: str,
        tool: str,
        group: str,
        params: Any,
        output: str,
        ok: bool | None,
        ts: float | None,
        sender: str,
        raw: RawRef,
    ) -> list[Event]:
        """A ``codex.tool_result`` read as the rollout reader reads the same output: Codex says
        ``success`` true for a command that ran and exited non-zero ("Process exited with code 3"), so
        the outcome, exit code, message and shown output come from the output text (``success`` false
        fails it still); a process still running ("Process running with session ID 7") keeps its call
        open under a note until a poll of that session (``write_stdin``) reports its exit."""
        from inspector.protocols.codex import ends  # the rollout reader's, imported only for Codex's events

        state = self.codex.get(group)
        if state is None:
            state = self.codex[group] = ends.State(group=group)
        state.tools[call_id] = tool
        if tool in ends.POLLERS and isinstance(params, dict):
            kind, keys = ends.POLLERS[tool]
            target = next((params[key] for key in keys if key in params), None)
            if isinstance(target, (int, str)) and not isinstance(target, bool):
                state.polls[call_id] = (kind, str(target))
        found: list[Event] = list(ends.output(call_id, output, None, ts, raw, state))
        for event in found:
            if isinstance(event, Result):
                event.sender = sender
                if event.call_id == call_id and ok is False and event.outcome is Outcome.SUCCESS:
                    event.outcome = Outcome.ERROR
                    event.error_message = one_line(output)[:200] or "failed"
        return found

    def _adoptions(self) -> list[Event]:
        found: list[Event] = []
        for span_id, (group, call_id) in list(self.unplaced.items()):
            parent, complete = self.parent_call(span_id)
            if parent is not None:
                found.append(Adopt(group, call_id, parent))
            if complete:
                del self.unplaced[span_id]
        return found


def _log_request(
    call_id: str, tool: str, group: str, params: Any, ts: float | None, sender: str, raw: RawRef
) -> Request:
    summary = arguments_summary(params) if params is not None else ""
    return Request(call_id, tool, group=group, params=params, ts=ts, sender=sender, raw=raw, summary=summary)


def _spans(value: Any) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    for resource_spans in _list(value, "resourceSpans"):
        resource = _resource(resource_spans)
        for scope in _list(resource_spans, "scopeSpans") or _list(
            resource_spans, "instrumentationLibrarySpans"
        ):
            for span in _list(scope, "spans"):
                yield resource, span


def _records(value: Any) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    for resource_logs in _list(value, "resourceLogs"):
        resource = _resource(resource_logs)
        for scope in _list(resource_logs, "scopeLogs"):
            for record in _list(scope, "logRecords"):
                yield resource, record


def _resource(group: dict[str, Any]) -> dict[str, Any]:
    found = group.get("resource")
    return attributes(found.get("attributes")) if isinstance(found, dict) else {}


def _list(value: Any, key: str) -> list[dict[str, Any]]:
    found = value.get(key) if isinstance(value, dict) else None
    return [item for item in found if isinstance(item, dict)] if isinstance(found, list) else []


def _span_call_id(span: dict[str, Any], attrs: dict[str, Any]) -> str | None:
    """The call id of a tool span (GenAI execute_tool, Claude Code claude_code.tool), else None."""
    name = _text_of(span.get("name"))
    tool_span = (
        attrs.get("gen_ai.operation.name") == "execute_tool"
        or name.startswith("execute_tool")
        or name == "claude_code.tool"
    )
    if not tool_span:
        return None
    for key in ("gen_ai.tool.call.id", "gen_ai.tool.call_id", "tool_use_id"):
        found = attrs.get(key)
        if isinstance(found, str) and found:
            return found
    return _text_of(span.get("spanId")) or None  # a tool span without a call id: its own span id


def _status(span: dict[str, Any]) -> dict[str, Any]:
    found = span.get("status")
    return found if isinstance(found, dict) else {}


def _child_verdict(span: dict[str, Any], attrs: dict[str, Any]) -> tuple[Outcome, str] | None:
    """What a Claude Code tool span's child says of the call: ``claude_code.tool.blocked_on_user`` with
    ``decision`` reject (denied), ``claude_code.tool.execution`` with ``success`` false or status ERROR."""
    name = _text_of(span.get("name"))
    if name == "claude_code.tool.blocked_on_user":
        decision = _text_of(attrs.get("decision")).lower()
        if decision == "reject":
            source = _text_of(attrs.get("source"))
            return Outcome.DENIED, f"rejected ({source})" if source else "rejected"
        return None
    if name == "claude_code.tool.execution":
        status = _status(span)
        if _true(attrs.get("success")) is False or status.get("code") in (STATUS_ERROR, "STATUS_CODE_ERROR"):
            return Outcome.ERROR, _text_of(attrs.get("error")) or _text_of(status.get("message"))
    return None


def _group(attrs: dict[str, Any], resource: dict[str, Any]) -> str:
    for key in ("gen_ai.conversation.id", "session.id", "conversation.id"):
        for source in (attrs, resource):
            found = source.get(key)
            if isinstance(found, str) and found:
                return found
    return ""


_TOOL_EVENTS = ("tool_result", "tool_decision")


def _event_name(record: dict[str, Any], attrs: dict[str, Any]) -> str:
    """``codex.tool_result`` from whichever of the record's body, its ``event.name`` attribute and its
    ``eventName`` field names a tool event, the one with the agent's prefix first (Claude Code puts the
    short name in the attribute and the full one in the body; Codex, through the tracing bridge, the full
    one in the attribute and the call site in ``eventName``: ``event otel/src/tool_result.rs:54``);
    another event by its ``event.name``, else its ``eventName``."""
    body = any_value(record.get("body"))
    named = _text_of(attrs.get("event.name"))
    field_name = _text_of(record.get("eventName"))
    found = [n for n in (body, named, field_name) if isinstance(n, str) and n.endswith(_TOOL_EVENTS)]
    if found:
        return next((n for n in found if "." in n), found[0])
    return named or field_name


def _in_time_order(events: list[Event], decoder: Decoder) -> list[Event]:
    """Events by time (a parent request before its children at the same instant); an untimed event
    keeps the time of the one before it."""
    keyed = []
    last = float("-inf")
    for seq, event in enumerate(events):
        ts = getattr(event, "ts", None)
        last = ts if isinstance(ts, float) else last
        depth = 0
        if isinstance(event, Request):
            parent = event.parent_id
            while parent is not None and depth < 64:
                depth += 1
                span_id = decoder.call_spans.get(parent)
                parent = decoder.parent_call(span_id)[0] if span_id else None
        keyed.append((last, 0 if isinstance(event, Request) else 1, depth, seq, event))
    keyed.sort(key=lambda entry: entry[:4])
    return [entry[4] for entry in keyed]


FORMAT = Format(
    name=NAME,
    description=DESCRIPTION,
    sniff=sniff,
    read=read,
    redecode=redecode,
    decode_line=decode_line,
)
