"""Claude Code subagent files: find them next to a session and link each to the Task/Agent call that ran it.

Three generations of storage: sidechain records inside the session (linked while reading, by the
first prompt), project-level ``agent-<id>.jsonl`` files (sessionId = the parent session) and
``<session>/subagents/agent-<id>.jsonl`` with a ``.meta.json``. A Task/Agent result names its
``agentId``; when it does not (an interrupted task, or a named teammate, whose call is answered at
once), the meta's ``toolUseId`` (2.1.2xx writes the id of the call that spawned the agent), the
subagent's first prompt, the meta's ``name`` (an in-process teammate records the name its ``Agent`` call
asked for, and no ``toolUseId``) or its meta description is matched against the calls not linked yet.

The agents a ``Workflow`` call runs (Claude Code 2.1.16x) write one folder deeper, in
``<session>/subagents/workflows/<runId>/agent-<id>.jsonl`` (beside the run's ``journal.jsonl``); the
call's result names the run (``toolUseResult.runId``, and ``Transcript dir: <that folder>`` in its
text), so every agent of that folder nests under it. Every folder under ``subagents/`` is read, at
every depth.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Container
from dataclasses import dataclass, field
from typing import Any

from inspector.userpath import open_binary

WORKFLOW_TOOL = "Workflow"

_AGENT_ID = re.compile(r"[A-Za-z0-9_-]{1,80}")
_PEEK_LIMIT = 4 * 1024 * 1024


@dataclass(slots=True)
class TaskCall:
    """A Task/Agent call of the session, waiting for the subagent records that belong under it."""

    call_id: str
    prompt_key: int | None = None
    description: str = ""
    covered: bool = False
    name: str = ""  # the teammate name an Agent call asked for (input.name)


@dataclass(slots=True)
class AgentFile:
    """A subagent file to read, and the call its records nest under (None: top level)."""

    path: str
    agent_id: str
    parent: str | None
    linked: bool = True


@dataclass
class Planner:
    """Decides which subagent files to read next, as links become known while reading."""

    session_path: str
    session_id: str = ""
    tasks: dict[str, TaskCall] = field(default_factory=dict)
    links: dict[str, str] = field(default_factory=dict)  # agentId -> Task/Agent call id
    used: set[str] = field(default_factory=set)  # absolute paths of the files read
    sessions: list[str] = field(default_factory=list)  # session ids of the records (a resumed file has two)
    runs: dict[str, str] = field(default_factory=dict)  # workflow run folder name -> Workflow call id
    _subagents: dict[str, str] | None = None
    _folders: dict[str, str] = field(default_factory=dict)  # agent id -> its folder below subagents/
    _project: dict[str, dict[str, Any] | None] | None = None
    _leftovers_done: bool = False

    @property
    def subagent_files(self) -> dict[str, str]:
        """``agent-<id>.jsonl`` files anywhere under ``<session>/subagents/``, by agent id."""
        if self._subagents is None:
            self._subagents = {}
            for folder, files in subagent_tree(subagent_dir(self.session_path)):
                for agent_id, path in files.items():
                    if agent_id not in self._subagents:
                        self._subagents[agent_id] = path
                        self._folders[agent_id] = folder
        return self._subagents

    def agent_ids_with_files(self) -> frozenset[str]:
        """Agents whose own file will be read (their progress copies are then ignored)."""
        return frozenset(self.subagent_files)

    def add_task(self, call_id: str, prompt: Any, description: Any, name: Any = None) -> None:
        key = hash(prompt) if isinstance(prompt, str) else None
        text = description if isinstance(description, str) else ""
        named = name if isinstance(name, str) else ""
        self.tasks.setdefault(call_id, TaskCall(call_id, key, text, name=named))

    def cover(self, call_id: str) -> None:
        task = self.tasks.get(call_id)
        if task is not None:
            task.covered = True

    def link(self, agent_id: Any, call_id: str) -> None:
        if isinstance(agent_id, str) and _AGENT_ID.fullmatch(agent_id):
            self.links.setdefault(agent_id, call_id)

    def link_run(self, run_id: str, call_id: str) -> None:
        """The Workflow call ``call_id`` ran ``run_id``: the agents of its folder nest under it."""
        if _AGENT_ID.fullmatch(run_id):
            self.runs.setdefault(run_id, call_id)

    def match_prompt(self, prompt: str | None) -> str | None:
        """The first uncovered Task/Agent call whose prompt is ``prompt`` (it becomes covered)."""
        if prompt is None:
            return None
        key = hash(prompt)
        for task in self.tasks.values():
            if not task.covered and task.prompt_key == key:
                task.covered = True
                return task.call_id
        return None

    def oldest_uncovered(self, done: Container[str]) -> str | None:
        """The oldest uncovered call that has no result yet (it becomes covered)."""
        for task in self.tasks.values():
            if not task.covered and task.call_id not in done:
                task.covered = True
                return task.call_id
        return None

    # -- the next files ---------------------------------------------------------------------
    def next_files(self) -> list[AgentFile]:
        """Files to read now: linked ones first; then, once no link is left, the leftovers."""
        linked = self._linked()
        if linked:
            return linked
        if self._leftovers_done:
            return []
        self._leftovers_done = True
        return self._leftovers()

    def _linked(self) -> list[AgentFile]:
        found = []
        for agent_id, call_id in self.links.items():
            path = (
                self.subagent_files.get(agent_id)
                or _project_file(self.session_path, agent_id)
                or self._resumed_file(agent_id)
            )
            if path is None or os.path.abspath(path) in self.used:
                continue
            self.used.add(os.path.abspath(path))
            self.cover(call_id)
            found.append(AgentFile(path, agent_id, call_id))
        if self.runs:
            for agent_id, path in self.subagent_files.items():
                run_call = self.runs.get(os.path.basename(self._folders.get(agent_id, "")))
                if run_call is None or os.path.abspath(path) in self.used:
                    continue
                self.used.add(os.path.abspath(path))
                found.append(AgentFile(path, agent_id, run_call))
        return found

    def _resumed_file(self, agent_id: str) -> str | None:
        """A subagent of the session this one resumes: in that session's ``subagents/`` folder."""
        folder = os.path.dirname(os.path.abspath(self.session_path))
        for session in self.sessions:
            if _AGENT_ID.fullmatch(session) and _AGENT_ID.fullmatch(agent_id):
                path = os.path.join(folder, session, "subagents", f"agent-{agent_id}.jsonl")
                if os.path.isfile(path):
                    return path
        return None

    def _leftovers(self) -> list[AgentFile]:
        found = []
        for agent_id, path in self.subagent_files.items():
            if os.path.abspath(path) in self.used:
                continue
            self.used.add(os.path.abspath(path))
            first = first_record(path)
            meta = _meta(path)
            parent = (
                self._match_meta(meta, "toolUseId", lambda task: task.call_id)
                or self.match_prompt(first_prompt(first))
                or self._match_meta(meta, "name", lambda task: task.name)
                or self._match_meta(meta, "description", lambda task: task.description)
            )
            found.append(AgentFile(path, agent_id, parent, linked=parent is not None))
        if any(not task.covered and task.prompt_key is not None for task in self.tasks.values()):
            found.extend(self._project_matches())
        return found

    def _match_meta(self, meta: dict[str, Any], key: str, of: Callable[[TaskCall], str]) -> str | None:
        """The first call not linked yet whose ``of`` is the meta's ``key`` (it becomes covered)."""
        wanted = meta.get(key)
        if not isinstance(wanted, str) or not wanted:
            return None
        for task in self.tasks.values():
            if not task.covered and of(task) == wanted:
                task.covered = True
                return task.call_id
        return None

    def _project_matches(self) -> list[AgentFile]:
        """Project-level agent files of this session whose first prompt is an unlinked call's."""
        found = []
        folder = os.path.dirname(os.path.abspath(self.session_path))
        for agent_id, path in _listing(folder).items():
            if os.path.abspath(path) in self.used:
                continue
            first = first_record(path)
            if first is None or first.get("sessionId") != self.session_id:
                continue
            parent = self.match_prompt(first_prompt(first))
            if parent is not None:
                self.used.add(os.path.abspath(path))
                found.append(AgentFile(path, agent_id, parent))
        return found


