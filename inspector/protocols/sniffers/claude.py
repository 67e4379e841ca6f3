"""What recognises a Claude Code transcript, apart from its reader, so that detecting a file's format
imports no decoder (the reader's ``FORMAT.sniff`` is this module's)."""

from __future__ import annotations

import re
from typing import Any

import inspector.protocols.common.jsonhead as _jsonhead

_SNIFF_TYPE = re.compile(rb'"type"\s*:\s*"(?:user|assistant|summary)"')
_SNIFF_KEYS = re.compile(rb'"(?:sessionId|parentUuid|leafUuid)"\s*:')


def sniff(path: str, head: bytes) -> int:
    """80 when a record of the head is a Claude Code record (a message, a summary or one of the
    bookkeeping records), 45 when its keys appear, else 0."""
    for record in _jsonhead.head_records(head, 50):
        if isinstance(record, dict) and _looks_like_record(record):
            return 80
    return 45 if _SNIFF_TYPE.search(head) and _SNIFF_KEYS.search(head) else 0


# The bookkeeping records Claude Code writes beside the conversation, and the keys each always has: a
# session can hold nothing else (2.1.x writes a file of file-history-snapshot records for a session whose
# every prompt was rewound or that never got an answer, and 2.1.71 one lone SessionStart hook_progress
# record for a session left at once), and it is still a Claude Code session.
_BOOKKEEPING = {
    "file-history-snapshot": ("messageId", "snapshot"),
    "queue-operation": ("operation", "sessionId"),
    "last-prompt": ("sessionId",),  # lastPrompt (2.1.x), or leafUuid instead (2.1.278)
    "permission-mode": ("permissionMode", "sessionId"),
    "custom-title": ("customTitle", "sessionId"),
    "system": ("uuid", "sessionId"),
    "progress": ("data", "sessionId"),
    "attachment": ("attachment", "sessionId"),
    "ai-title": ("aiTitle", "sessionId"),
    "agent-name": ("agentName", "sessionId"),
    "mode": ("mode", "sessionId"),
    "pr-link": ("prUrl", "sessionId"),
    "cost-state": ("totalCostUSD", "sessionId"),  # 2.1.278
}


def _looks_like_record(record: dict[str, Any]) -> bool:
    kind = record.get("type")
    if kind in ("user", "assistant"):
        return isinstance(record.get("message"), dict) and ("sessionId" in record or "uuid" in record)
    if kind == "summary":
        return "leafUuid" in record
    keys = _BOOKKEEPING.get(kind) if isinstance(kind, str) else None
    return keys is not None and all(key in record for key in keys)
