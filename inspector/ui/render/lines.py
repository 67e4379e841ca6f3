"""GutterLines: rows of fixed-width gutters and wrapping text cells, rendered without rich.table's cost."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.text import Text


@dataclass(frozen=True, slots=True)
class Column:
    """A column: ``width`` cells wide, or flexible (``None``: shares what the fixed columns leave).

    ``repeat``: the cell shows again on every line of a wrapped row (a separator such as ``│``).
    """

    width: int | None = None
    repeat: bool = False


class GutterLines:
    """Rows of cells laid out in columns; flexible cells wrap (folding long words), fixed cells do not.

    Each cell is a Text; its base style (``Text.style``) also fills the cell's padding, so a diff line's
    background spans the whole column. Rows may be a plain Text too: it then spans the full width
    (used for hunk headers and markers).
    """

    def __init__(self, columns: Sequence[Column], rows: Iterable[Sequence[Text] | Text] = ()) -> None:
        self.columns = list(columns)
        self.rows: list[Sequence[Text] | Text] = list(rows)

    def add_row(self, *cells: Text) -> None:
        self.rows.append(cells)

    def add_full(self, text: Text) -> None:
        self.rows.append(text)

    def widths(self, total: int) -> list[int]:
        """Column widths for a total width: flexible columns share what fixed ones leave (at least 1 cell)."""
        fixed = sum(c.width for c in self.columns if c.width is not None)
        flexible = [c for c in self.columns if c.width is None]
        if not flexible:
            return [c.width or 0 for c in self.columns]
        room = max(len(flexible), total - fixed)
        share, extra = divmod(room, len(flexible))
        widths = []
        for column in self.columns:
            if column.width is not None:
                widths.append(column.width)
            else:
                widths.append(share + (1 if extra > 0 else 0))
                extra -= 1
        return widths

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(min(options.max_width, 20), options.max_width)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        widths = self.widths(width)
        new_line = Segment.line()
        for row in self.rows:
            if isinstance(row, Text):
                whole: Sequence[Text] = [row]
                if row.cell_len > width or "\n" in row.plain:
                    whole = list(row.wrap(console, width, overflow="fold"))
                for line in whole:
                    yield from _cell_line(console, line, width, row.style)
                    yield new_line
                continue
            wrapped: list[Sequence[Text]] = []
            for cell, column, cell_width in zip(row, self.columns, widths, strict=False):
                if column.width is None and (cell.cell_len > cell_width or "\n" in cell.plain):
                    wrapped.append(list(cell.wrap(console, cell_width, overflow="fold")))
                else:
                    wrapped.append([cell])
            height = max((len(lines) for lines in wrapped), default=1)
            for index in range(height):
                for cell, lines, cell_width, column in zip(row, wrapped, widths, self.columns, strict=False):
                    part = lines[index] if index < len(lines) else lines[0] if column.repeat else None
                    yield from _cell_line(console, part, cell_width, cell.style)
                yield new_line


def _cell_line(console: Console, line: Text | None, width: int, fill: str | Style) -> Iterable[Segment]:
    """One visual line of a cell, cropped or padded to exactly ``width`` cells."""
    fill_style = console.get_style(fill) if fill else None
    if line is None:
        if width > 0:
            yield Segment(" " * width, fill_style)
        return
    base = console.get_style(line.style) if line.style else None
    segments = list(Segment.apply_style(line.render(console), base))
    length = Segment.get_line_length(segments)
    if length > width:
        segments = Segment.adjust_line_length(segments, width)
        length = width
    yield from segments
    if length < width:
        yield Segment(" " * (width - length), fill_style)
