"""Find Claude Code sessions under a folder: project, path, time, size, tool calls (nested too) and a title."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass

from inspector.protocols.claude.subagents import subagent_tree
from inspector.sources.claude_scan import first_prompt, scan
from inspector.sources.folders import LoneAgents, Orphaned, sessions_in
from inspector.userpath import open_binary

ENV = "INSPECTOR_CLAUDE_DIR"


@dataclass(frozen=True, slots=True)
class SessionInfo:
    """One session file (of Claude Code, or of the ``agent`` named)."""

    project: str
    path: str
    modified: float
    size: int
    tool_calls: int | None = None
    title: str = ""  # the session's title (a /rename, Claude's own title) or its first prompt
    agent: str = "Claude Code"
    paths: tuple[str, ...] = ()  # the files the row opens when they are more than ``path`` alone
    note: str = ""  # what to say when it is opened (subagents shown without their missing session)

    def opens(self) -> list[str]:
        """The paths opening the row opens."""
        return list(self.paths) or [self.path]


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

    The files are those opening the folder opens (sources.folders), ``.jsonl`` ones. Subagent transcripts
    (``agent-*.jsonl`` and ``<session>/subagents/``, at every depth) are not sessions of their own: they
    are read with their session, and their calls are counted with it; a ``<session>/subagents/`` folder
    whose session file is missing is one row (its path that folder, its title saying so), and so are the
    2.0.x ``agent-*.jsonl`` files beside the sessions that name one missing session (the row opens them
    all; its path is the first). Unreadable
    entries are left out. ``count_calls=False`` reads nothing but the folders (no counts, no titles).
    """
    root = os.path.abspath(os.path.expanduser(folder))
    found = sessions_in(root)
    sessions = [_orphaned_row(group, count_calls) for group in found.orphaned if group.missing]
    sessions += [_lone_row(group, count_calls) for group in found.lone]
    in_groups = {path for group in found.orphaned for path in group.files}
    in_groups |= {path for group in found.lone for path in group.files}
    agents_by_folder: dict[str, dict[str, list[str]]] = {}
    for path in found.paths:
        if path in in_groups or not path.endswith(".jsonl") or os.path.basename(path).startswith("agent-"):
            continue  # an agent file: read with its session (or a row of the missing session's agents)
        try:
            stat = os.stat(path)
        except OSError:
            try:  # a dangling symlink is still listed: opening it says what it is
                stat = os.lstat(path)
            except OSError:
                continue
        project = project_path(os.path.basename(os.path.dirname(path)))
        calls, title = None, ""
        if count_calls:
            folder_agents = agents_by_folder.get(os.path.dirname(path))
            if folder_agents is None:
                folder_agents = agents_by_folder[os.path.dirname(path)] = _project_agents(
                    os.path.dirname(path)
                )
            calls, title = _describe(path, folder_agents)
        sessions.append(SessionInfo(project, path, stat.st_mtime, stat.st_size, calls, title))
    sessions.sort(key=lambda info: (-info.modified, info.path))
    return sessions


_NOT_KEPT = re.compile(r"[^A-Za-z0-9]")
_PROBE_ENTRIES = 4_000
"""Folder entries looked at, at most, to find the path a project name encodes."""


def project_path(name: str) -> str:
    """The folder a project folder's name stands for: Claude Code names it after the session's working
    folder with every character but letters and digits written ``-`` (``/src/deep/manifest`` ->
    ``-src-deep-manifest``). That is lossy (a ``-`` was a ``/``, ``.``, ``_``, space or ``-``): a folder
    of this machine that encodes to the name is shown when there is one, else each ``-`` is read as
    ``/``. A name that does not start with ``-`` is not such a name and is shown as it is."""
    if not name.startswith("-") or len(name) > 1024:
        return name
    found = _existing(name)
    return found if found is not None else "/" + name[1:].replace("-", "/")


def _existing(name: str) -> str | None:
    """A folder of this machine whose path encodes to ``name`` (a bounded search from ``/``)."""
    budget = [_PROBE_ENTRIES]

    def walk(folder: str, rest: str) -> str | None:
        if not rest:
            return folder
        try:
            entries = sorted(os.listdir(folder))
        except OSError:
            return None
        budget[0] -= len(entries)
        if budget[0] < 0:
            return None
        for entry in entries:
            encoded = _NOT_KEPT.sub("-", entry)
            if rest == encoded or rest.startswith(encoded + "-"):
                path = os.path.join(folder, entry)
                if os.path.isdir(path):
                    found = walk(path, rest[len(encoded) + 1 :])
                    if found is not None:
                        return found
        return None

    return walk("/", name[1:])


