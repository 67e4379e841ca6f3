"""RAP (Reactive Agent Protocol): tool invocations, callbacks and runtime notifications as JSON."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import inspector.protocols.common.jsonfile as _jsonfile
import inspector.protocols.common.reread as _reread
import inspector.protocols.common.values as _values
from inspector.model import values
from inspector.model.events import Event, Malformed, Message, RawRef, Request, Result, Skipped, noted
from inspector.protocols.format import Format
from inspector.protocols.rap.callbacks import (
    cancel,
    choice_response,
    close_thread,
    migrate,
    oauth,
    subscription_event,
    tool_result,
    unknown,
    user_choice,
    view_update,
)
from inspector.protocols.rap.fields import (
    Invalid,
    ident,
    present,
    text_field,
    timestamp,
    type_name,
)
from inspector.protocols.sniffers.rap import _kind, _unwrap, sniff
from inspector.textsafe import one_line

NAME = "rap"
DESCRIPTION = (
    "RAP invocations and callbacks (tool_result, subscription_event, oauth, ...), JSON or JSON Lines"
)


# -- the format-module contract ------------------------------------------------------------


def read(path: str) -> Iterator[Event]:
    """Every message of a RAP JSON or JSON Lines file; bad records become Malformed."""
    for chunk in _jsonfile.read_chunks(path):
        yield from _chunk_events(path, chunk)


def decode_line(line: bytes, raw: RawRef) -> list[Event]:
    """The events of one appended JSON Lines line (for following a growing file)."""
    events: list[Event] = []
    for chunk in _jsonfile.line_chunks(line, raw.offset, raw.where):
        events.extend(_chunk_events(raw.source, chunk))
    return events


def _chunk_events(path: str, chunk: _jsonfile.Chunk) -> list[Event]:
    raw = RawRef(path, chunk.where, chunk.offset, chunk.length, protocol=NAME)
    if chunk.error is not None:
        return [Malformed(chunk.where, chunk.error, source=path, raw=raw)]
    return noted(chunk.note, raw, chunk.where, decode(chunk.value, raw))


def redecode(raw: RawRef) -> list[Event]:
    """Decode the one record ``raw`` points at again."""
    value, error, _ = values.loads_noted(_reread.reread(raw))  # as the record was read
    if error is not None:
        return [Malformed(raw.where, error, source=raw.source, raw=raw)]
    return decode(value, raw)


def decode(value: Any, raw: RawRef) -> list[Event]:
    """The events of one decoded RAP record (a message, or the corpus shape ``{source, http, body}``)."""
    try:
        return _decode(value, raw)
    except Invalid as exc:
        return [Malformed(raw.where, str(exc), source=raw.source, raw=raw)]


# -- classification ------------------------------------------------------------------------


def _decode(value: Any, raw: RawRef) -> list[Event]:
    body, wrapper = _unwrap(value)
    if not isinstance(body, dict):
        what = "the body" if wrapper else "a record"
        raise Invalid(f"{what} must be a JSON object, not {type_name(body)}")
    kind = _kind(body)
    ts = timestamp(wrapper)
    ts = timestamp(body) if ts is None else ts
    if kind is None:
        raise Invalid("not a RAP message: no 'type' and no 'operation'")
    if kind == "bad-type":
        raise Invalid(f"'type' must be a string, not {type_name(body['type'])}")
    if kind == "segment":
        return [Skipped("display_segment", raw.where)]
    if kind == "toolset":
        return [Skipped("toolset_definition", raw.where)]
    decoder: Callable[[dict[str, Any], RawRef, float | None], Request | Result | Message]
    decoder = _DECODERS.get(kind, unknown)
    event = decoder(body, raw, ts)
    if wrapper.get("http") is not None:
        event.extra.setdefault("http", wrapper["http"])
    return [event]


# -- field access --------------------------------------------------------------------------


# -- invocation ----------------------------------------------------------------------------


def _invocation(msg: dict[str, Any], raw: RawRef, ts: float | None) -> Request:
    operation = ident(msg, "operation")
    call_id = ident(msg, "id")
    group = text_field(msg, "group_id") or ""
    args = msg.get("arguments")
    if args is not None and not isinstance(args, dict):
        raise Invalid(f"'arguments' must be an object, not {type_name(args)}")
    for key in ("call_id", "callback_url", "user_id"):
        text_field(msg, key)
    ancestors = msg.get("thread_ancestors")
    if ancestors is not None and not (
        isinstance(ancestors, list) and all(isinstance(item, str) for item in ancestors)
    ):
        raise Invalid("'thread_ancestors' must be an array of strings")
    missing = [key for key in ("arguments", "callback_url", "group_id") if msg.get(key) is None]
    return Request(
        call_id=call_id,
        tool=operation,
        group=group,
        params=args if args is not None else {},
        timeout_ms=_timeout_ms(msg),
        ts=ts,
        raw=raw,
        violation=f"invocation without {', '.join(missing)}" if missing else None,
        summary=one_line(_values.arguments_summary(args or {})),
        extra=present(msg, ("call_id", "callback_url", "user_id", "thread_ancestors")),
    )


def _timeout_ms(msg: dict[str, Any]) -> int | None:
    """RAP defines no timeout; a runtime's own ``timeout_ms`` extension is honoured when present."""
    value = msg.get("timeout_ms")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if value != value or value in (float("inf"), float("-inf")) or value < 0:
        return None
    return int(value)


_DECODERS: dict[str, Callable[[dict[str, Any], RawRef, float | None], Request | Result | Message]] = {
    "invocation": _invocation,
    "tool_result": tool_result,
    "subscription_event": subscription_event,
    "oauth": oauth,
    "user_choice": user_choice,
    "view_update": view_update,
    "cancel_tool_call": cancel,
    "close_thread": close_thread,
    "migrate": migrate,
    "user_choice_response": choice_response,
}


FORMAT = Format(NAME, DESCRIPTION, sniff, read, redecode, decode_line=decode_line)
"""This format for the registry (:func:`inspector.protocols.get`)."""
