"""The session browser: Claude Code sessions found under the Claude folder, most recent first."""

from __future__ import annotations

import os
import time
from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static
from textual.worker import Worker, WorkerState

from inspector.textsafe import one_line

ENV_CLAUDE_DIR = "INSPECTOR_CLAUDE_DIR"

EMPTY_HELP = """No Claude Code sessions under {root}.

Open a session file:     inspector PATH...   (Claude .jsonl, recordings, RAP, LM-Kit, Alicia)
Follow a growing file:   inspector --follow PATH
Join a LiveKit room:     inspector live      (LIVEKIT_URL, LIVEKIT_API_KEY, LIVEKIT_API_SECRET)
Try it without a room:   inspector demo
Look somewhere else:     inspector --claude-dir DIR   or   INSPECTOR_CLAUDE_DIR=DIR"""


def claude_root(option: str | None, configured: str | None = None) -> str:
    """Where Claude Code keeps its sessions: the option, INSPECTOR_CLAUDE_DIR, the config, ~/.claude."""
    root = option or os.environ.get(ENV_CLAUDE_DIR) or configured or os.path.join("~", ".claude")
    return os.path.expanduser(root)


def _field(session: Any, *names: str, default: Any = None) -> Any:
    for name in names:
        value = getattr(session, name, None)
        if value is None and isinstance(session, dict):
            value = session.get(name)
        if value is not None:
            return value
    return default


def _size(size: int | None) -> str:
    if size is None:
        return ""
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return ""


class BrowserScreen(Screen):
    """A table of sessions; enter opens the highlighted one."""

    BINDINGS = [Binding("enter", "open", "Open", id="browser-open", show=True),
                Binding("r", "rescan", "Rescan", id="browser-rescan", show=True)]

    def __init__(self, claude_dir: str | None = None) -> None:
        super().__init__()
        self.claude_dir = claude_dir
        self.sessions: list[Any] = []

    def compose(self) -> ComposeResult:
        yield Static("", id="browser-title")
        yield DataTable(cursor_type="row", zebra_stripes=True, id="sessions")
        yield Static("", id="browser-empty")
        yield Footer()

    @property
    def root(self) -> str:
        return claude_root(self.claude_dir, getattr(self.app.config, "claude_dir", None))

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("modified", "project", "session", "size", "tool calls")
        self.query_one("#browser-title", Static).update(Text(f"Claude Code sessions in {one_line(self.root, 200)}"))
        self.set_class(True, "-scanning")
        self._scan()

    def action_rescan(self) -> None:
        self._scan()

    @work(thread=True, exclusive=True, group="scan", exit_on_error=False, description="looking for sessions")
    def _scan(self) -> list[Any]:
        from inspector.sources.claude_sessions import find_sessions

        sessions = list(find_sessions(self.root))
        sessions.sort(key=lambda s: _field(s, "mtime", default=0) or 0, reverse=True)
        return sessions

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "scan":
            return
        if event.state == WorkerState.SUCCESS:
            self._show(event.worker.result or [])
        elif event.state == WorkerState.ERROR:
            self.app.worker_failed(event.worker)
            self._show([])

    def _show(self, sessions: list[Any]) -> None:
        self.sessions = sessions
        self.set_class(False, "-scanning")
        self.set_class(not sessions, "-empty")
        table = self.query_one(DataTable)
        table.clear()
        for index, session in enumerate(sessions):
            mtime = _field(session, "mtime")
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(mtime)) if mtime else ""
            path = str(_field(session, "path", default=""))
            calls = _field(session, "tool_calls", "calls", "tool_uses")
            table.add_row(when, Text(one_line(str(_field(session, "project", default="")), 60)),
                          Text(one_line(os.path.basename(path), 60)), _size(_field(session, "size")),
                          "" if calls is None else str(calls), key=str(index))
        if sessions:
            table.focus()
        else:
            self.query_one("#browser-empty", Static).update(Text(EMPTY_HELP.format(root=one_line(self.root, 200))))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self._open(event.cursor_row)

    def action_open(self) -> None:
        self._open(self.query_one(DataTable).cursor_row)

    def _open(self, index: int) -> None:
        if 0 <= index < len(self.sessions):
            self.app.open_paths([str(_field(self.sessions[index], "path"))])
