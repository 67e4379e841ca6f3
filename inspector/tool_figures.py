"""The per-tool figures as rich Text lines (count, failures, p50/p90/max, a sparkline), fit to a width,
or as plain strings (``figure_strings``: no Rich imported, for a headless command writing no styles).

At 80 columns every column shows and a tool name gets 34 cells; narrower, the sparkline goes first,
then p90 and max, so a line never wraps. A name too long for its column keeps its start and its end
(``mcp__github…view_comment``): tools of one MCP server share their start and differ at the end.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from inspector.model.tool_stats import ToolFigures, bucket_labels, sparkline
from inspector.textsafe import one_line
from inspector.timefmt import duration

if TYPE_CHECKING:
    from rich.style import Style
    from rich.text import Text

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


def _ascii(text: str) -> bool:
    return text.isascii() and text.isprintable()


def _narrow(text: str) -> bool:
    """Every character of ``text`` takes one cell: printable ASCII, or the ellipsis ``one_line`` adds."""
    return _ascii(text.replace("…", ""))


def cell_len(text: str) -> int:
    """The cells ``text`` takes in a terminal (Rich's measure; Rich is imported only for other text)."""
    if _narrow(text):
        return len(text)
    from rich.cells import cell_len as rich_cell_len

    return rich_cell_len(text)


def set_cell_size(text: str, cells: int) -> str:
    """``text`` cut or padded with spaces to ``cells`` cells, as Rich's ``set_cell_size`` makes it."""
    if _ascii(text):  # Rich's own path for single-cell text
        return text + " " * (cells - len(text)) if len(text) < cells else text[:cells]
    if _narrow(text):  # Rich's path for other text, each of its characters one cell
        return "" if cells <= 0 else text + " " * (cells - len(text)) if len(text) < cells else text[:cells]
    from rich.cells import set_cell_size as rich_set_cell_size

    return rich_set_cell_size(text, cells)


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


Piece = tuple[str, str]
"""A piece of a line: its text and what it is (``""``, ``"failed"``: a failure count, ``"spark"``)."""


def header_text(shape: Layout) -> str:
    labels = bucket_labels()
    cells = "".join(name.rjust(COLUMNS[name]) for name in shape.columns)
    spark = f"  {labels[0]}…{labels[-1]}" if shape.spark else ""
    return f"{'tool'.ljust(shape.tool_width)}{cells}{spark}"


def figure_pieces(figures: ToolFigures, shape: Layout) -> list[Piece]:
    """One tool: name, count, failures, p50, p90, max and the latency histogram as a sparkline."""
    pieces: list[Piece] = [(tool_cell(figures.tool, shape.tool_width), "")]
    values = {
        "calls": str(figures.count),
        "p50": _ms(figures.p50_ms),
        "p90": _ms(figures.p90_ms),
        "max": _ms(figures.max_ms),
    }
    for name in shape.columns:
        if name == "not ok":
            pieces.append((str(figures.failures).rjust(COLUMNS[name]), "failed" if figures.failures else ""))
        else:
            pieces.append((values[name].rjust(COLUMNS[name]), ""))
    if shape.spark:
        pieces.append(("  ", ""))
        pieces.append(("▕" + sparkline(figures.histogram()) + "▏", "spark"))
    return pieces


def header_line(shape: Layout) -> Text:
    from rich.text import Text

    return Text(header_text(shape), style="bold")


def figure_line(
    figures: ToolFigures, shape: Layout, *, failed: Style | str = "", spark: Style | str = ""
) -> Text:
    """One tool's line as rich Text, its failure count styled ``failed`` and its sparkline ``spark``."""
    from rich.text import Text

    styles = {"": "", "failed": failed, "spark": spark}
    line = Text()
    for text, kind in figure_pieces(figures, shape):
        line.append(text, style=styles[kind])
    return line


def _texts(
    all_figures: list[ToolFigures], limit: int | None, width: int, legend: bool
) -> tuple[Layout, list[ToolFigures], str | None, str | None]:
    shape = layout_for(width)
    shown = all_figures if limit is None else all_figures[:limit]
    more = f"… {len(all_figures) - len(shown)} more tool(s)" if len(shown) < len(all_figures) else None
    said = one_line(NOT_OK, max(20, width)) if legend and "not ok" in shape.columns else None
    return shape, shown, more, said


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
    from rich.text import Text

    shape, shown, more, said = _texts(all_figures, limit, width, legend)
    lines = [header_line(shape)]
    lines += [figure_line(f, shape, failed=failed, spark=spark) for f in shown]
    lines += [Text(text, style="dim") for text in (more, said) if text is not None]
    return lines


def figure_strings(
    all_figures: list[ToolFigures], limit: int | None = None, width: int = WIDTH, *, legend: bool = True
) -> list[str]:
    """What ``figure_lines`` says, as plain strings (the same characters, no styles)."""
    shape, shown, more, said = _texts(all_figures, limit, width, legend)
    lines = [header_text(shape)]
    lines += ["".join(text for text, _ in figure_pieces(f, shape)) for f in shown]
    lines += [text for text in (more, said) if text is not None]
    return lines
