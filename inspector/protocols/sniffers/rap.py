"""What recognises a RAP file (JSON or JSON Lines of invocations and callbacks), apart from its reader, so
that detecting a file's format imports no decoder."""

from __future__ import annotations

import re
from typing import Any

import inspector.protocols.common.jsonhead as _jsonhead

_KEYS = re.compile(rb'"(?:callback_url|group_id|tool_call_id|thread_id)"\s*:')
SEGMENT_TYPES = ("text", "diff", "image")
KINDS = frozenset(
    (
        "invocation",
        "tool_result",
        "subscription_event",
        "oauth",
        "user_choice",
        "view_update",
        "cancel_tool_call",
        "close_thread",
        "migrate",
        "user_choice_response",
    )
)
"""The message kinds the reader decodes (its decoders' keys; tests/protocols/test_sniffers.py checks they agree)."""


def sniff(path: str, head: bytes) -> int:
    """60 when one of the first records is a RAP message, 20 when RAP field names appear, else 0
    (after the first, only records holding RAP field names are parsed: sniffing stays cheap)."""
    for first in _jsonhead.head_values(head, _KEYS):
        if isinstance(first, dict):
            body = _unwrap(first)[0]
            if isinstance(body, dict) and _kind(body) in KINDS:
                return 60
    return 20 if _KEYS.search(head) else 0


def _unwrap(value: Any) -> tuple[Any, dict[str, Any]]:
    """The RAP message of a record and the wrapper around it (the corpus shape), if any."""
    if isinstance(value, dict) and "body" in value and ("http" in value or "source" in value):
        return value["body"], value
    return value, {}


def _kind(msg: dict[str, Any]) -> str | None:
    """What a message is, from its fields; None when it is nothing RAP knows."""
    kind = msg.get("type")
    if kind is not None:
        if not isinstance(kind, str):
            return "bad-type"
        if kind in SEGMENT_TYPES and "content" in msg and "id" not in msg and "group_id" not in msg:
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
