"""Find Claude Code sessions under a folder: project, path, time, size and a cheap count of tool calls."""

from __future__ import annotations

import os
from dataclasses import dataclass

ENV = "INSPECTOR_CLAUDE_DIR"
TOOL_USE = b'"type":"tool_use"'
_BLOCK = 1 << 20
_MAX_DEPTH = 4  # folders below the root that are searched (projects/<project>/<session>.jsonl and a bit more)


@dataclass(frozen=True, slots=True)
class SessionInfo:
    """One Claude Code session file."""

    project: str
    path: str
    modified: float
    size: int
    tool_calls: int | None = None


def default_dir(configured: str | None = None) -> str:
    """Where sessions are looked for: ``$INSPECTOR_CLAUDE_DIR``, else ``configured``, else ~/.claude/projects.

    A folder that holds a ``projects`` folder (a ``.claude`` folder) stands for that ``projects`` folder.
    """
    folder = os.environ.get(ENV) or configured or os.path.join("~", ".claude", "projects")
    folder = os.path.expanduser(folder)
    projects = os.path.join(folder, "projects")
    return projects if os.path.isdir(projects) else folder


def find_sessions(folder: str, count_calls: bool = True) -> list[SessionInfo]:
    """The sessions under ``folder``, most recently modified first.

    Subagent transcripts (``agent-*.jsonl`` and ``<session>/subagents/``) are not sessions of their
    own: they are read with their session. Unreadable entries are left out.
    """
    root = os.path.abspath(os.path.expanduser(folder))
    sessions = []
    for path in _session_files(root):
        try:
            stat = os.stat(path)
        except OSError:
            continue
        calls = count_tool_calls(path) if count_calls else None
        project = os.path.basename(os.path.dirname(path))
        sessions.append(SessionInfo(project, path, stat.st_mtime, stat.st_size, calls))
    sessions.sort(key=lambda info: (-info.modified, info.path))
    return sessions


def _session_files(root: str):
    for directory, folders, files in os.walk(root, onerror=None):
        depth = directory[len(root) :].count(os.sep)
        if depth >= _MAX_DEPTH:
            folders[:] = []
        folders[:] = sorted(name for name in folders if name != "subagents" and not name.startswith("."))
        for name in sorted(files):
            if name.endswith(".jsonl") and not name.startswith("agent-"):
                yield os.path.join(directory, name)


def count_tool_calls(path: str) -> int | None:
    """How many ``"type":"tool_use"`` blocks the file holds, counted in its bytes (None if unreadable).

    Cheap and close: a 2.1.x progress record repeating a subagent's call counts it again.
    """
    count = 0
    keep = len(TOOL_USE) - 1
    tail = b""
    try:
        with open(path, "rb") as fh:
            while True:
                block = fh.read(_BLOCK)
                if not block:
                    return count
                data = tail + block
                count += data.count(TOOL_USE)
                tail = data[-keep:]
    except OSError:
        return None
