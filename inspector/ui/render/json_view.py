"""Any decoded value as highlighted, indented JSON Text (strings cleaned and capped, output capped)."""

from __future__ import annotations

import json
import math
from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.style import Style
from rich.text import Text

from inspector.textsafe import clean
from inspector.ui.render.safe import (
    DEFAULT_LIMITS,
    MARKER_STYLE,
    Limits,
    cut_marker,
    safe_line,
    safe_text,
    split_lines,
)
from inspector.ui.render.theme import RenderTheme

MAX_DEPTH = 64
INDENT = "  "
MAX_PARSE_CHARS = 2_000_000
"""Text longer than this is never parsed as JSON just to pretty-print it."""


class _Full(Exception):
    """The output reached its line limit."""


class _Writer:
    def __init__(self, theme: RenderTheme, limits: Limits, text_blocks: bool = False) -> None:
        self.limits = limits
        self.text_blocks = text_blocks
        self.block: tuple[list[str], int, int] | None = None
        self.out = Text()
        self.lines = 1
        self.gutters: dict[int, int] = {}  # line index -> cells of its indent and bar (text block lines)
        self.key = Style(color=theme.json_key)
        self.string = Style(color=theme.json_string)
        self.number = Style(color=theme.json_number)
        self.literal = Style(color=theme.json_literal)
        self.muted = Style(color=theme.muted)

    def newline(self, depth: int) -> None:
        if self.lines >= self.limits.lines:
            raise _Full
        self.lines += 1
        self.out.append("\n" + INDENT * depth)

    def write(self, value: Any, depth: int) -> None:
        if isinstance(value, dict):
            self.container(list(value.items()), "{", "}", depth, keyed=True)
        elif isinstance(value, (list, tuple)):
            self.container(list(value), "[", "]", depth, keyed=False)
        elif self.text_blocks and isinstance(value, str) and "\n" in value.strip("\n"):
            self.text_block(value, depth)
        else:
            self.scalar(value)

    def text_block(self, value: str, depth: int) -> None:
        """A multi-line string as its lines under a bar (written after the separating comma)."""
        lines, cut = split_lines(value, self.limits)
        count = len(lines) + cut
        self.out.append(f"┆ {count:,} lines of text", self.muted)
        self.block = (lines, cut, depth)

    def flush_block(self) -> None:
        if self.block is None:
            return
        lines, cut, depth = self.block
        self.block = None
        for line in lines:
            self.newline(depth + 1)
            self.gutters[self.lines - 1] = len(INDENT) * (depth + 1) + 2
            self.out.append("┆ ", self.muted)
            self.out.append_text(safe_line(line, self.string, self.limits))
        if cut:
            self.newline(depth + 1)
            self.out.append_text(cut_marker(cut))

    def container(self, items: list, opening: str, closing: str, depth: int, keyed: bool) -> None:
        if not items:
            self.out.append(opening + closing)
            return
        if depth >= MAX_DEPTH:
            self.out.append(f"{opening} … {len(items)} items nested too deep {closing}", self.muted)
            return
        self.out.append(opening)
        for index, item in enumerate(items):
            self.newline(depth + 1)
            if keyed:
                key, item = item
                self.string_value(key if isinstance(key, str) else str(key), self.key)
                self.out.append(": ")
            self.write(item, depth + 1)
            if index < len(items) - 1:
                self.out.append(",")
            self.flush_block()
        self.newline(depth)
        self.out.append(closing)

    def scalar(self, value: Any) -> None:
        if isinstance(value, str):
            self.string_value(value, self.string)
        elif value is None or isinstance(value, bool):
            self.out.append(json.dumps(value), self.literal)
        elif isinstance(value, int):
            self.out.append(str(value), self.number)
        elif isinstance(value, float):
            self.out.append(repr(value) if math.isfinite(value) else json.dumps(value), self.number)
        elif isinstance(value, (bytes, bytearray, memoryview)):
            data = bytes(value)
            preview = data[:16].hex(" ")
            more = " …" if len(data) > 16 else ""
            self.out.append(f"<{len(data):,} bytes: {preview}{more}>", self.literal)
        else:
            self.out.append(
                clean(f"<{type(value).__name__}: {repr(value)[:200]}>", keep_newlines=False), self.muted
            )

    def string_value(self, value: str, style: Style) -> None:
        extra = len(value) - self.limits.line_chars
        if extra > 0:
            value = value[: self.limits.line_chars]
        encoded = json.dumps(value, ensure_ascii=False)
        self.out.append(clean(encoded, keep_newlines=False), style)
        if extra > 0:
            self.out.append(f" … ({extra:,} more chars)", MARKER_STYLE)


class Guttered:
    """JSON whose text-block lines keep their indent and ``┆`` bar on every line they wrap to (a long
    command or prompt line wrapped to column 0 and lost it). Other lines wrap as Text does."""

    def __init__(self, text: Text, gutters: dict[int, int]) -> None:
        self.text = text
        self.gutters = gutters

    @property
    def plain(self) -> str:
        return self.text.plain

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.text)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        for index, line in enumerate(self.text.split("\n", allow_blank=True)):
            gutter = self.gutters.get(index)
            if gutter is None or line.cell_len <= width or width <= gutter + 8:
                yield from line.wrap(console, width)
                continue
            prefix, body = line[:gutter], line[gutter:]
            for part in body.wrap(console, width - gutter):
                yield Text.assemble(prefix, part)


def render_json(
    value: Any, theme: RenderTheme, limits: Limits = DEFAULT_LIMITS, *, text_blocks: bool = False
) -> Text | Guttered:
    """``value`` as pretty JSON (2-space indent, keys in order) with theme colours.

    Strings are JSON-escaped, cleaned and cut at ``limits.line_chars``; output stops after
    ``limits.lines`` lines with a marker; nesting deeper than 64 levels is summarised. With
    ``text_blocks``, a string of several lines (a command, a file's content, a prompt) is shown as
    its lines under a ``┆`` bar instead of one escaped line: easier to read, no longer strict JSON.
    """
    writer = _Writer(theme, limits, text_blocks)
    try:
        writer.write(value, 0)
        writer.flush_block()
    except _Full:
        writer.out.append("\n")
        writer.out.append(f"… JSON cut after {limits.lines:,} lines", MARKER_STYLE)
    except RecursionError:
        writer.out.append("\n… nested too deep to show", MARKER_STYLE)
    return Guttered(writer.out, writer.gutters) if writer.gutters else writer.out


def parse_json_text(text: str) -> tuple[bool, Any]:
    """(True, value) when ``text`` is a JSON object or array, else (False, None)."""
    stripped = text.strip() if isinstance(text, str) else ""
    if not stripped or stripped[0] not in "{[" or len(stripped) > MAX_PARSE_CHARS:
        return False, None
    try:
        return True, json.loads(stripped)
    except (ValueError, RecursionError):
        return False, None


def render_value(
    value: Any, theme: RenderTheme, limits: Limits = DEFAULT_LIMITS, *, text_blocks: bool = True
) -> Text | Guttered:
    """A payload: text as text (or as JSON when it is a JSON document), anything else as JSON
    (multi-line strings inside as text blocks, see ``render_json``)."""
    if isinstance(value, str):
        ok, parsed = parse_json_text(value)
        if ok:
            return render_json(parsed, theme, limits, text_blocks=text_blocks)
        return safe_text(value, limits=limits)
    return render_json(value, theme, limits, text_blocks=text_blocks)
