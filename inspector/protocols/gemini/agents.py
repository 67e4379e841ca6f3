"""Gemini CLI sub-agents: the calls and messages of a sub-agent's own file, nested under the call that ran it.

As gemini-cli records them (packages/core/src/services/chatRecordingService.ts, ``initialize``): a
sub-agent's conversation is a JSON Lines file of its own, ``chats/<main session id>/<agent id>.jsonl``,
whose header says ``kind: "subagent"`` and whose ``sessionId`` is the agent id; both ids are made safe for
a file name (utils/fileUtils.ts ``sanitizeFilenamePart``: a character outside ``[A-Za-z0-9_-]`` becomes
``_``). A sub-agent's own sub-agents go to the same folder: the parent session id handed down is always
the main session's (agents/local-executor.ts ``executionContext``). The call that ran a sub-agent carries
its ``agentId`` (core/geminiChat.ts ``recordCompletedToolCalls``, from agents/local-invocation.ts's
``data``), written once the call has ended, so its file is complete when the call is read.

Earlier builds (2026-04, JSON documents) name no agent on the call: ``codebase_investigator`` and
``save_memory`` ran a sub-agent whose file ``chats/<main session id>/<short id>.json`` (``kind:
"subagent"``) no record points at. Such a file is still read: under the call that was running when the
sub-agent started (its ``startTime`` within the span from the call's message to the call's end; the
tightest such call), or at the top level when no call was.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator

import inspector.protocols.common.values as _values
from inspector import protocols
from inspector.model.events import Event, Request
from inspector.protocols.common.nesting import nest_files
from inspector.userpath import open_binary

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


_START = re.compile(rb'"startTime"\s*:\s*"([^"]{1,64})"')


def unnamed(
    parent_path: str,
    session_id: str,
    spans: dict[str, tuple[float, float]],
    read: Callable[[str, set[str]], Iterator[Event]],
    seen: set[str],
) -> Iterator[Event]:
    """The sub-agent files of the session's own folder (``chats/<session id>/``) that no call named,
    each under the call whose span (call id -> asked, over) holds the sub-agent's start; none: top level."""
    name = safe_name(session_id)
    if not name or len(name) > _NAME_LIMIT:
        return iter(())
    folder = os.path.join(os.path.dirname(os.path.abspath(parent_path)), name)
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return iter(())
    found: list[tuple[str | None, str | None]] = []
    for entry in names:
        path = os.path.join(folder, entry)
        if entry.endswith((".json", ".jsonl")) and os.path.abspath(path) not in seen and os.path.isfile(path):
            found.append((path, _running_at(spans, _started(path))))
    return nest_files(found, read, seen, "the sub-agent's file")


def _started(path: str) -> float | None:
    """The ``startTime`` a session file's header gives, from the first bytes (a JSON document writes it
    before its messages, a JSON Lines log in its first line)."""
    try:
        with open_binary(path) as fh:
            head = protocols.first_head(fh)  # a header's long leading field hides no start
    except OSError:
        return None
    found = _START.search(head)
    return _values.parse_time(found.group(1).decode("ascii", "replace")) if found else None


def _running_at(spans: dict[str, tuple[float, float]], when: float | None) -> str | None:
    """The call running at ``when`` whose span is the shortest (a sub-agent runs inside its call)."""
    if when is None:
        return None
    running = [(over - asked, call_id) for call_id, (asked, over) in spans.items() if asked <= when <= over]
    return min(running)[1] if running else None
