"""What recognises a Gemini CLI session (either layout) or saved chat, apart from its reader, so that
detecting a file's format imports no decoder."""

from __future__ import annotations

import os
import re
from typing import Any

import inspector.protocols.common.jsonhead as _jsonhead

_SNIFF_HEADER = re.compile(rb'"projectHash"\s*:')
_SNIFF_SESSION = re.compile(rb'"sessionId"\s*:')
_SNIFF_MESSAGE = re.compile(rb'"type"\s*:\s*"(?:gemini|user|info)"')
_SNIFF_CONTENT = re.compile(
    rb'\A\s*\[\s*\{\s*"(?:role|parts)"\s*:'
)  # a saved chat: [{"role": .., "parts": ..
_SNIFF_RECORD = re.compile(rb'"type"\s*:\s*"(?:gemini|user|info|error|warning)"|"\$set"|"\$rewindTo"')
_KINDS = {"user": "user", "gemini": "assistant", "info": "info", "error": "error", "warning": "warning"}


def sniff(path: str, head: bytes) -> int:
    """85 when the head holds a session header (sessionId and projectHash) beside messages, 80 for
    message records without a header, 0 when nothing of Gemini CLI is there.

    Both layouts usually start with the header's keys: ``{"sessionId":..,"projectHash":..`` (a JSON
    Lines first line, or the top of the JSON document); higher than Claude Code's guess from keys (45),
    which a Gemini ``user`` record next to a ``sessionId`` would also match. A JSON Lines log may have
    no header line at all (its first line already a message with ``toolCalls``): its records decide,
    any of the first ones, and the folder layout (``chats/session-*.jsonl``) adds to them.
    """
    if _SNIFF_CONTENT.match(head) and b'"parts"' in head and b'"role"' in head:
        return 75  # a saved chat (/chat save): an array of {role, parts} contents
    if _SNIFF_HEADER.search(head) and _SNIFF_SESSION.search(head):
        return 85 if _SNIFF_MESSAGE.search(head) or b'"messages"' in head or b'"startTime"' in head else 50
    if not _SNIFF_MESSAGE.search(head) and b'"$set"' not in head and b'"$rewindTo"' not in head:
        return 0  # the cheap test first: no message type, no update record anywhere in the head
    best = 0
    for record in _jsonhead.head_records(head, 20, _SNIFF_RECORD):
        if isinstance(record, dict) and ("message" in record or "payload" in record):
            return 0  # a Claude Code or Codex record: not a Gemini log (and no need to parse on)
        best = max(best, _record_score(record))
        if best >= 80:
            break
    if best and _in_chats_folder(path):
        best = min(best + 10, 80)
    return best


def _record_score(record: Any) -> int:
    """How surely one record is a Gemini CLI message (or ``$set`` / ``$rewindTo`` update), 0 if not."""
    if not isinstance(record, dict) or "message" in record or "sessionId" in record:
        return 0  # a Claude Code record (message, sessionId) or a header (handled above)
    if isinstance(record.get("$set"), dict) or "$rewindTo" in record:
        return 70
    if not isinstance(record.get("id"), str) or record.get("type") not in _KINDS or "content" not in record:
        return 0
    calls = record.get("toolCalls")
    if isinstance(calls, list) or record["type"] == "gemini":
        return 80
    return 60 if isinstance(record.get("timestamp"), str) else 0


def _in_chats_folder(path: str) -> bool:
    """Gemini CLI's own layout: ``<project>/chats/session-*.jsonl``."""
    name = os.path.basename(path)
    folder = os.path.basename(os.path.dirname(os.path.abspath(path)))
    return folder == "chats" and name.startswith("session-") and name.endswith(".jsonl")
