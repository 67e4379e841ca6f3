"""RAP (Reactive Agent Protocol): tool invocations, callbacks and runtime notifications as JSON."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from inspector.model.details import DisplayDetail, Segment, TextDetail
from inspector.model.diff import parse_unified_diff
from inspector.model.events import Event, Malformed, Message, Outcome, RawRef, Request, Result, Skipped
from inspector.protocols import _jsonfile, _values
from inspector.textsafe import one_line

NAME = "rap"
DESCRIPTION = (
    "RAP invocations and callbacks (tool_result, subscription_event, oauth, ...), JSON or JSON Lines"
)

_KEYS = re.compile(rb'"(?:callback_url|group_id|tool_call_id|thread_id)"\s*:')
_SEGMENT_TYPES = ("text", "diff", "image")
ERROR_PREFIX = "Error: "


class _Invalid(ValueError):
    """A message that breaks the RAP schema; becomes a Malformed event."""


# -- the format-module contract ------------------------------------------------------------


def sniff(path: str, head: bytes) -> int:
    """60 when the first record is a RAP message, 20 when RAP field names appear, else 0."""
    try:
        first = _jsonfile.first_value(head)
    except Exception:  # noqa: BLE001 - sniffing must never stop detection of other formats
        first = None
    if isinstance(first, dict):
        body = _unwrap(first)[0]
        if isinstance(body, dict) and _kind(body) in _DECODERS:
            return 60
    return 20 if _KEYS.search(head) else 0


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
    return decode(chunk.value, raw)


def redecode(raw: RawRef) -> list[Event]:
    """Decode the one record ``raw`` points at again."""
    value, error = _jsonfile.loads(raw.read())
    if error is not None:
        return [Malformed(raw.where, error, source=raw.source, raw=raw)]
    return decode(value, raw)


def decode(value: Any, raw: RawRef) -> list[Event]:
    """The events of one decoded RAP record (a message, or the corpus shape ``{source, http, body}``)."""
    try:
        return _decode(value, raw)
    except _Invalid as exc:
        return [Malformed(raw.where, str(exc), source=raw.source, raw=raw)]


# -- classification ------------------------------------------------------------------------


def _unwrap(value: Any) -> tuple[Any, dict]:
    """The RAP message of a record and the wrapper around it (the corpus shape), if any."""
    if isinstance(value, dict) and "body" in value and ("http" in value or "source" in value):
        return value["body"], value
    return value, {}


def _kind(msg: dict) -> str | None:
    """What a message is, from its fields; None when it is nothing RAP knows."""
    kind = msg.get("type")
    if kind is not None:
        if not isinstance(kind, str):
            return "bad-type"
        if kind in _SEGMENT_TYPES and "content" in msg and "id" not in msg and "group_id" not in msg:
            return "segment"
        return kind
    if "operation" in msg:
        return "invocation"
    if "tool_call_id" in msg and "thread_id" in msg:
        return "cancel_tool_call"
    if "thread_id" in msg:
        return "close_thread"
    if "session_id" in msg and "destination_url" in msg:
        return "migrate"
    if "selected" in msg and "id" in msg:
        return "user_choice_response"
    if ("name" in msg and "inputSchema" in msg) or isinstance(msg.get("tools"), list):
        return "toolset"
    return None


def _decode(value: Any, raw: RawRef) -> list[Event]:
    body, wrapper = _unwrap(value)
    if not isinstance(body, dict):
        what = "the body" if wrapper else "a record"
        raise _Invalid(f"{what} must be a JSON object, not {_type_name(body)}")
    kind = _kind(body)
    ts = _timestamp(wrapper)
    ts = _timestamp(body) if ts is None else ts
    if kind is None:
        raise _Invalid("not a RAP message: no 'type' and no 'operation'")
    if kind == "bad-type":
        raise _Invalid(f"'type' must be a string, not {_type_name(body['type'])}")
    if kind == "segment":
        return [Skipped("display_segment", raw.where)]
    if kind == "toolset":
        return [Skipped("toolset_definition", raw.where)]
    decoder: Callable[[dict, RawRef, float | None], Request | Result | Message]
    decoder = _DECODERS.get(kind, _unknown)
    event = decoder(body, raw, ts)
    if wrapper.get("http") is not None:
        event.extra.setdefault("http", wrapper["http"])
    return [event]


# -- field access --------------------------------------------------------------------------


def _type_name(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")


def _text(msg: dict, key: str, required: bool = False) -> str | None:
    """A string field; None when absent or null (an error when required)."""
    value = msg.get(key)
    if value is None:
        if required:
            raise _Invalid(f"missing {key!r}")
        return None
    if not isinstance(value, str):
        raise _Invalid(f"{key!r} must be a string, not {_type_name(value)}")
    return value


def _ident(msg: dict, key: str) -> str:
    value = _text(msg, key, required=True)
    if not value:
        raise _Invalid(f"empty {key!r}")
    return value  # type: ignore[return-value]


def _flag(msg: dict, key: str) -> bool:
    value = msg.get(key)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise _Invalid(f"{key!r} must be a boolean, not {_type_name(value)}")
    return value


def _timestamp(obj: dict) -> float | None:
    for key in ("ts", "time", "timestamp"):
        if key in obj:
            return _values.parse_time(obj[key])
    return None


def _present(msg: dict, keys: tuple[str, ...]) -> dict[str, Any]:
    return {key: msg[key] for key in keys if msg.get(key) is not None}


# -- invocation ----------------------------------------------------------------------------


def _invocation(msg: dict, raw: RawRef, ts: float | None) -> Request:
    operation = _ident(msg, "operation")
    call_id = _ident(msg, "id")
    group = _text(msg, "group_id") or ""
    args = msg.get("arguments")
    if args is not None and not isinstance(args, dict):
        raise _Invalid(f"'arguments' must be an object, not {_type_name(args)}")
    for key in ("call_id", "callback_url", "user_id"):
        _text(msg, key)
    ancestors = msg.get("thread_ancestors")
    if ancestors is not None and not (
        isinstance(ancestors, list) and all(isinstance(item, str) for item in ancestors)
    ):
        raise _Invalid("'thread_ancestors' must be an array of strings")
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
        extra=_present(msg, ("call_id", "callback_url", "user_id", "thread_ancestors")),
    )


def _timeout_ms(msg: dict) -> int | None:
    """RAP defines no timeout; a runtime's own ``timeout_ms`` extension is honoured when present."""
    value = msg.get("timeout_ms")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if value != value or value in (float("inf"), float("-inf")) or value < 0:
        return None
    return int(value)