def _orphaned_row(group: Orphaned, count_calls: bool) -> SessionInfo:
    """The row of a ``<session>/subagents/`` folder whose session file is missing: its agents' calls."""
    modified, size, calls = _agents_figures(group.files, count_calls)
    session = os.path.basename(group.session_folder)
    title = f"subagents of session {session}, whose session file is missing"
    project = project_path(os.path.basename(os.path.dirname(group.session_folder)))
    return SessionInfo(project, group.folder, modified, size, calls, title, note=group.note)


def _lone_row(group: LoneAgents, count_calls: bool) -> SessionInfo:
    """The row of Claude Code 2.0.x ``agent-*.jsonl`` files beside the sessions whose session file is
    missing (those of one session): their calls; opening it opens them all."""
    modified, size, calls = _agents_figures(group.files, count_calls)
    files = sorted(group.files)
    whose = f"session {group.session}" if group.session else "a session they do not name"
    title = f"{len(files)} subagent file(s) of {whose}, whose session file is missing"
    project = project_path(os.path.basename(group.project))
    return SessionInfo(project, files[0], modified, size, calls, title, paths=tuple(files), note=group.note)


def _agents_figures(files: list[str], count_calls: bool) -> tuple[float, int, int | None]:
    """The newest modification time, the size and the calls (each id once; None when not counted) of
    agent files shown without their session."""
    modified = size = 0.0
    for path in files:
        try:
            stat = os.stat(path)
        except OSError:
            continue
        modified = max(modified, stat.st_mtime)
        size += stat.st_size
    calls = None
    if count_calls:
        ids: set[bytes] = set()
        anonymous = 0
        for path in files:
            nested = scan(path, want_title=False)
            if nested is not None:
                ids |= nested.ids
                anonymous += nested.anonymous
        calls = len(ids) + anonymous
    return modified, int(size), calls


def _describe(path: str, project_agents: dict[str, list[str]]) -> tuple[int | None, str]:
    """Calls of a session with its subagents' (each id once), and its title or first prompt."""
    found = scan(path)
    if found is None:
        return None, ""
    stem = os.path.basename(path)[: -len(".jsonl")]
    files = _subagent_files(path[: -len(".jsonl")])
    first = _session_id(path)
    if first and first != stem:  # a resumed session: the part it repeats ran the earlier one's subagents
        files += _subagent_files(os.path.join(os.path.dirname(path), first))
    for agent in files + project_agents.get(stem, []):
        nested = scan(agent, want_title=False)
        if nested is not None:
            found.ids |= nested.ids
            found.anonymous += nested.anonymous
    return found.calls, found.title or first_prompt(path)


def _subagent_files(session_folder: str) -> list[str]:
    """``agent-*.jsonl`` anywhere under ``<session>/subagents/`` (a Workflow's agents are in
    ``subagents/workflows/<runId>/``), sorted by folder then name."""
    return [
        path
        for _folder, files in subagent_tree(os.path.join(session_folder, "subagents"))
        for path in files.values()
    ]


def _project_agents(folder: str) -> dict[str, list[str]]:
    """Project-level ``agent-*.jsonl`` files (Claude Code 2.0.x) by the session id their records carry."""
    found: dict[str, list[str]] = {}
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return found
    for name in names:
        if name.startswith("agent-") and name.endswith(".jsonl"):
            path = os.path.join(folder, name)
            session = _session_id(path)
            if session:
                found.setdefault(session, []).append(path)
    return found


def _session_id(path: str, lines: int = 50) -> str:
    """The ``sessionId`` of a file's first record that has one ("" when none of the first ``lines`` has
    one): a session file may start with records that carry none (``summary``, ``queue-operation``)."""
    try:
        with open_binary(path) as fh:
            for _ in range(lines):
                line = fh.readline(1 << 20)
                if not line:
                    break
                if b'"sessionId"' not in line:
                    continue
                try:
                    value = json.loads(line)
                except (ValueError, RecursionError):
                    continue
                session = value.get("sessionId") if isinstance(value, dict) else None
                if isinstance(session, str) and session:
                    return session
    except OSError:
        return ""
    return ""


def count_tool_calls(path: str) -> int | None:
    """How many tool calls the file holds, counted in its bytes (each id once; None if unreadable)."""
    found = scan(path, want_title=False)
    return None if found is None else found.calls
