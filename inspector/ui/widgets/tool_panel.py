"""A small panel of per-tool figures (count, failures, p50/p90/max, latency sparkline) for the rows shown."""

from __future__ import annotations

from rich.console import Group
from textual.widgets import Static

from inspector.model import Call
from inspector.model.tool_stats import per_tool
from inspector.ui.render.tool_figures import figure_lines
from inspector.ui.view import RowView

MAX_TOOLS = 8


class ToolFiguresPanel(Static):
    """Figures per tool over the rows that match the current filter (context rows excluded)."""

    DEFAULT_CSS = """
    ToolFiguresPanel { display: none; height: auto; max-height: 11; background: $panel; padding: 0 1; }
    MainScreen.-figures ToolFiguresPanel { display: block; }
    """
    SCOPED_CSS = False

    def show_view(self, view: RowView, now: float | None) -> None:
        """Recompute from ``view`` (only while shown: the pass is over every visible row)."""
        if not self.display:
            return
        calls = [
            item
            for index, item in enumerate(view.items)
            if isinstance(item, Call) and view.is_match(index, now)
        ]
        figures = per_tool(calls, now)
        title = "per tool" + (f" · filter {view.filter.text}" if view.filter is not None else "")
        if not figures:
            self.update(f"{title}: no calls")
            return
        lines = figure_lines(figures, MAX_TOOLS, failed="bold red")
        lines[0].append(f"   {title}", style="dim")
        self.update(Group(*lines))
