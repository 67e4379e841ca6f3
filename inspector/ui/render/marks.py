"""Marking what the filter searched for in a rendered detail: every case-insensitive match, on every line."""

from __future__ import annotations

import re
from collections.abc import Iterable

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.segment import Segment
from rich.style import Style

MARK = Style(reverse=True, bold=True)


class Marked:
    """``renderable`` with each occurrence of ``needles`` (case-insensitive, within one line) in ``style``.

    Works on the rendered segments, so it marks text in tables, syntax-highlighted code and diffs alike.
    """

    def __init__(self, renderable: RenderableType, needles: Iterable[str], style: Style = MARK) -> None:
        self.renderable = renderable
        words = sorted({needle for needle in needles if needle.strip()}, key=len, reverse=True)
        self.pattern = (
            re.compile("|".join(re.escape(word) for word in words), re.IGNORECASE) if words else None
        )
        self.style = style

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        segments = console.render(self.renderable, options)
        if self.pattern is None:
            yield from segments
            return
        for line in Segment.split_lines(segments):
            yield from self._mark(line)
            yield Segment.line()

    def _mark(self, line: list[Segment]) -> list[Segment]:
        assert self.pattern is not None
        text = "".join(segment.text for segment in line if not segment.control)
        spans = [(m.start(), m.end()) for m in self.pattern.finditer(text) if m.end() > m.start()]
        if not spans:
            return line
        out: list[Segment] = []
        position = 0
        for segment in line:
            if segment.control:
                out.append(segment)
                continue
            start, end = position, position + len(segment.text)
            position = end
            cuts = sorted(
                {start, end, *(p for span in spans for p in span if start < p < end)},
            )
            for left, right in zip(cuts, cuts[1:], strict=False):
                piece = segment.text[left - start : right - start]
                inside = any(a <= left and right <= b for a, b in spans)
                style = (segment.style or Style()) + self.style if inside else segment.style
                out.append(Segment(piece, style))
        return out
