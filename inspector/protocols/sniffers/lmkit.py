"""What recognises an LM-Kit.NET file (ToolCall / ToolCallResult records, JSON or JSON Lines), apart from
its reader, so that detecting a file's format imports no decoder; the reader shares its field reading."""

from __future__ import annotations

import re
from typing import Any

import inspector.protocols.common.jsonhead as _jsonhead

_KEYS = re.compile(rb'"(?:argumentsjson|resultjson|toolcallid)"\s*:', re.IGNORECASE)


def sniff(path: str, head: bytes) -> int:
    """60 when one of the first records is a ToolCall or ToolCallResult, 40 when their keys appear,
    25 for a record of another LM-Kit kind, else 0."""
    kinds = False
    keys = _KEYS.search(head) is not None
    for first in _jsonhead.head_values(head, _KEYS):  # after the first, records holding the keys
        if isinstance(first, dict):
            found = fields(first)
            if "toolcallid" in found or "resultjson" in found or "argumentsjson" in found:
                return 60
            kinds = kinds or kind(found) is not None
    if keys:
        return 40
    return 25 if kinds else 0


def fields(obj: dict[str, Any]) -> dict[str, Any]:
    """The keys of ``obj`` lower-cased (the first spelling wins), so PascalCase and camelCase match."""
    found: dict[str, Any] = {}
    for key, value in obj.items():
        found.setdefault(key.lower(), value)
    return found


def kind(fields: dict[str, Any]) -> str | None:
    """``result``, ``call`` or None (another record) for a record's lower-cased fields."""
    if "toolcallid" in fields or "resultjson" in fields:
        return "result"
    if "argumentsjson" in fields or ("id" in fields and "name" in fields):
        return "call"
    return None
