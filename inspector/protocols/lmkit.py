"""LM-Kit.NET tool calls: ToolCall and ToolCallResult records (PascalCase or camelCase) as JSON."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import inspector.protocols.common.jsonfile as _jsonfile
import inspector.protocols.common.reread as _reread
import inspector.protocols.common.values as _values
from inspector.model import values
from inspector.model.events import Event, Malformed, Outcome, RawRef, Request, Result, noted
from inspector.protocols.format import Format
from inspector.protocols.sniffers.lmkit import fields as _fields
from inspector.protocols.sniffers.lmkit import kind as _kind
from inspector.protocols.sniffers.lmkit import sniff
from inspector.textsafe import one_line

NAME = "lmkit"
DESCRIPTION = "LM-Kit.NET ToolCall / ToolCallResult records, JSON or JSON Lines"

_BY_NUMBER = {
    0: Outcome.SUCCESS,
    1: Outcome.ERROR,
    2: Outcome.CANCELED,
    3: Outcome.TIMEOUT,
    4: Outcome.DENIED,
}
_BY_NAME = {
    "success": 0,
    "error": 1,
    "canceled": 2,
    "cancelled": 2,
    "timeout": 3,
    "denied": 4,
}
UNKNOWN_TYPE = "unknown_result_type"


class _Invalid(ValueError):
    """A record that breaks the ToolCall / ToolCallResult shape; becomes a Malformed event."""


# -- the format-module contract ------------------------------------------------------------


def read(path: str) -> Iterator[Event]:
    """Every tool call and result of an LM-Kit JSON or JSON Lines file; bad records become Malformed."""
    for chunk in _jsonfile.read_chunks(path):
        yield from _chunk_events(path, chunk, None)


def decode_line(line: bytes, raw: RawRef) -> list[Event]:
    """The events of one appended JSON Lines line (for following a growing file)."""
    events: list[Event] = []
    for chunk in _jsonfile.line_chunks(line, raw.offset, raw.where):
        events.extend(_chunk_events(raw.source, chunk, line))
    return events


def _chunk_events(path: str, chunk: _jsonfile.Chunk, line: bytes | None) -> Iterator[Event]:
    raw = _raw(path, chunk)
    if chunk.error is not None:
        yield Malformed(chunk.where, chunk.error, source=path, raw=raw)
        return
    if chunk.note is not None:  # bytes not UTF-8, read as U+FFFD: said, and the record kept
        yield Malformed(chunk.where, chunk.note, source=path, raw=raw)
    fields = _fields(chunk.value) if isinstance(chunk.value, dict) else None
    if fields is not None and _kind(fields) is None and _members(chunk.value):
        data = raw.read() if line is None else _line_body(line)
        yield from _container(path, chunk, fields, data)
    else:
        yield from decode(chunk.value, raw)


def redecode(raw: RawRef) -> list[Event]:
    """Decode the one record ``raw`` points at again."""
    value, error, _ = values.loads_noted(_reread.reread(raw))  # as the record was read
    if error is not None:
        return [Malformed(raw.where, error, source=raw.source, raw=raw)]
    return decode(value, raw)


def decode(value: Any, raw: RawRef, inherited: dict[str, Any] | None = None) -> list[Event]:
    """The event of one decoded record; ``inherited`` holds a container's group and time."""
    try:
        return [_decode(value, raw, inherited or {})]
    except _Invalid as exc:
        return [Malformed(raw.where, str(exc), source=raw.source, raw=raw)]


def _raw(path: str, chunk: _jsonfile.Chunk) -> RawRef:
    return RawRef(path, chunk.where, chunk.offset, chunk.length, protocol=NAME)


# -- records and containers ----------------------------------------------------------------


def _members(obj: dict[str, Any]) -> bool:
    return any(isinstance(value, (dict, list)) for value in obj.values())


def _holds_records(member: Any) -> bool:
    """True for a member worth reading: a record, or an array with at least one object in it.

    Other members (metadata objects, lists of tags) are left alone rather than reported.
    """
    if isinstance(member, dict):
        return _kind(_fields(member)) is not None
    return isinstance(member, list) and any(isinstance(item, dict) for item in member)