# -- tool_result ---------------------------------------------------------------------------


def _tool_result(msg: dict, raw: RawRef, ts: float | None) -> Result:
    call_id = _ident(msg, "id")
    group = _text(msg, "group_id") or ""
    _text(msg, "call_id")
    text = _text(msg, "text")
    content = _content(msg.get("content"))
    segments = _segments(msg.get("display_as"))
    subscription = _flag(msg, "subscription")
    shown = text if text is not None else _content_text(content or [])
    outcome, error = Outcome.SUCCESS, None
    if (text or _first_text(content)).startswith(ERROR_PREFIX):
        outcome, error = Outcome.ERROR, text if text is not None else shown
    extra = _present(msg, ("call_id",))
    if subscription:
        extra["subscription"] = True
    if content is not None:
        extra["content"] = content
    if text is None and content is None:
        extra["violation"] = "tool_result with neither 'text' nor 'content'"
    details: Any = DisplayDetail(segments, shown) if segments else TextDetail(shown)
    return Result(
        call_id=call_id,
        outcome=outcome,
        group=group,
        data=text if text is not None else content,
        error_message=error,
        ts=ts,
        raw=raw,
        details=details,
        has_diff=any(diff.hunks for segment in segments for diff in segment.diffs),
        extra=extra,
    )


def _content(value: Any) -> list[dict] | None:
    if value is None:
        return None
    if not isinstance(value, list):
        raise _Invalid(f"'content' must be an array, not {_type_name(value)}")
    for index, item in enumerate(value):
        if not isinstance(item, dict) or not isinstance(item.get("type"), str):
            raise _Invalid(f"content[{index}] must be an object with a string 'type'")
    return value


def _first_text(content: list[dict] | None) -> str:
    for item in content or []:
        if item.get("type") == "text" and isinstance(item.get("text"), str):
            return item["text"]
    return ""


def _content_text(content: list[dict]) -> str:
    """The content items as text, with a placeholder for each image (what a text-only model sees)."""
    parts = []
    for item in content:
        if item["type"] == "text" and isinstance(item.get("text"), str):
            parts.append(item["text"])
        elif item["type"] == "image":
            parts.append(f"[image {_media(item)}]")
        else:
            parts.append(f"[{item['type']} item]")
    return "\n".join(parts)


def _media(item: dict) -> str:
    media = item.get("mediaType")
    data = item.get("data")
    size = f", {len(data) * 3 // 4} bytes" if isinstance(data, str) else ""
    return (media if isinstance(media, str) else "unknown type") + size


def _segments(value: Any) -> list[Segment]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise _Invalid(f"'display_as' must be an array, not {_type_name(value)}")
    segments = []
    for index, item in enumerate(value):
        if not isinstance(item, dict) or not isinstance(item.get("type"), str):
            raise _Invalid(f"display_as[{index}] must be an object with a string 'type'")
        content = item.get("content")
        diffs = _segment_diffs(content) if item["type"] == "diff" else []
        segments.append(Segment(item["type"], content, diffs))
    return segments


