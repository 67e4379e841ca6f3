"""Alicia over LiveKit: MessagePack envelopes ``{stanzaId, conversationId, type, meta, body}``."""

from __future__ import annotations

import binascii
import json
import re
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import msgpack

from inspector.model.events import (
    Event,
    Executor,
    Malformed,
    Message,
    Outcome,
    RawRef,
    Request,
    Result,
)
from inspector.protocols.alicia_wire import (  # noqa: F401 - the module's public API
    DEFAULT_TIMEOUT_MS,
    MAX_PACKET_BYTES,
    STANDARD_ERROR_CODES,
    TOOL_USE_REQUEST,
    TOOL_USE_RESULT,
    TYPE_NAMES,
    encode_envelope,
    encode_tool_result,
    envelope,
    error_message_for,
    fill_template,
    tool_result_body,
)
from inspector.textsafe import one_line, summarize

NAME = "alicia"
DESCRIPTION = "Alicia envelopes: MessagePack (binary or hex lines) or JSON lines"

_EXECUTORS = {e.value: e for e in Executor}

_EXECUTION_REASON = (
    "execution is REQUIRED and MUST be 'server', 'client' or 'either'; "
    "if it is omitted or unrecognized the receiver MUST reject the message"
)


# -- decoding ------------------------------------------------------------------------------
def unpack(data: bytes) -> Any:
    """Decode MessagePack bytes (one object, or several concatenated: returned as a list)."""
    try:
        return msgpack.unpackb(data, raw=False, strict_map_key=False, unicode_errors="replace")
    except msgpack.ExtraData as extra:
        objects = [extra.unpacked]
        unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, unicode_errors="replace")
        unpacker.feed(extra.extra)
        objects.extend(unpacker)
        return objects


def decode_packet(
    data: bytes,
    *,
    where: str = "",
    ts: float | None = None,
    sender: str = "",
    topic: str | None = None,
    reliable: bool = True,
    source: str = "live",
    raw: RawRef | None = None,
) -> list[Event]:
    """Decode one data packet into events; never raises (bad packets become ``Malformed``)."""
    if raw is None:
        raw = RawRef(source=source, where=where, data=bytes(data), protocol=NAME)
    try:
        obj = unpack(bytes(data))
    except Exception as exc:  # noqa: BLE001 - any decoder failure is the packet's fault
        return [Malformed(where=where, reason=f"not MessagePack: {_reason(exc)}", source=source, raw=raw)]
    return decode_object(
        obj, where=where, source=source, raw=raw, ts=ts, sender=sender, topic=topic, reliable=reliable
    )


def decode_object(
    obj: Any,
    *,
    where: str = "",
    source: str = "",
    raw: RawRef | None = None,
    ts: float | None = None,
    sender: str = "",
    topic: str | None = None,
    reliable: bool = True,
) -> list[Event]:
    """Decode an already-unpacked packet: an envelope, an array of envelopes or a flat message."""
    context = {"ts": ts, "sender": sender, "topic": topic, "reliable": reliable}
    try:
        if isinstance(obj, list):
            events: list[Event] = []
            for index, item in enumerate(obj):
                events.extend(_decode_one(item, f"{where}[{index}]", source, raw, context))
            if not obj:
                events.append(
                    Malformed(where=where, reason="empty array of envelopes", source=source, raw=raw)
                )
            return events
        return _decode_one(obj, where, source, raw, context)
    except RecursionError:
        return [Malformed(where=where, reason="nested too deeply", source=source, raw=raw)]
    except Exception as exc:  # noqa: BLE001 - a decoder bug must not lose the session
        return [Malformed(where=where, reason=f"could not decode: {_reason(exc)}", source=source, raw=raw)]


