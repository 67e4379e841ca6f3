"""What recognises Gemini CLI's telemetry file (the JS SDK's objects, one after another), apart from its
reader, so that detecting a file's format imports no decoder."""

from __future__ import annotations

import re

_SDK_START = re.compile(rb'\{\s*"hrTime"\s*:')


def sniff(path: str, head: bytes) -> int:
    """70 when the file starts with a JS SDK object holding Gemini CLI's event names; 40 when it starts
    with the SDK's first key (hrTime) and its first object goes on past the head, so its event name is
    out of sight (one huge or deeply nested value: the file was 'not a format the inspector reads');
    else 0. Pretty-printed: its second line is indented, however long its first (a long leading field)."""
    text = head.lstrip()
    lines = text.split(b"\n", 2)
    if text.startswith(b"{") and len(lines) > 1 and lines[1].startswith(b"  ") and b'"gemini_cli.' in head:
        return 70
    if _SDK_START.match(text) and b"\n}" not in text:
        return 40
    return 0
