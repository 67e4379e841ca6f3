"""The session browser: Claude Code, Codex and Gemini sessions found under their folders, most recent first."""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static
from textual.worker import Worker, WorkerState

from inspector.sources.agent_sessions import codex_dir, find_codex, find_gemini, gemini_dir
from inspector.sources.claude_sessions import SessionInfo, default_dir, find_sessions
from inspector.textsafe import one_line
from inspector.ui.keys import BY_ID
from inspector.ui.widgets.footer import SteadyFooter

if TYPE_CHECKING:
    from inspector.ui.app import InspectorApp

EMPTY_HELP = """No sessions under {root}.

Open a session file:     inspector PATH...   (Claude .jsonl, recordings, RAP, LM-Kit, Alicia)
Follow a growing file:   inspector --follow PATH
Join a LiveKit room:     inspector live      (LIVEKIT_URL, LIVEKIT_API_KEY, LIVEKIT_API_SECRET)
Try it without a room:   inspector demo
Look somewhere else:     inspector --claude-dir DIR   or   INSPECTOR_CLAUDE_DIR=DIR
                         inspector --codex-dir DIR    or   INSPECTOR_CODEX_DIR=DIR (or CODEX_HOME)
                         inspector --gemini-dir DIR   or   INSPECTOR_GEMINI_DIR=DIR"""


TITLE_WIDTH = 72
"""Characters of a session's title or first prompt shown in its row."""


def claude_root(option: str | None, configured: str | None = None) -> str:
    """The folder to browse: ``--claude-dir`` (its ``projects`` folder if it has one), else
    ``INSPECTOR_CLAUDE_DIR``, the config's ``claude_dir``, then ``~/.claude/projects``."""
    if option:
        folder = os.path.expanduser(option)
        projects = os.path.join(folder, "projects")
        return projects if os.path.isdir(projects) else folder
    return default_dir(configured)


def _tail(text: str, width: int) -> str:
    """``text`` on one line in ``width`` characters; a longer path keeps its end (the project's name)."""
    line = one_line(text, 4 * width)
    return line if len(line) <= width else "…" + line[-(width - 1) :]


def _size(size: float) -> str:
    for unit in ("B", "KB", "MB"):
        if size < 1024:
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} GB"


class SessionTable(DataTable):
    """The table of sessions; it moves with the call list's keys (j/k/g/G, remapped with them)."""

    BINDINGS = [
        BY_ID[key].binding() for key in ("cursor-down", "cursor-up", "first", "last", "page-down", "page-up")
    ]

    def action_first(self) -> None:
        if self.row_count:
            self.move_cursor(row=0)

    def action_last(self) -> None:
        if self.row_count:
            self.move_cursor(row=self.row_count - 1)


class BrowserScreen(Screen):
    """A table of sessions; enter opens the highlighted one."""

    BINDINGS = [
        Binding("enter", "open", "Open", id="browser-open", show=True),
        Binding("r", "rescan", "Rescan", id="browser-rescan", show=True),
    ]

    def __init__(
        self, claude_dir: str | None = None, codex_dir: str | None = None, gemini_dir: str | None = None
    ) -> None:
        super().__init__()
        self.claude_dir = claude_dir
        self.codex_dir = codex_dir
        self.gemini_dir = gemini_dir
        self.sessions: list[SessionInfo] = []

    def compose(self) -> ComposeResult:
        yield Static("", id="browser-title")
        yield SessionTable(cursor_type="row", zebra_stripes=True, id="sessions")
        yield Static("", id="browser-empty")
        yield SteadyFooter()

    @property
    def _app(self) -> InspectorApp:
        return cast("InspectorApp", self.app)

    @property
    def root(self) -> str:
        return claude_root(self.claude_dir, getattr(self._app.config, "claude_dir", None))

    @property
    def folders(self) -> list[tuple[str, str]]:
        """(agent, folder) for each agent, in the order they are listed in the title."""
        return [
            ("Claude Code", self.root),
            ("Codex", codex_dir(self.codex_dir)),
            ("Gemini", gemini_dir(self.gemini_dir)),
        ]

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(
            "modified", "agent", "project", "tool calls", "size", "title or first prompt", "session"
        )
        where = "\n".join(  # a folder that does not exist says so first (a long path is cut at its end)
            f"{agent} sessions in {one_line(folder, 200)}"
            if os.path.isdir(folder)
            else f"{agent} sessions: no such folder {one_line(folder, 200)}"
            for agent, folder in self.folders
        )
        self.query_one("#browser-title", Static).update(Text(where, no_wrap=True, overflow="ellipsis"))
        self.set_class(True, "-scanning")
        self._scan()

    def action_rescan(self) -> None:
        self._scan()

    @work(thread=True, exclusive=True, group="scan", exit_on_error=False, description="looking for sessions")
    def _scan(self) -> list[SessionInfo]:
        folders = dict(self.folders)
        found = find_sessions(folders["Claude Code"])
        found += find_codex(folders["Codex"])
        found += find_gemini(folders["Gemini"])
        found.sort(key=lambda info: (-info.modified, info.path))
        return found

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "scan":
            return
        if event.state == WorkerState.SUCCESS:
            self._show(event.worker.result or [])
        elif event.state == WorkerState.ERROR:
            self._app.worker_failed(event.worker)
            self._show([])

    def _show(self, sessions: list[SessionInfo]) -> None:
        self.sessions = sessions
        self.set_class(False, "-scanning")
        self.set_class(not sessions, "-empty")
        table = self.query_one(DataTable)
        table.clear()
        for index, session in enumerate(sessions):
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(session.modified))
            calls = "" if session.tool_calls is None else str(session.tool_calls)
            table.add_row(
                when,
                Text(one_line(session.agent, 12)),
                Text(_tail(session.project, 40)),
                Text(calls, justify="right"),
                _size(session.size),
                Text(one_line(session.title, TITLE_WIDTH)),
                Text(one_line(os.path.basename(session.path), 60)),
                key=str(index),
            )
        if sessions:
            table.focus()
        else:
            self.query_one("#browser-empty", Static).update(
                Text(EMPTY_HELP.format(root=", ".join(one_line(folder, 120) for _, folder in self.folders)))
            )

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self._open(event.cursor_row)

    def action_open(self) -> None:
        self._open(self.query_one(DataTable).cursor_row)

    def _open(self, index: int) -> None:
        if 0 <= index < len(self.sessions):
            session = self.sessions[index]
            self._app.open_paths(session.opens(), [session.note] if session.note else [])
