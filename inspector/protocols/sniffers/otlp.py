"""What recognises an OTLP JSON file (TracesData or LogsData, one per line), apart from its reader, so that
detecting a file's format imports no decoder."""

from __future__ import annotations

import re

import inspector.protocols.common.jsonhead as _jsonhead

_KEYS = re.compile(rb'"(?:resourceSpans|resourceLogs)"\s*:')


def sniff(path: str, head: bytes) -> int:
    """75 when a first record is TracesData or LogsData JSON, 25 when their keys appear, else 0."""
    for first in _jsonhead.head_values(head, _KEYS, lines=5):
        if isinstance(first, dict) and ("resourceSpans" in first or "resourceLogs" in first):
            return 75
    return 25 if _KEYS.search(head) else 0
