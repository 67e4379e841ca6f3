"""What opening a folder opens: the sessions of every format the inspector reads found under it.

One walk for every command that takes a folder (the app, ``stats``, ``dump``, ``check``,
``export-otlp``): Claude Code sessions (``<project>/<session>.jsonl``), Codex rollouts
(``sessions/YYYY/MM/DD/rollout-*.jsonl``, ``archived_sessions/``), Gemini CLI chats
(``tmp/<project>/chats/session-*.json`` and ``.jsonl``) and saved chats (``tmp/<project>/checkpoint-*.json``,
in a folder that holds ``chats`` or ``logs.json`` or is named by the project's hash).

Files that belong to a session are read with it, not on their own: a Claude Code session's folder
(``<session>/subagents/``, ``<session>/tool-results/``), a Gemini sub-agent's file
(``chats/<session id>/*``). A Claude Code ``<session>/subagents/`` folder whose ``<session>.jsonl`` is not
there (deleted, or not copied) and that no session of its project resumes is shown on its own, each agent
file a session, with a note saying whose subagents they are and that the session is missing; so are
Claude Code 2.0.x ``agent-*.jsonl`` files beside the sessions whose session (the ``sessionId`` they carry)
is not there, and a Gemini CLI ``chats/<session id>/`` whose session file is not in ``chats``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from inspector import protocols
from inspector.protocols.claude.subagents import subagent_tree
from inspector.userpath import open_binary

LOOKED_FOR = (
    "no Claude Code session (<project>/<session>.jsonl), Codex rollout (rollout-*.jsonl) or "
    "Gemini CLI chat (chats/session-*.json or .jsonl, checkpoint-*.json)"
)
"""What a folder was searched for, said when it holds none of it."""

MAX_DEPTH = 5
"""Folders below the one opened that are searched (``.codex`` -> ``sessions/YYYY/MM/DD``, ``.gemini`` ->
``tmp/<project>/chats``)."""

_HASH = re.compile(r"[0-9a-f]{64}")  # a Gemini CLI project's temp folder: the hash of the project's path
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")
_HISTORY = "history.jsonl"  # ~/.claude's and ~/.codex's prompt history: the prompts typed, no call
_SESSION_ID = re.compile(rb'"sessionId"\s*:\s*"([^"\\]{1,200})"')


@dataclass
class Orphaned:
    """A Claude Code ``<session>/subagents/`` folder shown on its own, and why."""

    session_folder: str  # <project>/<session>: its .jsonl is not beside it (or it is the folder opened)
    files: list[str]  # its agent files, at every depth
    note: str = ""
    missing: bool = True  # the session file is not there (else: the folder opened is inside the session's)

    @property
    def folder(self) -> str:
        return os.path.join(self.session_folder, "subagents")


@dataclass
class LoneAgents:
    """Claude Code 2.0.x ``agent-*.jsonl`` files beside the sessions whose session file is missing, all
    of one session (the ``sessionId`` their records carry; "" when they carry none)."""

    project: str  # the folder they are in
    session: str
    files: list[str]
    note: str = ""  # the line said of the project's lone agent files (one for all its sessions)


@dataclass
class FolderSessions:
    """The session files found under a folder, oldest first, and what the user should be told."""

    paths: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    orphaned: list[Orphaned] = field(default_factory=list)  # their files are in ``paths`` too
    lone: list[LoneAgents] = field(default_factory=list)  # so are these


def sessions_in(folder: str) -> FolderSessions:
    """The sessions under ``folder`` (see the module's doc), oldest first by modification time: a resumed
    session after the one it continues. Unreadable folders are passed over."""
    root = os.path.abspath(folder)
    found: list[str] = []
    orphans: list[Orphaned] = []
    project_agents: dict[str, list[str]] = {}  # folder -> its agent-*.jsonl (Claude Code 2.0.x)
    agents_of_gemini: dict[str, list[str]] = {}  # chats/<session id> -> its sub-agents' files
    for directory, folders, files in os.walk(root):
        inner = directory != root
        if directory[len(root) :].count(os.sep) >= MAX_DEPTH:
            folders[:] = []
        name = os.path.basename(directory)
        if name == "subagents":
            folders[:] = []
            session_folder = os.path.dirname(directory)
            agents = [path for _f, by_id in subagent_tree(directory) for path in by_id.values()]
            if agents:
                orphans.append(Orphaned(session_folder, agents))
            continue
        if inner and os.path.basename(os.path.dirname(directory)) == "chats":
            folders[:] = []  # a Gemini session's sub-agents (chats/<session id>/): read with it
            agents_of_gemini[directory] = [os.path.join(directory, f) for f in sorted(files) if _is_json(f)]
            continue
        if inner and _is_session_folder(directory):
            folders[:] = []  # a Claude Code session's own folder: read with it
            continue
        folders[:] = sorted(n for n in folders if not n.startswith(".") and n != "tool-results")
        gemini_project = "chats" in folders or "logs.json" in files or bool(_HASH.fullmatch(name))
        for entry in sorted(files):
            if _is_session(entry, name, gemini_project):
                found.append(os.path.join(directory, entry))
            elif entry.startswith("agent-") and entry.endswith(".jsonl"):
                project_agents.setdefault(directory, []).append(os.path.join(directory, entry))
    result = FolderSessions()
    for directory, agents in project_agents.items():
        said, lone = _lone_project_agents(directory, agents)
        if lone:
            found += [path for files in lone.values() for path in files]
            result.notes.append(said)
            result.lone += [LoneAgents(directory, session, files, said) for session, files in lone.items()]
    for directory, agents in agents_of_gemini.items():
        if agents and os.path.basename(directory) not in _gemini_sessions(os.path.dirname(directory)):
            found += agents
            result.notes.append(
                f"{directory}: {len(agents)} sub-agent file(s) of Gemini CLI session "
                f"{os.path.basename(directory)}, whose session file is missing: shown on their own"
            )
    for group in orphans:
        note = _orphan_note(group)
        if note is None:
            continue
        group.note = note
        group.missing = not os.path.isfile(group.session_folder + ".jsonl")
        found += group.files
        result.notes.append(note)
        result.orphaned.append(group)
    result.paths = sorted(found, key=_age)
    return result


def _is_session(name: str, folder: str, gemini_project: bool) -> bool:
    if name.endswith(".jsonl"):  # agent-*.jsonl: a Claude Code subagent, read with its session
        return not name.startswith("agent-") and name != _HISTORY
    if not name.endswith(".json"):
        return False
    if folder == "chats" and name.startswith("session-"):
        return True
    return gemini_project and name.startswith("checkpoint-")  # a saved chat (/chat save) of the project


def _is_json(name: str) -> bool:
    return name.endswith((".json", ".jsonl"))


def _gemini_sessions(chats: str) -> set[str]:
    """The session ids of the ``session-*`` files of a ``chats`` folder, as the CLI names their sub-agents'
    folders (a character outside ``[A-Za-z0-9_-]`` written ``_``)."""
    ids = set()
    for name in _listing(chats):
        if name.startswith("session-") and _is_json(name):
            session = _first_id(os.path.join(chats, name))
            if session:
                ids.add(_UNSAFE.sub("_", session))
    return ids


def _is_session_folder(directory: str) -> bool:
    """True for ``<session>/`` beside ``<session>.jsonl``: its files belong to that session."""
    return os.path.isfile(directory.rstrip(os.sep) + ".jsonl")


def _orphan_note(group: Orphaned) -> str | None:
    """What to say of a ``subagents/`` folder shown on its own; None when its session reads it."""
    folder = group.session_folder
    session = os.path.basename(folder)
    count = f"{len(group.files)} subagent file(s) of session {session}"
    if os.path.isfile(folder + ".jsonl"):  # the folder opened is in the session's own folder
        return f"{folder}/subagents: {count} shown without the session (open {session}.jsonl for all of it)"
    if _resumed_by(session, os.path.dirname(folder)):
        return None  # a later session of the project continues it and reads the agents it names
    return (
        f"{folder}/subagents: {count}, whose session file {session}.jsonl is missing: "
        "shown on their own, not nested under the calls that started them"
    )


def _resumed_by(session: str, project: str) -> bool:
    """True when a session file of ``project`` starts as a resume of ``session`` (its first records carry
    that ``sessionId``): the reader looks for that session's subagents in its folder."""
    return session in _first_ids(project)


def _first_ids(project: str) -> set[str]:
    """The ``sessionId`` each session file of ``project`` starts with (a resume: the earlier session's)."""
    try:
        names = sorted(os.listdir(project))
    except OSError:
        return set()
    ids = set()
    for name in names:
        if name.endswith(".jsonl") and not name.startswith("agent-"):
            session = _first_id(os.path.join(project, name))
            if session:
                ids.add(session)
    return ids


def _first_id(path: str) -> str:
    try:
        with open_binary(path) as fh:
            head = protocols.first_head(fh)  # a first record's long leading field hides no id
    except OSError:
        return ""
    match = _SESSION_ID.search(head)
    return match.group(1).decode("utf-8", "replace") if match is not None else ""


def _lone_project_agents(project: str, agents: list[str]) -> tuple[str, dict[str, list[str]]]:
    """Claude Code 2.0.x keeps a subagent's file beside the sessions, ``agent-<id>.jsonl``, its records
    carrying the session's id: those whose session file is not in the folder (and that no session of
    it resumes) are shown on their own, with one line naming them. Returns that line and the files by
    the session they name."""
    kept = {name[: -len(".jsonl")] for name in _listing(project) if name.endswith(".jsonl")}
    kept |= _first_ids(project)
    lone: dict[str, list[str]] = {}
    for path in agents:
        session = _first_id(path)
        if session not in kept:
            lone.setdefault(session, []).append(path)
    if not lone:
        return "", {}
    sessions = [session for session in lone if session]
    named = ", ".join(sessions[:3]) + (f" and {len(sessions) - 3} more" if len(sessions) > 3 else "")
    count = sum(len(files) for files in lone.values())
    note = (
        f"{project}: {count} subagent file(s) (agent-*.jsonl) of session(s) {named or 'not named'}, "
        "whose session file is missing: shown on their own, not nested under the calls that started them"
    )
    return note, lone


def _listing(folder: str) -> list[str]:
    try:
        return os.listdir(folder)
    except OSError:
        return []


def _age(path: str) -> tuple[float, str]:
    try:
        return os.stat(path).st_mtime, path
    except OSError:
        try:  # a dangling symlink is still listed: opening it says what it is
            return os.lstat(path).st_mtime, path
        except OSError:
            return 0.0, path