def _line_body(line: bytes) -> bytes:
    """The bytes of a line's single record: no byte-order mark, no line end."""
    if line.startswith(b"\xef\xbb\xbf"):
        line = line[3:]
    return line.rstrip(b"\r\n")


def _container(path: str, chunk: _jsonfile.Chunk, fields: dict[str, Any], data: bytes) -> Iterator[Event]:
    """A document holding lists of records, e.g. ``{"toolCalls": [...], "results": [...]}``."""
    inherited = {"group": _group(fields), "ts": _ts(fields)}
    found = False
    for key, item in _jsonfile.member_chunks(data, chunk):
        if not _holds_records(chunk.value.get(key)):
            continue
        found = True
        raw = _raw(path, item)
        if item.error is not None:
            yield Malformed(item.where, item.error, source=path, raw=raw)
        else:
            yield from noted(item.note, raw, item.where, decode(item.value, raw, inherited))
    if not found:
        reason = "not an LM-Kit ToolCall or ToolCallResult, and holds no list of them"
        yield Malformed(chunk.where, reason, source=path, raw=_raw(path, chunk))


def _decode(value: Any, raw: RawRef, inherited: dict[str, Any]) -> Request | Result:
    if not isinstance(value, dict):
        raise _Invalid(f"a record must be a JSON object, not {_type_name(value)}")
    fields = _fields(value)
    kind = _kind(fields)
    if kind is None:
        keys = ", ".join(list(value)[:6]) or "none"
        raise _Invalid(f"not an LM-Kit ToolCall or ToolCallResult (keys: {keys})")
    group = _group(fields) or inherited.get("group") or ""
    ts = _ts(fields)
    ts = inherited.get("ts") if ts is None else ts
    if kind == "call":
        return _call(fields, raw, group, ts)
    return _result(fields, raw, group, ts)


