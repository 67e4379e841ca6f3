"""Small Claude Code files for tests of folders: 2.0.x subagent files as they are kept beside the sessions
(``<project>/agent-<id>.jsonl``, for folders whose sessions are gone) and session lines to write or append."""

from __future__ import annotations

import json
from pathlib import Path


def write_20_agent(path: Path, session: str, agent: str, calls: int) -> None:
    """A Claude Code 2.0.x subagent file as it is kept beside the sessions: its records carry the session's
    id, ``isSidechain`` and the agent's id; each call answered."""
    base = {"isSidechain": True, "userType": "external", "cwd": "/w", "sessionId": session}
    base |= {"version": "2.0.37", "agentId": agent}
    records = [base | {"type": "user", "uuid": f"{agent}-0", "message": {"role": "user", "content": "look"}}]
    for n in range(calls):
        use = {"type": "tool_use", "id": f"toolu_{agent}_{n}", "name": "Read", "input": {"file_path": "/w/x"}}
        done = {"type": "tool_result", "tool_use_id": f"toolu_{agent}_{n}", "content": "x"}
        records.append(
            base
            | {"type": "assistant", "uuid": f"{agent}-{n}a", "timestamp": f"2025-11-01T10:00:{n:02d}.000Z"}
            | {"message": {"role": "assistant", "content": [use]}}
        )
        records.append(
            base
            | {"type": "user", "uuid": f"{agent}-{n}u", "timestamp": f"2025-11-01T10:00:{n:02d}.500Z"}
            | {"message": {"role": "user", "content": [done]}}
        )
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


GONE_1 = "11111111-1111-4111-8111-111111111111"
GONE_2 = "22222222-2222-4222-8222-222222222222"


def claude_lines(session: str, calls: range) -> str:
    """Claude Code records of ``session``: one tool call answered per number of ``calls``."""
    base = {
        "isSidechain": False,
        "userType": "external",
        "cwd": "/w",
        "sessionId": session,
        "version": "2.1.9",
    }
    records = []
    for n in calls:
        use = {
            "type": "tool_use",
            "id": f"toolu_{session[:4]}_{n}",
            "name": "Bash",
            "input": {"command": "ls"},
        }
        done = {"type": "tool_result", "tool_use_id": f"toolu_{session[:4]}_{n}", "content": "a"}
        when = f"2025-11-01T10:{n:02d}:00.000Z"
        records.append(
            base
            | {"type": "assistant", "uuid": f"{session}-{n}a", "timestamp": when}
            | {"message": {"role": "assistant", "content": [use]}}
        )
        records.append(
            base
            | {"type": "user", "uuid": f"{session}-{n}u", "timestamp": when}
            | {"message": {"role": "user", "content": [done]}}
        )
    return "".join(json.dumps(r) + "\n" for r in records)
