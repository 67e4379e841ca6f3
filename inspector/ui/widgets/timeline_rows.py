"""One timeline row as a Strip: an indented label, then the call's bar on the time scale (eighth blocks)."""

from __future__ import annotations

import math

from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from inspector.model import Call, Malformed, OrphanResult
from inspector.model.call import Item
from inspector.textsafe import one_line
from inspector.ui.render.rows import RowStyles, fit, item_ts, timing
from inspector.ui.timescale import GAP_CELLS, Scale, bar_cells, gap_cells, gap_label, ticks

LABEL_MAX = 28
NO_TIME = "(no time)"
HEAD = "time from first call"


def label_width(width: int) -> int:
    """Cells of the label column at a widget width (the rest is the time area, after one separator); a
    narrow terminal gives the names a third, so that they still say which call a bar is."""
    return max(8, min(LABEL_MAX, width // 4 if width >= 80 else width // 3))


def item_span(item: Item, now: float | None) -> tuple[float, float] | None:
    """(start, end) in seconds of what the row draws: a call from request to result (or to now)."""
    if isinstance(item, Call):
        start = item.request.ts
        if start is None or not math.isfinite(start):
            return None
        first = item.result
        if first is not None and first.ts is not None and math.isfinite(first.ts):
            return start, max(start, first.ts)
        return start, max(start, now if now is not None else start)
    ts = item_ts(item)
    return (ts, ts) if ts is not None and math.isfinite(ts) else None


def _label(
    item: Item, depth: int, width: int, styles: RowStyles, context: bool, now: float | None, folded: bool
) -> list[Segment]:
    """The indented tool (or row kind), then its time right-aligned: a countdown while pending, else the latency."""
    indent = "  " * min(depth, 6)
    if isinstance(item, Call):
        text, style = item.tool, styles["tool"]
        if item.children:
            text = ("▸ " if folded else "▾ ") + text
    elif isinstance(item, OrphanResult):
        text, style = "orphan " + (item.result.tool or "?"), styles["orphan-text"]
    elif isinstance(item, Malformed):
        text, style = "malformed", styles["malformed-text"]
    else:
        text, style = item.kind, styles["message-text"]
    when, when_name = timing(item, now)
    if len(when) + 8 > width:  # the name first: the time is in the detail
        when = ""
    when_style = styles[when_name]
    if context:
        style = when_style = styles["context"]
    name_width = width - len(when) - (1 if when else 0)
    segments = [Segment(fit(indent + one_line(text, 80), name_width), style)]
    if when:
        segments += [Segment(" ", styles["row"]), Segment(when, when_style)]
    return segments + [Segment("│", styles["dim"])]


def render_bar_row(
    item: Item,
    depth: int,
    width: int,
    scale: Scale | None,
    styles: RowStyles,
    now: float | None,
    *,
    context: bool = False,
    folded: bool = False,
) -> Strip:
    """Label, then the bar coloured by the call's state, its deadline marker and late/duplicate marks
    (no scale: nothing in the session has a time, and the row is its label)."""
    base = styles["row"]
    lw = label_width(width)
    area = max(0, width - lw - 1)
    cells: list[tuple[str, Style]] = [(" ", base)] * area
    if scale is not None:
        for x, _ in gap_cells(scale, area):
            for dx in range(min(GAP_CELLS, area - x)):
                cells[x + dx] = ("┊" if dx == GAP_CELLS // 2 else " ", styles["tl-gap"])
    span = item_span(item, now)
    if span is not None and scale is not None:
        _draw(cells, item, span, area, scale, styles, now)
    elif isinstance(item, Call) and scale is not None:  # a call the record gives no time (among timed ones)
        for offset, char in enumerate(NO_TIME[:area]):
            cells[offset] = (char, styles["tl-axis"])
    segments = _label(item, depth, lw, styles, context, now, folded)
    segments += runs(cells)
    strip = Strip(segments, lw + 1 + area)  # every cell is one column wide: no need to measure
    if context:
        strip = strip.apply_style(styles["context"])
    return strip.adjust_cell_length(width, base)


def runs(cells: list[tuple[str, Style]]) -> list[Segment]:
    """One segment per run of cells sharing a style object (a row is mostly blanks: a few segments)."""
    segments: list[Segment] = []
    text: list[str] = []
    current: Style | None = None
    for char, style in cells:
        if style is not current:
            if text:
                segments.append(Segment("".join(text), current))
            text, current = [char], style
        else:
            text.append(char)
    if text:
        segments.append(Segment("".join(text), current))
    return segments


def _draw(
    cells: list[tuple[str, Style]],
    item: Item,
    span: tuple[float, float],
    area: int,
    scale: Scale,
    styles: RowStyles,
    now: float | None,
) -> None:
    x0, x1 = scale.x(span[0]), scale.x(span[1])
    if not isinstance(item, Call):
        name = "orphan" if isinstance(item, OrphanResult) else "tl-message"
        cell = math.floor(x0)
        if 0 <= cell < area:
            cells[cell] = ("◆" if isinstance(item, OrphanResult) else "·", styles[name])
        return
    state = item.state(now).value
    colour = styles[f"tl-{state}"]
    inverted = colour + Style(reverse=True)
    for cell, char, flip in bar_cells(x0, x1, area):
        cells[cell] = (char, inverted if flip else colour)
    deadline = item.deadline
    if deadline is not None and not item.results:
        dx = math.floor(scale.x(deadline))
        if dx >= area:
            dx, mark = area - 1, "▸"  # beyond the right edge: say it is further on
        else:
            mark = "┃"
        if 0 <= dx < area and cells[dx][0] == " ":
            cells[dx] = (mark, styles["tl-deadline"])
    marks = ("!" if item.late else "") + (f"+{item.duplicates}" if item.duplicates else "")
    if marks:
        start = math.floor(x1) + 1
        for offset, char in enumerate(marks):
            if 0 <= start + offset < area:
                cells[start + offset] = (char, styles["tl-mark"])


def render_note(width: int, note: str, styles: RowStyles) -> Strip:
    """The axis line when there is no axis to draw: why (no rows, no times)."""
    lw = label_width(width)
    area = max(0, width - lw - 1)
    segments = [Segment(fit(HEAD, lw), styles["dim"]), Segment("│", styles["dim"])]
    segments.append(Segment(fit(note, area), styles["tl-axis"]))
    return Strip(segments).adjust_cell_length(width, styles["row"])


def render_axis(width: int, scale: Scale, origin: float, styles: RowStyles, now: float | None) -> Strip:
    """The time axis: tick labels relative to ``origin``, collapsed gaps, and the ``now`` line."""
    lw = label_width(width)
    area = max(0, width - lw - 1)
    chars = [" "] * area
    kinds = ["axis"] * area
    for x, gap in gap_cells(scale, area):  # first: a tick label never hides a gap
        text = gap_label(gap.end - gap.start).ljust(GAP_CELLS)[:GAP_CELLS]
        for offset, char in enumerate(text[: area - x]):
            chars[x + offset], kinds[x + offset] = char, "tl-gap"
    if now is not None:  # before the ticks: a label never runs into the now marker
        x = math.floor(scale.x(now))
        if 0 <= x < area:
            chars[x], kinds[x] = "▼", "tl-now"
    for x, label in ticks(scale, area, origin):
        text = "╵" + label
        end = x + len(text) + 1
        if x + len(text) <= area and all(
            c == " " and kind == "axis" for c, kind in zip(chars[x:end], kinds[x:end], strict=True)
        ):
            for offset, char in enumerate(text[: area - x]):
                chars[x + offset] = char
    segments = [Segment(fit(HEAD, lw), styles["dim"]), Segment("│", styles["dim"])]
    axis = styles["tl-axis"]
    cells = [
        (char, axis if kind == "axis" else styles[kind]) for char, kind in zip(chars, kinds, strict=True)
    ]
    return Strip(segments + runs(cells)).adjust_cell_length(width, styles["row"])
