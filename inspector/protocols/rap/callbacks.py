"""RAP callbacks: ``tool_result`` (with its ``display_as`` segments and diffs) and the other notifications."""

from __future__ import annotations

from typing import Any

import inspector.protocols.common.values as _values
from inspector.model.details import DisplayDetail, Segment, TextDetail
from inspector.model.diff import FileDiff, parse_unified_diff
from inspector.model.events import Message, Outcome, RawRef, Result
from inspector.protocols.rap.fields import (
    ERROR_PREFIX,
    Invalid,
    flag,
    group_of,
    ident,
    present,
    text_field,
    type_name,
)
from inspector.textsafe import one_line

# -- tool_result ---------------------------------------------------------------------------


def tool_result(msg: dict[str, Any], raw: RawRef, ts: float | None) -> Result:
    call_id = ident(msg, "id")
    group = text_field(msg, "group_id") or ""
    text_field(msg, "call_id")
    text = text_field(msg, "text")
    content = _content(msg.get("content"))
    segments = _segments(msg.get("display_as"))
    subscription = flag(msg, "subscription")
    shown = text if text is not None else _content_text(content or [])
    outcome, error = Outcome.SUCCESS, None
    if (text or _first_text(content)).startswith(ERROR_PREFIX):
        outcome, error = Outcome.ERROR, text if text is not None else shown
    extra = present(msg, ("call_id",))
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


def _content(value: Any) -> list[dict[str, Any]] | None:
    if value is None:
        return None
    if not isinstance(value, list):
        raise Invalid(f"'content' must be an array, not {type_name(value)}")
    for index, item in enumerate(value):
        if not isinstance(item, dict) or not isinstance(item.get("type"), str):
            raise Invalid(f"content[{index}] must be an object with a string 'type'")
    return value


def _first_text(content: list[dict[str, Any]] | None) -> str:
    for item in content or []:
        if item.get("type") == "text" and isinstance(item.get("text"), str):
            return str(item["text"])
    return ""


def _content_text(content: list[dict[str, Any]]) -> str:
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


def _media(item: dict[str, Any]) -> str:
    media = item.get("mediaType")
    data = item.get("data")
    size = f", {len(data) * 3 // 4} bytes" if isinstance(data, str) else ""
    return (media if isinstance(media, str) else "unknown type") + size


def _segments(value: Any) -> list[Segment]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise Invalid(f"'display_as' must be an array, not {type_name(value)}")
    segments = []
    for index, item in enumerate(value):
        if not isinstance(item, dict) or not isinstance(item.get("type"), str):
            raise Invalid(f"display_as[{index}] must be an object with a string 'type'")
        content = item.get("content")
        diffs = _segment_diffs(content) if item["type"] == "diff" else []
        segments.append(Segment(item["type"], content, diffs))
    return segments


def _segment_diffs(content: Any) -> list[FileDiff]:
    """The file diffs of a diff segment ({path, patch}, or a bare patch string)."""
    if isinstance(content, str):
        return parse_unified_diff(content)
    if isinstance(content, dict) and isinstance(content.get("patch"), str):
        path = content.get("path")
        return parse_unified_diff(content["patch"], path if isinstance(path, str) else "")
    return []


# -- other callbacks and notifications -----------------------------------------------------


def subscription_event(msg: dict[str, Any], raw: RawRef, ts: float | None) -> Message:
    parent = ident(msg, "tool_call_id")
    extra = {"tool_call_id": parent, "associative": flag(msg, "associative"), "final": flag(msg, "final")}
    text = text_field(msg, "text", required=True) or ""
    return Message("subscription_event", text, group_of(msg), ts, raw=raw, parent_id=parent, extra=extra)


def oauth(msg: dict[str, Any], raw: RawRef, ts: float | None) -> Message:
    parent = ident(msg, "id")
    url = text_field(msg, "auth_url", required=True) or ""
    extra = {"auth_url": url, **present(msg, ("call_id",))}
    text_field(msg, "call_id")
    return Message("oauth", url, group_of(msg), ts, raw=raw, parent_id=parent, extra=extra)


def user_choice(msg: dict[str, Any], raw: RawRef, ts: float | None) -> Message:
    parent = ident(msg, "id")
    prompt = text_field(msg, "prompt", required=True) or ""
    choices = msg.get("choices")
    if not isinstance(choices, list) or not choices or not all(isinstance(c, str) for c in choices):
        raise Invalid("'choices' must be a non-empty array of strings")
    default = msg.get("default")
    if isinstance(default, bool) or not isinstance(default, int) or not 0 <= default < len(choices):
        raise Invalid("'default' must be an index into 'choices'")
    text_field(msg, "response_url")
    text_field(msg, "call_id")
    lines = [prompt] + [
        f"{'>' if index == default else ' '} {index}. {choice}" for index, choice in enumerate(choices)
    ]
    extra = {"prompt": prompt, "choices": choices, "default": default}
    extra.update(present(msg, ("response_url", "call_id")))
    return Message("user_choice", "\n".join(lines), group_of(msg), ts, raw=raw, parent_id=parent, extra=extra)


def view_update(msg: dict[str, Any], raw: RawRef, ts: float | None) -> Message:
    view_type = text_field(msg, "view_type", required=True) or ""
    content = msg.get("content")
    extra: dict[str, Any] = {"view_type": view_type, "content": content}
    if isinstance(content, dict) and isinstance(content.get("patch"), str):
        extra["diffs"] = parse_unified_diff(content["patch"])
    return Message("view_update", f"{view_type} view updated", group_of(msg), ts, raw=raw, extra=extra)


def cancel(msg: dict[str, Any], raw: RawRef, ts: float | None) -> Message:
    parent = ident(msg, "tool_call_id")
    group = text_field(msg, "thread_id") or ""
    extra = {"tool_call_id": parent, "thread_id": group}
    return Message(
        "cancel_tool_call", "cancellation requested", group, ts, raw=raw, parent_id=parent, extra=extra
    )


def close_thread(msg: dict[str, Any], raw: RawRef, ts: float | None) -> Message:
    group = ident(msg, "thread_id")
    return Message("close_thread", "thread closed", group, ts, raw=raw, extra={"thread_id": group})


def migrate(msg: dict[str, Any], raw: RawRef, ts: float | None) -> Message:
    session = ident(msg, "session_id")
    destination = text_field(msg, "destination_url", required=True) or ""
    extra = {"session_id": session, "destination_url": destination}
    return Message("migrate", f"migrate to {destination}", session, ts, raw=raw, extra=extra)


def choice_response(msg: dict[str, Any], raw: RawRef, ts: float | None) -> Message:
    parent = ident(msg, "id")
    selected = msg.get("selected")
    if isinstance(selected, bool) or not isinstance(selected, int):
        raise Invalid(f"'selected' must be an integer, not {type_name(selected)}")
    extra = {"selected": selected}
    return Message(
        "user_choice_response", f"selected {selected}", "", ts, raw=raw, parent_id=parent, extra=extra
    )


def unknown(msg: dict[str, Any], raw: RawRef, ts: float | None) -> Message:
    """A message type this version of RAP does not define: shown, never dropped."""
    kind = msg["type"]
    parent = msg.get("id") if isinstance(msg.get("id"), str) else None
    text = one_line(_values.preview(msg, 300), 300)
    return Message("rap_unknown", text, group_of(msg), ts, raw=raw, parent_id=parent, extra={"type": kind})