def _segment_diffs(content: Any):
    """The file diffs of a diff segment ({path, patch}, or a bare patch string)."""
    if isinstance(content, str):
        return parse_unified_diff(content)
    if isinstance(content, dict) and isinstance(content.get("patch"), str):
        path = content.get("path")
        return parse_unified_diff(content["patch"], path if isinstance(path, str) else "")
    return []


# -- other callbacks and notifications -----------------------------------------------------


def _subscription_event(msg: dict, raw: RawRef, ts: float | None) -> Message:
    parent = _ident(msg, "tool_call_id")
    extra = {"tool_call_id": parent, "associative": _flag(msg, "associative"), "final": _flag(msg, "final")}
    text = _text(msg, "text", required=True) or ""
    return Message("subscription_event", text, _group(msg), ts, raw=raw, parent_id=parent, extra=extra)


def _oauth(msg: dict, raw: RawRef, ts: float | None) -> Message:
    parent = _ident(msg, "id")
    url = _text(msg, "auth_url", required=True) or ""
    extra = {"auth_url": url, **_present(msg, ("call_id",))}
    _text(msg, "call_id")
    return Message("oauth", url, _group(msg), ts, raw=raw, parent_id=parent, extra=extra)


def _user_choice(msg: dict, raw: RawRef, ts: float | None) -> Message:
    parent = _ident(msg, "id")
    prompt = _text(msg, "prompt", required=True) or ""
    choices = msg.get("choices")
    if not isinstance(choices, list) or not choices or not all(isinstance(c, str) for c in choices):
        raise _Invalid("'choices' must be a non-empty array of strings")
    default = msg.get("default")
    if isinstance(default, bool) or not isinstance(default, int) or not 0 <= default < len(choices):
        raise _Invalid("'default' must be an index into 'choices'")
    _text(msg, "response_url")
    _text(msg, "call_id")
    lines = [prompt] + [
        f"{'>' if index == default else ' '} {index}. {choice}" for index, choice in enumerate(choices)
    ]
    extra = {"prompt": prompt, "choices": choices, "default": default}
    extra.update(_present(msg, ("response_url", "call_id")))
    return Message("user_choice", "\n".join(lines), _group(msg), ts, raw=raw, parent_id=parent, extra=extra)


def _view_update(msg: dict, raw: RawRef, ts: float | None) -> Message:
    view_type = _text(msg, "view_type", required=True) or ""
    content = msg.get("content")
    extra: dict[str, Any] = {"view_type": view_type, "content": content}
    if isinstance(content, dict) and isinstance(content.get("patch"), str):
        extra["diffs"] = parse_unified_diff(content["patch"])
    return Message("view_update", f"{view_type} view updated", _group(msg), ts, raw=raw, extra=extra)


def _cancel(msg: dict, raw: RawRef, ts: float | None) -> Message:
    parent = _ident(msg, "tool_call_id")
    group = _text(msg, "thread_id") or ""
    extra = {"tool_call_id": parent, "thread_id": group}
    return Message(
        "cancel_tool_call", "cancellation requested", group, ts, raw=raw, parent_id=parent, extra=extra
    )


def _close_thread(msg: dict, raw: RawRef, ts: float | None) -> Message:
    group = _ident(msg, "thread_id")
    return Message("close_thread", "thread closed", group, ts, raw=raw, extra={"thread_id": group})


def _migrate(msg: dict, raw: RawRef, ts: float | None) -> Message:
    session = _ident(msg, "session_id")
    destination = _text(msg, "destination_url", required=True) or ""
    extra = {"session_id": session, "destination_url": destination}
    return Message("migrate", f"migrate to {destination}", session, ts, raw=raw, extra=extra)


def _choice_response(msg: dict, raw: RawRef, ts: float | None) -> Message:
    parent = _ident(msg, "id")
    selected = msg.get("selected")
    if isinstance(selected, bool) or not isinstance(selected, int):
        raise _Invalid(f"'selected' must be an integer, not {_type_name(selected)}")
    extra = {"selected": selected}
    return Message(
        "user_choice_response", f"selected {selected}", "", ts, raw=raw, parent_id=parent, extra=extra
    )


def _unknown(msg: dict, raw: RawRef, ts: float | None) -> Message:
    """A message type this version of RAP does not define: shown, never dropped."""
    kind = msg["type"]
    parent = msg.get("id") if isinstance(msg.get("id"), str) else None
    text = one_line(_values.preview(msg, 300), 300)
    return Message("rap_unknown", text, _group(msg), ts, raw=raw, parent_id=parent, extra={"type": kind})


def _group(msg: dict) -> str:
    return _text(msg, "group_id") or ""


_DECODERS = {
    "invocation": _invocation,
    "tool_result": _tool_result,
    "subscription_event": _subscription_event,
    "oauth": _oauth,
    "user_choice": _user_choice,
    "view_update": _view_update,
    "cancel_tool_call": _cancel,
    "close_thread": _close_thread,
    "migrate": _migrate,
    "user_choice_response": _choice_response,
}
