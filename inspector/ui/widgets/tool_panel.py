"""A small panel of per-tool figures (count, failures, p50/p90/max, latency sparkline) for the rows shown."""

from __future__ import annotations

import time

from rich.console import Group
from rich.text import Text
from textual.timer import Timer
from textual.widgets import Static

from inspector.model import Call
from inspector.model.tool_stats import ToolFigures, per_tool
from inspector.textsafe import one_line
from inspector.tool_figures import NOT_OK, figure_lines
from inspector.ui.view import RowView

MAX_TOOLS = 8
BUSY_SHARE = 20
"""After a pass over the rows that took t seconds, the next one waits at least BUSY_SHARE * t (a clock tick
or a flood of new rows on a 100k-call session costs the UI at most 1/BUSY_SHARE of its time); a new filter
is shown at once."""


class ToolFiguresPanel(Static):
    """Figures per tool over the rows that match the current filter (context rows excluded)."""

    DEFAULT_CSS = """
    ToolFiguresPanel { display: none; height: auto; max-height: 12; background: $panel; padding: 0 1; }
    CallsPane.-figures ToolFiguresPanel { display: block; }
    """
    SCOPED_CSS = False

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self._figures: list[ToolFigures] = []
        self._title = ""
        self._view: RowView | None = None
        self._now: float | None = None
        self._filter_text: str | None = None
        self._done_at = 0.0
        self._cost = 0.0
        self._timer: Timer | None = None

    def show_view(self, view: RowView, now: float | None) -> None:
        """Recompute from ``view`` (only while shown: the pass is over every visible row)."""
        self._view, self._now = view, now
        if not self.display:
            return
        filter_text = view.filter.text if view.filter is not None else None
        wait = self._done_at + self._cost * BUSY_SHARE - time.monotonic()
        if filter_text != self._filter_text or wait <= 0:
            self._compute()
        elif self._timer is None:
            self._timer = self.set_timer(wait, self._compute)

    def _compute(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        view, now = self._view, self._now
        if view is None or not self.display:
            return
        started = time.monotonic()
        calls = [
            item
            for index, item in enumerate(view.items)
            if isinstance(item, Call) and view.is_match(index, now)
        ]
        self._figures = per_tool(calls, now)
        self._filter_text = view.filter.text if view.filter is not None else None
        shown = one_line(self._filter_text, 60) if self._filter_text is not None else None  # typed or pasted
        self._title = "per tool" + (f" · filter {shown}" if shown is not None else "")
        self._done_at = time.monotonic()
        self._cost = self._done_at - started
        self._paint()

    def _paint(self) -> None:
        width = max(20, self.size.width or self.screen.size.width - 2)  # the content, inside the padding
        if not self._figures:
            self.update(Text(f"{self._title}: no calls", style="dim"))
            return
        lines = figure_lines(self._figures, MAX_TOOLS, width, failed="bold red", legend=False)
        title = Text(self._title + " · " + NOT_OK, style="dim")
        if lines[0].cell_len + 3 + title.cell_len <= width:
            lines[0].append("   ").append_text(title)
        else:  # on a line of its own rather than wrapped under the header
            title.truncate(width, overflow="ellipsis")
            lines.insert(0, title)
        self.update(Group(*lines))

    def on_show(self) -> None:
        self._compute()

    def on_resize(self) -> None:
        if self._view is not None:
            self._paint()
