"""Gemini CLI sub-agents: the calls and messages of a sub-agent's own file, nested under the call that ran it.

As gemini-cli records them (packages/core/src/services/chatRecordingService.ts, ``initialize``): a
sub-agent's conversation is a JSON Lines file of its own, ``chats/<main session id>/<agent id>.jsonl``,
whose header says ``kind: "subagent"`` and whose ``sessionId`` is the agent id; both ids are made safe for
a file name (utils/fileUtils.ts ``sanitizeFilenamePart``: a character outside ``[A-Za-z0-9_-]`` becomes
``_``). A sub-agent's own sub-agents go to the same folder: the parent session id handed down is always
the main session's (agents/local-executor.ts ``executionContext``). The call that ran a sub-agent carries
its ``agentId`` (core/geminiChat.ts ``recordCompletedToolCalls``, from agents/local-invocation.ts's
``data``), written once the call has ended, so its file is complete when the call is read.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator

from inspector.model.events import Event, Request
from inspector.protocols._nesting import nest_files

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")
_NAME_LIMIT = 200


def safe_name(part: str) -> str:
    """An id as the CLI puts it in a file or folder name."""
    return _UNSAFE.sub("_", part)


def agent_of(event: Event) -> str:
    """The sub-agent a call ran ('' for any other event)."""
    if isinstance(event, Request):
        agent = event.extra.get("agentId")
        if isinstance(agent, str):
            return agent
    return ""


def child_file(parent_path: str, session_id: str, agent_id: str) -> str | None:
    """The file of sub-agent ``agent_id``: in the folder named after the main session beside the main
    session's file, or beside the file of the sub-agent that ran it (None when neither holds it)."""
    name = safe_name(agent_id)
    if not name or len(name) > _NAME_LIMIT:
        return None
    folder = os.path.dirname(os.path.abspath(parent_path))
    folders = [folder]
    session = safe_name(session_id)
    if session and len(session) <= _NAME_LIMIT:
        folders.insert(0, os.path.join(folder, session))
    for where in folders:
        for suffix in (".jsonl", ".json"):
            path = os.path.join(where, name + suffix)
            if os.path.isfile(path):
                return path
    return None


def nested(
    parent_path: str,
    session_id: str,
    children: dict[str, str],
    read: Callable[[str, set[str]], Iterator[Event]],
    seen: set[str],
) -> Iterator[Event]:
    """The events of each sub-agent (agent id -> the call that ran it) whose file is here, its top-level
    calls and messages under that call; its own sub-agents are nested by ``read`` in turn."""
    found = ((child_file(parent_path, session_id, agent), call_id) for agent, call_id in children.items())
    return nest_files(found, read, seen, "the sub-agent's file")
