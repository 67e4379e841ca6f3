"""Small Claude Code records for tests: user/assistant records, tool_use and tool_result blocks."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

SID = "5e551011-0000-4000-8000-000000000001"
_uuids = itertools.count(1)


def uuid() -> str:
    return f"00000000-0000-4000-8000-{next(_uuids):012d}"


def record(kind: str, content: Any, ts: str = "2025-06-01T10:00:00.000Z", **extra: Any) -> dict:
    """A user or assistant record of session SID."""
    base = {
        "parentUuid": None,
        "isSidechain": False,
        "userType": "external",
        "cwd": "/w",
        "sessionId": SID,
        "version": "2.0.37",
        "type": kind,
        "uuid": uuid(),
        "timestamp": ts,
        "message": {"role": kind, "content": content},
    }
    base.update(extra)
    return base


def use(call_id: str, name: str, params: Any) -> dict:
    return {"type": "tool_use", "id": call_id, "name": name, "input": params}


def result(call_id: str, content: Any, is_error: bool | None = None) -> dict:
    block = {"type": "tool_result", "tool_use_id": call_id, "content": content}
    if is_error is not None:
        block["is_error"] = is_error
    return block


def call(
    call_id: str,
    name: str,
    params: Any,
    content: Any = "ok",
    structured: Any = None,
    is_error: bool | None = None,
    **extra: Any,
) -> list[dict]:
    """An assistant record with one tool_use and the user record answering it."""
    answer = record("user", [result(call_id, content, is_error)], ts="2025-06-01T10:00:01.500Z", **extra)
    if structured is not None:
        answer["toolUseResult"] = structured
    return [record("assistant", [use(call_id, name, params)], **extra), answer]


def write(path: Path, records: list[Any]) -> Path:
    """One JSON line per record (bytes and str are written as they are)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        for item in records:
            if isinstance(item, bytes):
                fh.write(item + b"\n")
            elif isinstance(item, str):
                fh.write(item.encode() + b"\n")
            else:
                fh.write(json.dumps(item, separators=(",", ":")).encode() + b"\n")
    return path
