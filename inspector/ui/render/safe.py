"""Session text as inert rich Text: cleaned of control characters, long lines and huge outputs capped."""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style, StyleType
from rich.text import Text

from inspector.textsafe import clean
from inspector.timefmt import duration  # noqa: F401 - re-exported for the views

MAX_LINE_CHARS = 2000
"""Characters shown of one line before a "… (N more chars)" marker."""
MAX_LINES = 2000
"""Lines shown of one text before a "… N more lines not shown" marker."""
MARKER_STYLE = Style(dim=True, italic=True)


@dataclass(frozen=True)
class Limits:
    """How much of a text to show; ``Limits.full()`` shows everything (slow for huge outputs)."""

    line_chars: int = MAX_LINE_CHARS
    lines: int = MAX_LINES

    @classmethod
    def full(cls) -> Limits:
        return cls(line_chars=10**12, lines=10**12)


DEFAULT_LIMITS = Limits()


def split_lines(text: str, limits: Limits = DEFAULT_LIMITS) -> tuple[list[str], int]:
    """The raw lines of ``text`` (split on newlines only) up to ``limits.lines``, and how many were cut.

    Only ``\\n`` (and ``\\r\\n``) split lines: other separators (``\\r``, form feed, U+2028) stay in the
    line so that ``clean`` shows them.
    """
    if not isinstance(text, str):
        text = str(text)
    if text.endswith("\n"):
        text = text[:-1]
    lines: list[str] = []
    start = 0
    size = len(text)
    while len(lines) < limits.lines:
        end = text.find("\n", start)
        if end < 0:
            lines.append(text[start:])
            start = size + 1
            break
        lines.append(text[start:end])
        start = end + 1
    cut = text.count("\n", start) + 1 if start <= size else 0
    return [line[:-1] if line.endswith("\r") else line for line in lines], cut


def safe_line(
    line: str, style: StyleType = "", limits: Limits = DEFAULT_LIMITS, marker_style: StyleType = MARKER_STYLE
) -> Text:
    """One line as Text: cleaned, cut at ``limits.line_chars`` with a visible marker."""
    extra = len(line) - limits.line_chars
    if extra > 0:
        line = line[: limits.line_chars]
    text = Text(clean(line, keep_newlines=False), style=style)
    if extra > 0:
        text.append(f" … ({extra:,} more chars)", marker_style)
    return text


def cut_marker(count: int, what: str = "lines") -> Text:
    """The marker shown where ``count`` lines (or items) were left out."""
    return Text(f"… {count:,} more {what} not shown", MARKER_STYLE)


def safe_text(text: str, style: StyleType = "", limits: Limits = DEFAULT_LIMITS) -> Text:
    """A whole multi-line text as one Text: each line cleaned and capped, then a marker for cut lines."""
    lines, cut = split_lines(text, limits)
    out = Text(style=style)
    for index, line in enumerate(lines):
        if index:
            out.append("\n")
        out.append_text(safe_line(line, limits=limits))
    if cut:
        out.append("\n")
        out.append_text(cut_marker(cut))
    return out


def inline(text: object, limit: int = 200) -> str:
    """A cleaned single-line string of at most ``limit`` characters (for headers and labels)."""
    value = text if isinstance(text, str) else str(text)
    if len(value) > limit:
        value = value[: limit - 1] + "…"
    return clean(value, keep_newlines=False)


def human_size(size: int | float | None) -> str:
    """Bytes as ``512 B``, ``2.3 KB``, ``4.1 MB``."""
    if size is None:
        return ""
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return ""
