"""Small pieces shared by the views: section headings, label/value lines, numbered text blocks."""

from __future__ import annotations

import time

from rich.style import Style
from rich.text import Text

from inspector.ui.render.highlight import highlight_code
from inspector.ui.render.lines import Column, GutterLines
from inspector.ui.render.safe import DEFAULT_LIMITS, Limits, cut_marker, inline
from inspector.ui.render.theme import RenderTheme


def heading(title: str, theme: RenderTheme, note: str = "") -> Text:
    """A section title (``title`` is the renderer's own words; ``note`` is cleaned, it may hold data)."""
    text = Text()
    text.append(title, Style(color=theme.heading, bold=True))
    if note:
        text.append("  " + inline(note, 300), Style(color=theme.muted))
    return text


def fields_line(pairs: list[tuple[str, object]], theme: RenderTheme) -> Text:
    """``label value · label value`` for the pairs whose value is not None or empty (values cleaned)."""
    text = Text()
    label_style = Style(color=theme.muted)
    first = True
    for label, value in pairs:
        if value is None or value == "":
            continue
        if not first:
            text.append("  ·  ", label_style)
        first = False
        if label:
            text.append(label + " ", label_style)
        text.append(inline(value, 300))
    return text


def muted(words: str, theme: RenderTheme) -> Text:
    """The renderer's own remark, in the muted colour."""
    return Text(words, Style(color=theme.muted, italic=True))


def clock(ts: float | None) -> str:
    """Local wall-clock time with milliseconds, or ``--:--:--``."""
    if ts is None:
        return "--:--:--"
    try:
        base = time.strftime("%H:%M:%S", time.localtime(ts))
    except (OverflowError, OSError, ValueError):
        return "??:??:??"
    return f"{base}.{int((ts % 1) * 1000):03d}"


def numbered_code(
    code: str, path: str | None, theme: RenderTheme, start_line: int = 1, limits: Limits = DEFAULT_LIMITS
) -> GutterLines:
    """File content highlighted by its path's language, with line numbers counted from ``start_line``."""
    lines, cut = highlight_code(code, path, theme.syntax_style, limits)
    last = start_line + len(lines) + cut
    width = max(3, len(str(last))) + 1
    number_style = Style(color=theme.line_number)
    view = GutterLines([Column(width + 1), Column(None)])
    for number, line in enumerate(lines, start=start_line):
        view.add_row(Text(str(number).rjust(width) + " ", number_style), line)
    if cut:
        view.add_full(cut_marker(cut))
    return view
