"""Decoding Alicia envelopes of both generations: the documented ``{stanzaId, conversationId, type, meta,
body}`` and the coded one (no stanzaId, W3C trace context, session/user ids; longregen/alicia
shared/protocol/envelope.go)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import inspector.protocols.common.msgdepth as _msgdepth
from inspector.model import values
from inspector.model.events import Event, Malformed, Message, RawRef
from inspector.protocols.alicia.calls import decode_request, decode_result
from inspector.protocols.alicia.wire import TOOL_USE_REQUEST, TOOL_USE_RESULT, type_name
from inspector.protocols.sniffers.alicia import unpack
from inspector.textsafe import one_line

NAME = "alicia"

MALFORMED_PER_PACKET = 20
"""A packet of many values that are not envelopes (a hostile peer concatenating 200,000 tiny values into
one frame) lists this many as malformed records, then one record that counts the rest: the good
envelopes of a batch still decode, and one packet cannot flood the list."""


# -- decoding ------------------------------------------------------------------------------
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
    return unpack_packet(
        data, where=where, ts=ts, sender=sender, topic=topic, reliable=reliable, source=source, raw=raw
    )[1]


def unpack_packet(
    data: bytes,
    *,
    where: str = "",
    ts: float | None = None,
    sender: str = "",
    topic: str | None = None,
    reliable: bool = True,
    source: str = "live",
    raw: RawRef | None = None,
) -> tuple[Any, list[Event]]:
    """:func:`decode_packet`'s events with the packet's MessagePack value (None for another app's text or
    bytes that are no MessagePack): what a recording keeps of a packet beside its bytes."""
    data = bytes(data)
    if raw is None:
        raw = RawRef(source=source, where=where, data=data, protocol=NAME)
    other = foreign_text(data, ts=ts, sender=sender, topic=topic, reliable=reliable, raw=raw)
    if other is not None:
        return None, [other]
    try:
        obj, note = unpack_noted(data)
    except Exception as exc:  # noqa: BLE001 - any decoder failure is the packet's fault
        reason = f"not MessagePack: {reason_of(exc)}"
        return None, [Malformed(where=where, reason=reason, source=source, raw=raw)]
    events = decode_object(
        obj, where=where, source=source, raw=raw, ts=ts, sender=sender, topic=topic, reliable=reliable
    )
    if note is not None:  # a string not UTF-8, read as U+FFFD: said, and the packet kept
        events.insert(0, Malformed(where=where, reason=note, source=source, raw=raw))
    return obj, events


FOREIGN = "not Alicia"
"""The kind of a message made of a packet that is text, not MessagePack (another app's data in the room)."""

_CONTROLS = frozenset(range(0x20)) - {0x09, 0x0A, 0x0D} | {0x7F}


def foreign_text(
    data: bytes,
    *,
    ts: float | None = None,
    sender: str = "",
    topic: str | None = None,
    reliable: bool = True,
    raw: RawRef | None = None,
) -> Message | None:
    """A packet that is UTF-8 text (JSON, or words) as one message saying so, else None.

    A room's data channel also carries other apps' data (LiveKit's chat on ``lk.chat``, a status line):
    read as MessagePack, each ASCII byte of it is an integer, and one chat line became twenty malformed
    records and a count of the rest. No Alicia packet is such text: an envelope starts with a map's
    byte (0x80-0x8F, 0xDE, 0xDF), never the start of a UTF-8 character."""
    if not data or (data[0] >= 0x80 and not 0xC2 <= data[0] <= 0xF4):  # not the start of a character
        return None
    if any(byte in _CONTROLS for byte in data[:4096]):
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if any(ord(char) in _CONTROLS for char in text):
        return None
    what = "text"
    stripped = text.strip()
    if stripped[:1] in ("{", "[", '"'):
        import json

        try:
            json.loads(stripped)
        except ValueError:
            pass
        else:
            what = "JSON"
    where = f" on topic {one_line(topic, 80)}" if topic else ""
    extra = {"topic": topic, "reliable": reliable, "foreign": what}
    words = f"{len(data):,} bytes of {what}{where}, not an Alicia envelope: {text}"
    return Message(kind=FOREIGN, text=words, ts=ts, sender=sender, raw=raw, extra=extra)


def unpack_noted(data: bytes) -> tuple[Any, str | None]:
    """A packet's MessagePack value, and a note when a string of it was not UTF-8 (read with U+FFFD for
    each bad byte, as every reader reads bytes: ``values.text_noted``) or a value was nested past the
    unpacker's depth (what is past ``values.MAX_DEPTH`` read as a stand-in, as a JSON record's is). The one
    way a packet is unpacked to be shown (a file's, a recording's, a room's, a hub's); raises what msgpack
    raises otherwise."""
    try:
        return _unpack_utf8_noted(data)
    except ValueError as exc:
        if type(exc).__name__ != "StackError":
            raise
        found = _msgdepth.shallow_all(data)
        if found is None:
            raise
    obj, note = _unpack_utf8_noted(found[0])
    return obj, "; ".join(filter(None, [values.deep_note(found[1]), note]))


def _unpack_utf8_noted(data: bytes) -> tuple[Any, str | None]:
    try:
        return unpack(data, "strict"), None
    except UnicodeDecodeError as exc:
        obj = values.valid(unpack(data, "surrogateescape"))
        at = data.find(exc.object) if isinstance(exc.object, bytes) else -1
        return obj, values.utf8_note(at + exc.start if at >= 0 else exc.start)


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
            bad = 0
            for index, item in enumerate(obj):
                decoded = _decode_one(item, f"{where}[{index}]", source, raw, context)
                if len(decoded) == 1 and isinstance(decoded[0], Malformed):
                    bad += 1
                    if bad > MALFORMED_PER_PACKET:
                        continue
                events.extend(decoded)
            if bad > MALFORMED_PER_PACKET:
                more = bad - MALFORMED_PER_PACKET
                reason = f"{more} more items of this packet are not envelopes either (not listed one by one)"
                events.append(Malformed(where=where, reason=reason, source=source, raw=raw))
            if not obj:
                events.append(
                    Malformed(where=where, reason="empty array of envelopes", source=source, raw=raw)
                )
            return events
        return _decode_one(obj, where, source, raw, context)
    except RecursionError:
        return [Malformed(where=where, reason="nested too deeply", source=source, raw=raw)]
    except Exception as exc:  # noqa: BLE001 - a decoder bug must not lose the session
        return [Malformed(where=where, reason=f"could not decode: {reason_of(exc)}", source=source, raw=raw)]


def reason_of(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return one_line(text, 160)


def _decode_one(obj: Any, where: str, source: str, raw: RawRef | None, ctx: dict[str, Any]) -> list[Event]:
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
    trace = trace_context(obj, meta, body)
    if trace:
        extra["trace"] = trace
    for key, json_key in (("session_id", "sessionId"), ("user_id", "userId")):
        value = _first(key, json_key, obj, body)
        if isinstance(value, str) and value:
            extra[key] = value
    if msg_type == TOOL_USE_REQUEST:
        return [decode_request(body, group, ts, sender, raw, extra, where, source)]
    if msg_type == TOOL_USE_RESULT:
        return [decode_result(body, group, ts, sender, raw, extra, where, source)]
    return [_message(msg_type, body, group, ts, sender, raw, extra)]


def trace_context(obj: dict[str, Any], meta: dict[str, Any], body: Any = None) -> dict[str, Any]:
    """W3C trace context of a packet, with the ``traceparent`` form a tracing tool searches for.

    Read where each peer puts it: the Go envelope's ``trace_id``/``span_id``/``trace_flags``
    (longregen/alicia shared/protocol/envelope.go), the Android app's copy of the same keys in the body
    (AliciaTelemetry.injectTraceContext, used by AssistantWebSocket.kt for results), the document's
    ``messaging.trace_id``/``messaging.span_id`` in ``meta`` (03-envelope-format.md), or a
    ``traceparent`` in ``meta``.
    """
    trace_id = _first("trace_id", "traceId", obj, body)
    span_id = _first("span_id", "spanId", obj, body)
    flags = _first("trace_flags", "traceFlags", obj, body)
    if not (isinstance(trace_id, str) and trace_id):
        trace_id, span_id = meta.get("messaging.trace_id"), meta.get("messaging.span_id")
    parent = meta.get("traceparent")
    if not (isinstance(trace_id, str) and trace_id) and isinstance(parent, str):
        parts = parent.split("-")
        if len(parts) == 4:
            trace_id, span_id = parts[1], parts[2]
            flags = int(parts[3], 16) if _is_hex(parts[3]) else None
    if not isinstance(trace_id, str) or not trace_id:
        return {}
    found: dict[str, Any] = {"trace_id": trace_id}
    if isinstance(span_id, str) and span_id:
        found["span_id"] = span_id
    if isinstance(flags, int) and not isinstance(flags, bool):
        found["trace_flags"] = flags
    if "span_id" in found:
        found["traceparent"] = (
            f"00-{trace_id}-{span_id}-{(flags if isinstance(flags, int) else 0) & 0xFF:02x}"
        )
    return found


def _first(key: str, json_key: str, obj: dict[str, Any], body: Any) -> Any:
    """``key`` (or its JSON spelling) from the envelope, else from a map body."""
    for where in (obj, body):
        if isinstance(where, dict):
            value = where.get(key, where.get(json_key))
            if value is not None:
                return value
    return None


def _is_hex(text: str) -> bool:
    return bool(text) and all(c in "0123456789abcdefABCDEF" for c in text)


def _role(stanza: int | None) -> str:
    if stanza is None or stanza == 0:
        return ""
    return "client" if stanza > 0 else "agent"


def _meta_time(meta: dict[str, Any], body: Any) -> float | None:
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


_TEXT_KEYS = ("content", "text", "message", "reason", "mode", "title", "status", "detail", "error")


def _body_words(body: dict[str, Any]) -> str:
    """A body with none of the text fields in a few words (a SubscribeAck: ``ok, agentMode=true``; an
    AssistantToolsRegister: ``2 tools: get_battery, get_clipboard``): its row is never empty."""
    tools = body.get("tools")
    if isinstance(tools, list):
        names = [t["name"] for t in tools if isinstance(t, dict) and isinstance(t.get("name"), str)]
        words = f"{len(tools)} tool" + ("" if len(tools) == 1 else "s")
        if names:
            words += (
                ": " + ", ".join(one_line(name, 60) for name in names[:8]) + (", …" if len(names) > 8 else "")
            )
        return words
    parts = []
    if "success" in body:
        parts.append("ok" if body["success"] is True else "not ok")
    for key, value in body.items():
        if key in ("success", "conversationId") or not isinstance(key, str) or len(parts) >= 6:
            continue
        if isinstance(value, bool):
            parts.append(f"{one_line(key, 40)}={'true' if value else 'false'}")
        elif isinstance(value, (int, float)) or (isinstance(value, str) and value):
            parts.append(f"{one_line(key, 40)}={one_line(str(value), 80)}")
    return ", ".join(parts)


def _message(
    msg_type: int,
    body: Any,
    group: str,
    ts: float | None,
    sender: str,
    raw: RawRef | None,
    extra: dict[str, Any],
) -> Message:
    name = type_name(msg_type)
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
        if not text:
            text = _body_words(body)
    elif isinstance(body, str):
        text = body
    return Message(kind=name, text=text[:4000], group=group, ts=ts, sender=sender, raw=raw, extra=extra)
