"""Find Codex CLI and Gemini CLI sessions under their folders, described as the browser lists them.

The folders come from options or environment variables (``INSPECTOR_CODEX_DIR``, else
``$CODEX_HOME/sessions``, else ``~/.codex/sessions``; ``INSPECTOR_GEMINI_DIR``, else ``~/.gemini/tmp``).
Each session is read once by its format's reader (the counts are the ones opening it shows).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable

from inspector import protocols
from inspector.model.events import Message, Request
from inspector.protocols.format import Format
from inspector.sources.claude_sessions import SessionInfo
from inspector.sources.folders import sessions_in
from inspector.userpath import open_binary

CODEX_ENV = "INSPECTOR_CODEX_DIR"
GEMINI_ENV = "INSPECTOR_GEMINI_DIR"
_CWD = re.compile(r"<cwd>([^<\n]{1,400})</cwd>")
_HASH = re.compile(r"[0-9a-f]{32,}")


def codex_dir(option: str | None = None) -> str:
    """Where Codex rollouts are looked for."""
    if option:
        return os.path.expanduser(option)
    if os.environ.get(CODEX_ENV):
        return os.path.expanduser(os.environ[CODEX_ENV])
    home = os.environ.get("CODEX_HOME") or os.path.join("~", ".codex")
    return os.path.join(os.path.expanduser(home), "sessions")


def gemini_dir(option: str | None = None) -> str:
    """Where Gemini CLI sessions are looked for."""
    folder = option or os.environ.get(GEMINI_ENV) or os.path.join("~", ".gemini", "tmp")
    return os.path.expanduser(folder)


def find_codex(folder: str, count_calls: bool = True) -> list[SessionInfo]:
    """The Codex rollouts under ``folder`` (``rollout-*.jsonl``), most recent first."""
    return _find(folder, _is_rollout, "codex", "Codex", count_calls)


def find_gemini(folder: str, count_calls: bool = True) -> list[SessionInfo]:
    """The Gemini CLI sessions under ``folder`` (``chats/session-*.json`` or ``.jsonl``, saved chats
    ``checkpoint-*.json``), most recent first."""
    return _find(folder, _is_gemini_session, "gemini", "Gemini", count_calls)


def _is_rollout(directory: str, name: str) -> bool:
    return name.startswith("rollout-") and name.endswith(".jsonl")


def _is_gemini_session(directory: str, name: str) -> bool:
    """A chat (``chats/session-*``) or a saved chat (``checkpoint-*.json``: sources.folders found it in a
    project's folder)."""
    if name.startswith("checkpoint-") and name.endswith(".json"):
        return True
    return (
        os.path.basename(directory) == "chats"
        and name.startswith("session-")
        and name.endswith((".json", ".jsonl"))
    )


def _find(
    folder: str, wanted: Callable[[str, str], bool], fmt: str, agent: str, count_calls: bool
) -> list[SessionInfo]:
    reader = protocols.get(fmt)
    found = []
    found_here = sessions_in(folder).paths  # what opening the folder opens, of this agent
    for path in (p for p in found_here if wanted(os.path.dirname(p), os.path.basename(p))):
        try:
            stat = os.stat(path)
        except OSError:
            continue
        calls, title, project = (None, "", "")
        if count_calls:
            calls, title, project = _describe(reader, path)
        if not project:
            project = _gemini_project(path) if fmt == "gemini" else ""
        found.append(SessionInfo(project, path, stat.st_mtime, stat.st_size, calls, title, agent))
    found.sort(key=lambda info: (-info.modified, info.path))
    return found


def _describe(fmt: Format, path: str) -> tuple[int | None, str, str]:
    """Calls (nested included), the first prompt the user typed, and the working folder's name."""
    calls = 0
    title = ""
    cwd = _cwd_of(path)
    try:
        for event in fmt.read(path):
            if isinstance(event, Request):
                calls += 1
            elif isinstance(event, Message) and event.kind == "user":
                text = event.text.strip()
                if not cwd and (match := _CWD.search(text)):
                    cwd = match.group(1).strip()
                if not title and _typed(text):
                    title = text
    except Exception:  # noqa: BLE001 - a file that cannot be read is listed, without figures
        return None, "", ""
    return calls, title, _last_part(cwd)


def _typed(text: str) -> bool:
    """A prompt the user typed (not the instructions or context the CLI sends as a user message)."""
    return bool(text) and not text.startswith(("<", "# AGENTS.md", "# Context from my IDE"))


def _cwd_of(path: str) -> str:
    """A Codex rollout's working folder, from its first record (``session_meta`` or the bare header)."""
    try:
        with open_binary(path) as fh:
            line = fh.readline(1 << 20)
        record = json.loads(line)
    except (OSError, ValueError, RecursionError):
        return ""
    if not isinstance(record, dict):
        return ""
    payload = record.get("payload")
    for holder in (payload, record):
        if isinstance(holder, dict) and isinstance(holder.get("cwd"), str):
            return str(holder["cwd"])
    return ""


def _last_part(folder: str) -> str:
    return os.path.basename(folder.replace("\\", "/").rstrip("/")) if folder else ""


def _gemini_project(path: str) -> str:
    """``tmp/<project>/chats/<session>`` (or ``tmp/<project>/checkpoint-*.json``): the project's folder
    name (a hash shortened to 12 characters)."""
    folder = os.path.dirname(path)
    if os.path.basename(folder) == "chats":
        folder = os.path.dirname(folder)
    name = os.path.basename(folder)
    return name[:12] if _HASH.fullmatch(name) else name