# -- files ------------------------------------------------------------------------------------------


def is_agent_file(path: str) -> bool:
    """True for a subagent transcript (``agent-<id>.jsonl``)."""
    name = os.path.basename(path)
    return name.startswith("agent-") and name.endswith(".jsonl")


def agent_id_of(path: str) -> str:
    return os.path.basename(path)[len("agent-") : -len(".jsonl")]


def subagent_dir(session_path: str) -> str:
    base = session_path[: -len(".jsonl")] if session_path.endswith(".jsonl") else session_path
    return os.path.join(base, "subagents")


def subagent_tree(root: str, depth: int = 6) -> list[tuple[str, dict[str, str]]]:
    """``(folder, agent files by id)`` for ``root`` and every folder below it (``workflows/<runId>``),
    sorted, down to ``depth`` levels; unreadable folders are left out."""
    found = [(root, _listing(root))]
    if depth <= 0:
        return found
    try:
        names = sorted(os.listdir(root))
    except OSError:
        return found
    for name in names:
        path = os.path.join(root, name)
        if not name.startswith(".") and os.path.isdir(path) and not os.path.islink(path):
            found.extend(subagent_tree(path, depth - 1))
    return found


def workflow_run(structured: Any, content: Any) -> str | None:
    """The run a Workflow call's result names: ``toolUseResult.runId``, else the last folder of the
    ``Transcript dir:`` line of its text."""
    if isinstance(structured, dict) and isinstance(structured.get("runId"), str):
        return str(structured["runId"])
    text = (
        content if isinstance(content, str) else prompt_text(content) if isinstance(content, list) else None
    )
    if text is None:
        return None
    at = text.find("Transcript dir:")
    if at < 0:
        return None
    folder = text[at + len("Transcript dir:") :].split("\n", 1)[0].strip().rstrip("/\\")
    name = folder.replace("\\", "/").rsplit("/", 1)[-1]
    return name or None


