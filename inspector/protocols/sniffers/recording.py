"""What recognises an inspector recording (its header line), apart from its reader, so that detecting a
file's format imports no decoder."""

from __future__ import annotations

FORMAT_ID = "inspector-recording"


def sniff(path: str, head: bytes) -> int:
    first = head.split(b"\n", 1)[0]
    return 100 if FORMAT_ID.encode() in first and first.lstrip().startswith(b"{") else 0
