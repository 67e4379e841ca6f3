"""The per-tool figures as rich Text lines (count, failures, p50/p90/max, a sparkline), fit for 80 columns."""

from __future__ import annotations

from rich.cells import cell_len, set_cell_size
from rich.style import Style
from rich.text import Text

from inspector.model.tool_stats import ToolFigures, bucket_labels
from inspector.textsafe import one_line
from inspector.timefmt import duration

TOOL_WIDTH = 24
HEADER = ("calls", "fail", "p50", "p90", "max")
WIDTHS = (6, 5, 7, 7, 7)


def _ms(value: float | None) -> str:
    return "-" if value is None else duration(max(0.0, value) / 1000.0)


def _tool(name: str, width: int) -> str:
    text = one_line(name, 200)
    if cell_len(text) > width:
        return set_cell_size(text, width - 1) + "…"
    return set_cell_size(text, width)


def header_line(tool_width: int = TOOL_WIDTH) -> Text:
    first, last = bucket_labels()[0], bucket_labels()[-1]
    cells = "".join(h.rjust(w) for h, w in zip(HEADER, WIDTHS, strict=True))
    return Text(f"{'tool'.ljust(tool_width)}{cells}  {first}…{last}", style="bold")


def figure_line(
    figures: ToolFigures, tool_width: int = TOOL_WIDTH, *, failed: Style | str = "", spark: Style | str = ""
) -> Text:
    """One tool: name, count, failures, p50, p90, max and the latency histogram as a sparkline."""
    line = Text(_tool(figures.tool, tool_width))
    line.append(str(figures.count).rjust(WIDTHS[0]))
    line.append(str(figures.failures).rjust(WIDTHS[1]), style=failed if figures.failures else "")
    for value, width in zip((figures.p50_ms, figures.p90_ms, figures.max_ms), WIDTHS[2:], strict=True):
        line.append(_ms(value).rjust(width))
    line.append("  ")
    line.append(_spark(figures), style=spark)
    return line


def _spark(figures: ToolFigures) -> str:
    from inspector.model.tool_stats import sparkline

    return "▕" + sparkline(figures.histogram()) + "▏"


def figure_lines(
    all_figures: list[ToolFigures],
    limit: int | None = None,
    tool_width: int = TOOL_WIDTH,
    *,
    failed: Style | str = "",
    spark: Style | str = "",
) -> list[Text]:
    """The header and one line per tool (the busiest ``limit`` tools, then a line saying how many more)."""
    shown = all_figures if limit is None else all_figures[:limit]
    lines = [header_line(tool_width)]
    lines += [figure_line(f, tool_width, failed=failed, spark=spark) for f in shown]
    if len(shown) < len(all_figures):
        lines.append(Text(f"… {len(all_figures) - len(shown)} more tool(s)", style="dim"))
    return lines