def _listing(folder: str) -> dict[str, str]:
    """``agent-<id>.jsonl`` files of ``folder`` by agent id (sorted by name)."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return {}
    files = {}
    for name in names:
        if name.startswith("agent-") and name.endswith(".jsonl"):
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                files[agent_id_of(path)] = path
    return files


class SiblingAgents:
    """The other ``agent-<id>.jsonl`` files in a subagent file's folder, asked one agent at a time. Read on
    its own (a ``subagents/`` folder whose session is missing, a compaction agent opened alone), a subagent
    file's ``agent_progress`` copies of those agents are not its calls: each agent's own file holds them
    (and is shown beside it when the folder is opened)."""

    __slots__ = ("folder", "own", "known")

    def __init__(self, agent_path: str) -> None:
        self.folder = os.path.dirname(os.path.abspath(agent_path))
        self.own = agent_id_of(agent_path)
        self.known: dict[str, bool] = {}

    def __contains__(self, agent_id: object) -> bool:
        if not isinstance(agent_id, str) or agent_id == self.own or not _AGENT_ID.fullmatch(agent_id):
            return False
        found = self.known.get(agent_id)
        if found is None:
            found = self.known[agent_id] = os.path.isfile(
                os.path.join(self.folder, f"agent-{agent_id}.jsonl")
            )
        return found


def _project_file(session_path: str, agent_id: str) -> str | None:
    if not _AGENT_ID.fullmatch(agent_id):
        return None
    path = os.path.join(os.path.dirname(os.path.abspath(session_path)), f"agent-{agent_id}.jsonl")
    return path if os.path.isfile(path) and path != os.path.abspath(session_path) else None


def first_record(path: str) -> dict[str, Any] | None:
    """The first JSON object of a JSON Lines file (None when unreadable or not an object)."""
    try:
        with open_binary(path) as fh:
            for line in fh:
                if line.strip():
                    if len(line) > _PEEK_LIMIT:
                        return None
                    value = json.loads(line)
                    return value if isinstance(value, dict) else None
    except (OSError, ValueError, RecursionError):
        return None
    return None


def first_prompt(record: dict[str, Any] | None) -> str | None:
    """The text of a user record (a subagent's first record is the prompt it was given)."""
    if not isinstance(record, dict) or record.get("type") != "user":
        return None
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    return prompt_text(content)


def prompt_text(content: Any) -> str | None:
    """A user message's text: the string, or its text blocks joined (None when it has none)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [
            b["text"]
            for b in content
            if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)
        ]
        return "\n".join(parts) if parts else None
    return None


def _meta(agent_path: str) -> dict[str, Any]:
    path = agent_path[: -len(".jsonl")] + ".meta.json"
    try:
        with open_binary(path) as fh:
            value = json.loads(fh.read(64 * 1024))
    except (OSError, ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}