def _type_name(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")


def _string(fields: dict[str, Any], key: str, label: str, required: bool = False) -> str:
    value = fields.get(key)
    if value is None:
        if required:
            raise _Invalid(f"missing {label}")
        return ""
    if not isinstance(value, str):
        raise _Invalid(f"{label} must be a string, not {_type_name(value)}")
    if required and not value:
        raise _Invalid(f"empty {label}")
    return value


def _group(fields: dict[str, Any]) -> str:
    for key in ("conversationid", "sessionid"):
        value = fields.get(key)
        if isinstance(value, str) and value:
            return value
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
    return ""


def _ts(fields: dict[str, Any]) -> float | None:
    for key in ("timestamp", "ts", "time"):
        if key in fields:
            return _values.parse_time(fields[key])
    return None


def _json_field(value: Any, blank: str) -> tuple[Any, str | None]:
    """A ``*Json`` field: parsed when it is a string (blank means ``blank``), kept as is otherwise.

    Returns ``(value, note)``; a string that is not JSON is kept raw with a note saying so.
    """
    if not isinstance(value, str):
        return value, None
    if not value.strip():
        return json.loads(blank), None
    parsed, error = _jsonfile.loads(value)
    if error is not None:
        return value, error
    return parsed, None


# -- ToolCall ------------------------------------------------------------------------------


def _call(fields: dict[str, Any], raw: RawRef, group: str, ts: float | None) -> Request:
    call_id = _string(fields, "id", "ToolCall Id", required=True)
    name = _string(fields, "name", "ToolCall Name", required=True)
    args, note = _json_field(fields.get("argumentsjson"), "{}")
    violation = None
    if note is not None:
        violation = f"ArgumentsJson is not valid JSON ({note}); kept as text"
    elif not isinstance(args, dict):
        violation = f"ArgumentsJson is {_type_name(args)}, not a JSON object"
    return Request(
        call_id=call_id,
        tool=name,
        group=group,
        params=args,
        ts=ts,
        raw=raw,
        violation=violation,
        summary=one_line(_values.arguments_summary(args)),
    )


# -- ToolCallResult ------------------------------------------------------------------------


def outcome_of(value: Any) -> Outcome | None:
    """The outcome a ToolCallResultType value (number or name) stands for; None when unknown."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str):
        text = value.strip().lower()
        value = int(text) if text.isascii() and text.isdigit() and len(text) < 4 else _BY_NAME.get(text)
    return _BY_NUMBER.get(value) if isinstance(value, int) else None


def _result(fields: dict[str, Any], raw: RawRef, group: str, ts: float | None) -> Result:
    call_id = _string(fields, "toolcallid", "ToolCallId", required=True)
    tool = _string(fields, "toolname", "ToolName")
    data, note = _json_field(fields.get("resultjson"), "null")
    type_value = fields.get("type")
    outcome = outcome_of(type_value)
    extra: dict[str, Any] = {"type": type_value}
    if note is not None:
        extra["note"] = f"ResultJson is not valid JSON ({note}); kept as text"
    code, message = _failure(outcome, data, extra) if outcome is not Outcome.SUCCESS else (None, None)
    if outcome is None:
        if code is not None:
            extra["payload_error_code"] = code
        outcome, code = Outcome.ERROR, UNKNOWN_TYPE
        shown = "missing" if type_value is None else repr(type_value)
        message = f"unknown result Type {shown}, treated as Error as LM-Kit advises" + (
            f": {message}" if message else ""
        )
    return Result(
        call_id=call_id,
        outcome=outcome,
        group=group,
        data=data,
        error_code=code,
        error_message=message,
        ts=ts,
        raw=raw,
        tool=tool,
        extra=extra,
    )


def _failure(outcome: Outcome | None, data: Any, extra: dict[str, Any]) -> tuple[str | None, str | None]:
    """``(error_code, error_message)`` from the payload LM-Kit recommends for each outcome."""
    if isinstance(data, str):
        return None, data or None
    if not isinstance(data, dict):
        return None, None if data is None else one_line(_values.preview(data, 300), 300)
    if outcome is Outcome.CANCELED:
        return None, _canceled(_payload(data, "canceled", "cancelled"), extra)
    if outcome is Outcome.TIMEOUT:
        return None, _timeout(_payload(data, "timeout"), extra)
    if outcome is Outcome.DENIED:
        return None, _denied(_payload(data, "denied"), extra)
    return _error(data, extra)


def _payload(data: dict[str, Any], *keys: str) -> Any:
    fields = _fields(data)
    for key in keys:
        if key in fields:
            return fields[key]
    return None


def _text(value: Any) -> str | None:
    if isinstance(value, str):
        return value or None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return None


def _error(data: dict[str, Any], extra: dict[str, Any]) -> tuple[str | None, str | None]:
    error = _payload(data, "error")
    if isinstance(error, str):
        return None, error or None
    if not isinstance(error, dict):
        return None, one_line(_values.preview(data, 300), 300) if data else None
    fields = _fields(error)
    if _text(fields.get("type")):
        extra["error_type"] = _text(fields.get("type"))
    if fields.get("data") is not None:
        extra["error_data"] = fields["data"]
    message = _text(fields.get("message"))
    return _text(fields.get("code")), message or one_line(_values.preview(error, 300), 300)


def _canceled(payload: Any, extra: dict[str, Any]) -> str:
    if isinstance(payload, str):
        return f"canceled: {payload}"
    fields = _fields(payload) if isinstance(payload, dict) else {}
    by, reason = _text(fields.get("by")), _text(fields.get("reason"))
    if by:
        extra["canceled_by"] = by
    return "canceled" + (f" by {by}" if by else "") + (f": {reason}" if reason else "")


def _timeout(payload: Any, extra: dict[str, Any]) -> str:
    fields = _fields(payload) if isinstance(payload, dict) else {}
    duration = fields.get("durationms")
    if isinstance(duration, (int, float)) and not isinstance(duration, bool) and duration == duration:
        extra["duration_ms"] = duration
        shown = f"{duration:g}" if isinstance(duration, float) else str(duration)
        return f"timed out after {shown} ms"
    return "timed out"


def _denied(payload: Any, extra: dict[str, Any]) -> str:
    if isinstance(payload, str):
        return f"denied: {payload}"
    fields = _fields(payload) if isinstance(payload, dict) else {}
    tool, reason = _text(fields.get("tool")), _text(fields.get("reason"))
    if tool:
        extra["denied_tool"] = tool
    return "denied" + (f" ({tool})" if tool else "") + (f": {reason}" if reason else "")


FORMAT = Format(NAME, DESCRIPTION, sniff, read, redecode, decode_line=decode_line)
"""This format for the registry (:func:`inspector.protocols.get`)."""