def _reason(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return one_line(text, 160)


def _decode_one(obj: Any, where: str, source: str, raw: RawRef | None, ctx: dict) -> list[Event]:
    if not isinstance(obj, dict):
        kind = type(obj).__name__
        return [
            Malformed(
                where=where, reason=f"not an Alicia envelope (a {kind}, not a map)", source=source, raw=raw
            )
        ]
    msg_type = obj.get("type")
    if isinstance(msg_type, bool) or not isinstance(msg_type, int):
        return [
            Malformed(where=where, reason="not an Alicia envelope: no integer 'type'", source=source, raw=raw)
        ]
    if "body" in obj:
        body = obj["body"]
        flat = False
    else:
        body = {k: v for k, v in obj.items() if k not in ("type", "stanzaId", "meta")}
        flat = True
    meta = obj.get("meta")
    if not isinstance(meta, dict):
        meta = {}
    stanza = obj.get("stanzaId")
    stanza = stanza if isinstance(stanza, int) and not isinstance(stanza, bool) else None
    conv = obj.get("conversationId")
    if not isinstance(conv, str) and isinstance(body, dict):
        conv = body.get("conversationId")
    group = conv if isinstance(conv, str) else ""
    ts = ctx["ts"] if ctx["ts"] is not None else _meta_time(meta, body)
    sender = ctx["sender"] or _role(stanza)
    extra = {
        "stanzaId": stanza,
        "type": msg_type,
        "conversationId": group,
        "topic": ctx["topic"],
        "reliable": ctx["reliable"],
        "meta": meta,
        "flat": flat,
    }
    if msg_type == TOOL_USE_REQUEST:
        return [_request(body, group, ts, sender, raw, extra, where, source)]
    if msg_type == TOOL_USE_RESULT:
        return [_result(body, group, ts, sender, raw, extra, where, source)]
    return [_message(msg_type, body, group, ts, sender, raw, extra)]


def _role(stanza: int | None) -> str:
    if stanza is None or stanza == 0:
        return ""
    return "client" if stanza > 0 else "agent"


def _meta_time(meta: dict, body: Any) -> float | None:
    value = meta.get("timestamp")
    if value is None and isinstance(body, dict):
        value = body.get("timestamp")
    return parse_time(value)


def parse_time(value: Any) -> float | None:
    """Epoch seconds from an ISO 8601 string, epoch seconds or epoch milliseconds; None if unreadable."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        if value != value or value <= 0:  # NaN or not a time
            return None
        return float(value) / 1000.0 if value > 1e11 else float(value)
    if isinstance(value, str) and value:
        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
        except ValueError:
            return None
    return None


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _request(body: Any, group: str, ts, sender, raw, extra, where, source) -> Event:
    if not isinstance(body, dict):
        return Malformed(where=where, reason="ToolUseRequest body is not a map", source=source, raw=raw)
    call_id = _str(body.get("id")) or _str(body.get("requestId"))
    if not call_id:
        return Malformed(where=where, reason="ToolUseRequest without a text 'id'", source=source, raw=raw)
    problems = []
    tool = _str(body.get("toolName")) or _str(body.get("name"))
    if not tool:
        problems.append("toolName is missing or not text")
        tool = "?"
    params = body.get("parameters", body.get("arguments"))
    if params is None:
        params = {}
    elif not isinstance(params, dict):
        problems.append("parameters must be a map")
    execution = body.get("execution")
    executor = _EXECUTORS.get(execution) if isinstance(execution, str) else None
    if execution is None:
        problems.append(f"no 'execution': {_EXECUTION_REASON}")
    elif executor is None:
        problems.append(f"unknown execution {one_line(repr(execution), 40)}: {_EXECUTION_REASON}")
    timeout = body.get("timeoutMs")
    if timeout is None:
        timeout_ms = DEFAULT_TIMEOUT_MS
    elif isinstance(timeout, int) and not isinstance(timeout, bool) and timeout > 0:
        timeout_ms = timeout
    else:
        problems.append(
            f"timeoutMs must be a positive integer (got {one_line(repr(timeout), 30)}); using 30000"
        )
        timeout_ms = DEFAULT_TIMEOUT_MS
    return Request(
        call_id=call_id,
        tool=tool,
        group=group,
        params=params,
        executor=executor,
        timeout_ms=timeout_ms,
        ts=ts,
        sender=sender,
        raw=raw,
        violation="; ".join(problems) or None,
        summary=summarize(params),
        message_id=_str(body.get("messageId")),
        extra=extra,
    )


_OUTCOMES = {
    "timeout": Outcome.TIMEOUT,
    "timed_out": Outcome.TIMEOUT,
    "canceled": Outcome.CANCELED,
    "cancelled": Outcome.CANCELED,
    "denied": Outcome.DENIED,
    "permission_denied": Outcome.DENIED,
}


def _result(body: Any, group: str, ts, sender, raw, extra, where, source) -> Event:
    if not isinstance(body, dict):
        return Malformed(where=where, reason="ToolUseResult body is not a map", source=source, raw=raw)
    call_id = _str(body.get("id")) or _str(body.get("requestId")) or _str(body.get("toolUseId"))
    if not call_id:
        return Malformed(
            where=where, reason="ToolUseResult without a text 'id' or 'requestId'", source=source, raw=raw
        )
    code = _str(body.get("errorCode"))
    message = _str(body.get("errorMessage"))
    error = body.get("error")
    if isinstance(error, dict):
        code = code or _str(error.get("code"))
        message = message or _str(error.get("message"))
    elif isinstance(error, str) and error:
        message = message or error
    success = body.get("success")
    if not isinstance(success, bool):
        extra["violation"] = "success is missing or not a boolean"
        success = not (code or message or error)
    data = body.get("result", body.get("data"))
    if success:
        outcome = Outcome.SUCCESS
    else:
        outcome = _OUTCOMES.get((code or "").lower(), Outcome.ERROR)
        code = code or "execution_error"
    return Result(
        call_id=call_id,
        outcome=outcome,
        group=group,
        data=data,
        error_code=None if success else code,
        error_message=None if success else message,
        ts=ts,
        sender=sender,
        raw=raw,
        extra=extra,
    )


_TEXT_KEYS = ("content", "text", "message", "reason", "mode")


def _message(msg_type: int, body: Any, group: str, ts, sender, raw, extra) -> Message:
    name = TYPE_NAMES.get(msg_type, f"unknown type {msg_type}")
    text = ""
    if isinstance(body, dict):
        for key in _TEXT_KEYS:
            value = body.get(key)
            if isinstance(value, str) and value:
                text = value
                break
        if msg_type == 1:
            code = body.get("code")
            text = f"{code} {text}".strip() if code is not None else text
        elif msg_type == 4:
            text = "audio chunk"
    elif isinstance(body, str):
        text = body
    return Message(kind=name, text=text[:4000], group=group, ts=ts, sender=sender, raw=raw, extra=extra)


# -- files -----------------------------------------------------------------------------------
_HEX_LINE = re.compile(rb"^(?:(\S+)\s+)?([0-9a-fA-F]+)\s*$")


def sniff(path: str, head: bytes) -> int:
    """Recognise JSON lines of envelopes, hex lines of MessagePack, or a binary MessagePack stream."""
    first = next((line for line in head.splitlines() if line.strip()), b"")
    stripped = first.strip()
    if stripped.startswith(b"{"):
        if b'"stanzaId"' in stripped or (
            b'"type"' in stripped and b'"body"' in stripped and b'"conversationId"' in stripped
        ):
            return 60
        return 0
    match = _HEX_LINE.match(stripped)
    if match and len(match.group(2)) >= 4 and len(match.group(2)) % 2 == 0:
        try:
            obj = unpack(binascii.unhexlify(match.group(2)))
        except Exception:  # noqa: BLE001
            return 0
        return 55 if isinstance(obj, (dict, list)) else 0
    if head[:1] and (0x80 <= head[0] <= 0x9F or head[0] in (0xDC, 0xDD, 0xDE, 0xDF)):
        unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, unicode_errors="replace")
        unpacker.feed(head)
        try:
            obj = next(unpacker)
        except Exception:  # noqa: BLE001
            return 0
        if isinstance(obj, dict) and "type" in obj:
            return 45
    return 0


def read(path: str) -> Iterator[Event]:
    """Read a file of Alicia packets (JSON lines, hex lines, or binary MessagePack)."""
    with open(path, "rb") as fh:
        head = fh.read(4096)
    first = next((line for line in head.splitlines() if line.strip()), b"").strip()
    if first.startswith(b"{") or _HEX_LINE.match(first):
        yield from _read_lines(path)
    else:
        yield from _read_binary(path)


def _read_lines(path: str) -> Iterator[Event]:
    offset = 0
    with open(path, "rb") as fh:
        for number, line in enumerate(fh, start=1):
            length = len(line)
            raw = RawRef(source=path, where=f"line {number}", offset=offset, length=length, protocol=NAME)
            offset += length
            if line.strip():
                yield from decode_line(line, raw)


def decode_line(line: bytes, raw: RawRef) -> list[Event]:
    """Decode one line: a JSON envelope, or hex MessagePack optionally after a label."""
    stripped = line.strip()
    where = raw.where
    if stripped.startswith((b"{", b"[")):
        try:
            obj = json.loads(stripped)
        except (ValueError, RecursionError) as exc:
            return [Malformed(where=where, reason=f"not JSON: {_reason(exc)}", source=raw.source, raw=raw)]
        return decode_object(obj, where=where, source=raw.source, raw=raw)
    match = _HEX_LINE.match(stripped)
    if not match:
        return [
            Malformed(
                where=where, reason="neither a JSON envelope nor hex MessagePack", source=raw.source, raw=raw
            )
        ]
    label = match.group(1).decode("utf-8", "replace") if match.group(1) else ""
    try:
        data = binascii.unhexlify(match.group(2))
    except (binascii.Error, ValueError) as exc:
        return [Malformed(where=where, reason=f"bad hex: {_reason(exc)}", source=raw.source, raw=raw)]
    events = decode_packet(data, where=f"{where} {label}".strip(), source=raw.source, raw=raw)
    return events


def _read_binary(path: str) -> Iterator[Event]:
    with open(path, "rb") as fh:
        data = fh.read()
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, unicode_errors="replace")
    unpacker.feed(data)
    number = 0
    position = 0
    while True:
        number += 1
        try:
            obj = unpacker.unpack()
        except msgpack.OutOfData:
            if position < len(data):
                yield Malformed(
                    where=f"packet {number}", reason="truncated MessagePack at end of file", source=path
                )
            return
        except Exception as exc:  # noqa: BLE001
            yield Malformed(where=f"packet {number}", reason=f"not MessagePack: {_reason(exc)}", source=path)
            return
        end = unpacker.tell()
        raw = RawRef(
            source=path, where=f"packet {number}", offset=position, length=end - position, protocol=NAME
        )
        position = end
        yield from decode_object(obj, where=raw.where, source=path, raw=raw)


def redecode(raw: RawRef) -> list[Event]:
    """Decode one stored packet or line again."""
    data = raw.read()
    if raw.data is not None or raw.where.startswith("packet"):
        return decode_packet(data, where=raw.where, source=raw.source, raw=raw)
    return decode_line(data, raw)
