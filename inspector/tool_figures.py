"""The per-tool figures as rich Text lines (count, failures, p50/p90/max, a sparkline), fit to a width.

At 80 columns every column shows and a tool name gets 34 cells; narrower, the sparkline goes first,
then p90 and max, so a line never wraps. A name too long for its column keeps its start and its end
(``mcp__github…view_comment``): tools of one MCP server share their start and differ at the end.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len, set_cell_size
from rich.style import Style
from rich.text import Text

from inspector.model.tool_stats import ToolFigures, bucket_labels, sparkline
from inspector.textsafe import one_line
from inspector.timefmt import duration

WIDTH = 80
TOOL_MIN, TOOL_MAX = 16, 40
"""The tool column's width: a layout keeps a column only while the name keeps at least TOOL_MIN cells."""

COLUMNS = {"calls": 6, "not ok": 7, "p50": 7, "p90": 7, "max": 7}
NOT_OK = "not ok: failed, timed_out, canceled or denied"
"""What the ``not ok`` column counts (said under the table)."""
SPARK_WIDTH = 14
"""Two spaces, then ``▕``, one cell per latency bucket, ``▏``."""

LAYOUTS: tuple[tuple[tuple[str, ...], bool], ...] = (
    (("calls", "not ok", "p50", "p90", "max"), True),
    (("calls", "not ok", "p50", "p90", "max"), False),
    (("calls", "not ok", "p50", "max"), False),
    (("calls", "not ok", "p50"), False),
)
"""The columns shown (and whether the sparkline is), widest first."""


@dataclass(frozen=True)
class Layout:
    tool_width: int
    columns: tuple[str, ...]
    spark: bool


def layout_for(width: int) -> Layout:
    """The widest layout whose tool column keeps TOOL_MIN cells in ``width`` (the narrowest otherwise)."""
    for columns, spark in LAYOUTS:
        fixed = sum(COLUMNS[c] for c in columns) + (SPARK_WIDTH if spark else 0)
        if width - fixed >= TOOL_MIN:
            return Layout(min(TOOL_MAX, width - fixed), columns, spark)
    columns, spark = LAYOUTS[-1]
    return Layout(max(4, width - sum(COLUMNS[c] for c in columns)), columns, spark)


def _ms(value: float | None) -> str:
    return "-" if value is None else duration(max(0.0, value) / 1000.0)


def _tail(text: str, cells: int) -> str:
    """The end of ``text`` in at most ``cells`` cells."""
    taken: list[str] = []
    used = 0
    for char in reversed(text):
        used += cell_len(char)
        if used > cells:
            break
        taken.append(char)
    return "".join(reversed(taken))


def tool_cell(name: str, width: int) -> str:
    """``name`` in exactly ``width`` cells: whole, or its start, ``…`` and its end."""
    text = one_line(name, 200)
    if cell_len(text) <= width:
        return set_cell_size(text, width)
    if width < 8:
        return set_cell_size(text, width - 1) + "…"
    head = (width - 1) // 2
    start = set_cell_size(text, head).rstrip() if cell_len(text[:head]) > head else text[:head]
    end = _tail(text, width - 1 - cell_len(start))
    return set_cell_size(start + "…" + end, width)


def header_line(shape: Layout) -> Text:
    labels = bucket_labels()
    cells = "".join(name.rjust(COLUMNS[name]) for name in shape.columns)
    spark = f"  {labels[0]}…{labels[-1]}" if shape.spark else ""
    return Text(f"{'tool'.ljust(shape.tool_width)}{cells}{spark}", style="bold")


def figure_line(
    figures: ToolFigures, shape: Layout, *, failed: Style | str = "", spark: Style | str = ""
) -> Text:
    """One tool: name, count, failures, p50, p90, max and the latency histogram as a sparkline."""
    line = Text(tool_cell(figures.tool, shape.tool_width))
    values = {
        "calls": str(figures.count),
        "p50": _ms(figures.p50_ms),
        "p90": _ms(figures.p90_ms),
        "max": _ms(figures.max_ms),
    }
    for name in shape.columns:
        if name == "not ok":
            line.append(str(figures.failures).rjust(COLUMNS[name]), style=failed if figures.failures else "")
        else:
            line.append(values[name].rjust(COLUMNS[name]))
    if shape.spark:
        line.append("  ")
        line.append("▕" + sparkline(figures.histogram()) + "▏", style=spark)
    return line


def figure_lines(
    all_figures: list[ToolFigures],
    limit: int | None = None,
    width: int = WIDTH,
    *,
    failed: Style | str = "",
    spark: Style | str = "",
    legend: bool = True,
) -> list[Text]:
    """The header and one line per tool (the busiest ``limit`` tools, then a line saying how many more),
    none wider than ``width``; ``legend``: then a line saying what ``not ok`` counts."""
    shape = layout_for(width)
    shown = all_figures if limit is None else all_figures[:limit]
    lines = [header_line(shape)]
    lines += [figure_line(f, shape, failed=failed, spark=spark) for f in shown]
    if len(shown) < len(all_figures):
        lines.append(Text(f"… {len(all_figures) - len(shown)} more tool(s)", style="dim"))
    if legend and "not ok" in shape.columns:
        lines.append(Text(one_line(NOT_OK, max(20, width)), style="dim"))
    return lines
