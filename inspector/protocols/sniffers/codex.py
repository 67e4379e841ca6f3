"""What recognises a Codex CLI rollout (either layout), apart from its reader, so that detecting a file's
format imports no decoder."""

from __future__ import annotations

import inspector.protocols.common.jsonhead as _jsonhead

_ENVELOPES = ("session_meta", "turn_context", "response_item", "event_msg", "compacted", "world_state")
_CALLS = ("function_call", "custom_tool_call", "local_shell_call")
_OUTPUTS = ("function_call_output", "custom_tool_call_output")


def sniff(path: str, head: bytes) -> int:
    """85 for an envelope rollout, 75 for the bare layout, else 0."""
    for record in _jsonhead.head_records(head, 20):
        if not isinstance(record, dict):
            return 0
        if record.get("type") in _ENVELOPES and isinstance(record.get("payload"), dict):
            return 85
        if record.get("record_type") == "state":
            return 75
        if "id" in record and "timestamp" in record and ("instructions" in record or "git" in record):
            return 75 if "sessionId" not in record else 0
        if record.get("type") in _CALLS + _OUTPUTS and "call_id" in record:
            return 70
    return 0
