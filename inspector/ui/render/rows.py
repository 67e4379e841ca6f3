"""One call-list row as a Strip: fixed columns built from cleaned session strings, never from markup."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TypeGuard

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from inspector.calltext import unseen_words
from inspector.model import Call, Malformed, Marker, OrphanResult, State
from inspector.model.call import Item
from inspector.textsafe import one_line
from inspector.timefmt import clock_text, duration

SOON, URGENT = 10.0, 3.0
"""Seconds left when a countdown turns "soon" (and redraws 4x a second), then "urgent"."""

STATE_WORDS = {state: state.value for state in State}
"""A state's one name, as the filter takes it (``state:timed_out``), the CLI and the JSON write it."""


@dataclass(frozen=True)
class Layout:
    """Column positions for one width: ``clock``, ``source``, ``badge``, ``timing``, ``tool``, ``exec``."""

    width: int
    show_clock: bool
    source_width: int
    badge_x: int
    timing_x: int
    tool_x: int
    tool_width: int
    exec_width: int
    summary_x: int

    BADGE = 9
    TIMING = 8

    @classmethod
    def for_width(cls, width: int, multi_source: bool) -> Layout:
        show_clock = width >= 50
        source_width = 12 if multi_source and width >= 90 else 0
        exec_width = 6 if width >= 70 else 0
        x = 9 if show_clock else 0
        x += source_width + (1 if source_width else 0)
        badge_x = x
        timing_x = badge_x + cls.BADGE + 1
        tool_x = timing_x + cls.TIMING + 1
        tool_width = 24 if width >= 100 else 16
        summary_x = tool_x + tool_width + 1 + (exec_width + 1 if exec_width else 0)
        return cls(
            width, show_clock, source_width, badge_x, timing_x, tool_x, tool_width, exec_width, summary_x
        )


duration_text = duration
"""A short duration: ``850ms``, ``4.2s``, ``12s``, ``3m05s`` (the one formatter of the project)."""


def countdown(remaining: float) -> tuple[str, str]:
    """The time column of a pending call with a deadline, and its style name."""
    if remaining <= 0:
        return "+" + duration_text(-remaining), "overdue"
    if remaining <= SOON:
        shown = math.ceil(remaining * 4) / 4  # changes four times a second
        return f"{shown:.1f}s", "urgent" if remaining <= URGENT else "soon"
    whole = math.ceil(remaining)
    return duration_text(whole) if whole >= 60 else f"{whole}s", "pending"


def timing(item: Item, now: float | None) -> tuple[str, str]:
    """Text and style name of the time column: a countdown while pending, the latency when done."""
    if not isinstance(item, Call):
        return "", "dim"
    if item.results:
        latency = item.latency_ms
        text = duration_text(max(0.0, latency) / 1000.0) if latency is not None else ""
        return text, "late" if item.late else "latency"
    remaining = item.remaining(now) if now is not None else None
    if remaining is None:
        return "", "dim"
    return countdown(remaining)


def needs_ticks(item: Item) -> TypeGuard[Call]:
    """True for a row whose time column moves with the clock."""
    return isinstance(item, Call) and not item.results and item.deadline is not None


@dataclass
class RowStyles:
    """Rich styles by name, taken from the call list's component classes (so from the theme)."""

    styles: dict[str, Style]

    def __getitem__(self, name: str) -> Style:
        return self.styles.get(name) or Style()


def fit(text: str, width: int) -> str:
    """``text`` cut (with an ellipsis) or padded to exactly ``width`` cells."""
    if width <= 0:
        return ""
    if cell_len(text) > width:
        return set_cell_size(text, width - 1) + "…"
    return set_cell_size(text, width)


def _cell(text: str, width: int, style: Style) -> Segment:
    """A column of ``width`` cells followed by one space."""
    return Segment(fit(text, width) + " ", style)


def _badge_and_style(item: Item, now: float | None) -> tuple[str, str]:
    if isinstance(item, Call):
        state = item.state(now)
        return STATE_WORDS[state], state.value
    if isinstance(item, OrphanResult):
        return ("early", "pending") if item.waiting(now) else ("orphan", "orphan")
    if isinstance(item, Malformed):
        return "malformed", "malformed"
    if isinstance(item, Marker):
        return "───────", "message"
    return "message", "message"


def _tool_text(item: Item) -> str:
    if isinstance(item, Call):
        return one_line(item.tool, 80)
    if isinstance(item, OrphanResult):
        return one_line(item.result.tool or "?", 80)
    if isinstance(item, Malformed):
        return one_line(item.where, 80)
    kind = item.kind[:-7] if item.kind.endswith("Message") and len(item.kind) > 7 else item.kind
    return one_line(kind, 80)


def _summary(item: Item) -> list[tuple[str, str]]:
    """(text, style name) pieces for the summary column."""
    if isinstance(item, Call):
        pieces = [(one_line(item.request.summary, 300), "summary")]
        first = item.result
        if first is not None and (first.error_code or first.error_message):
            error = " ".join(p for p in (first.error_code, first.error_message) if p)
            pieces.append(("  " + one_line(error, 160), "failed"))
        flags = []
        if item.undelivered:
            flags.append("not delivered")
        if "failure_as_text" in item.notes:
            flags.append("failure reported as success")
        if item.late:
            flags.append("late")
        if item.duplicates:
            flags.append(f"+{item.duplicates} dup")
        if first is not None and first.answered_by:
            flags.append("answered by " + one_line(first.answered_by, 30))
        if flags:
            pieces.append(("  (" + ", ".join(flags) + ")", "flag"))
        if item.request.violation:
            pieces.append(("  ⚠ " + one_line(item.request.violation, 200), "violation"))
        return pieces
    if isinstance(item, OrphanResult):
        result = item.result
        pieces = [("result for unknown id " + one_line(result.call_id, 60), "orphan-text")]
        if item.unseen_before is not None:
            pieces.append(("  (" + unseen_words(item) + ")", "flag"))
        if result.error_message:
            pieces.append(("  " + one_line(result.error_message, 160), "failed"))
        return pieces
    if isinstance(item, Malformed):
        return [(one_line(item.reason, 300), "malformed-text")]
    if isinstance(item, Marker):
        return [("── " + one_line(item.text, 300) + (" ▸" if item.body else "") + " ──", "message-text")]
    return [(one_line(item.text, 300), "message-text")]


def nested_count(call: Call) -> int:
    """How many calls are nested under ``call``, at every depth."""
    count = 0
    stack = list(call.children)
    while stack:
        child = stack.pop()
        if isinstance(child, Call):
            count += 1
            stack.extend(child.children)
    return count


def item_ts(item: Item) -> float | None:
    if isinstance(item, Call):
        return item.request.ts
    if isinstance(item, OrphanResult):
        return item.result.ts
    return getattr(item, "ts", None)


def render_row(
    item: Item,
    depth: int,
    layout: Layout,
    styles: RowStyles,
    now: float | None,
    *,
    source: str = "",
    folded: bool = False,
    context: bool = False,
) -> Strip:
    """The row for ``item``: clock, source, state badge, time column, tool, executor, summary."""
    base = styles["context"] if context else styles["row"]
    segments: list[Segment] = []
    if layout.show_clock:
        segments.append(_cell(clock_text(item_ts(item)), 8, styles["clock"]))
    if layout.source_width:
        segments.append(_cell(one_line(source, 40), layout.source_width, styles["source"]))
    badge, state_style = _badge_and_style(item, now)
    segments.append(Segment(fit(badge, Layout.BADGE), styles[state_style]))
    segments.append(Segment(" ", base))
    time_text, time_style = timing(item, now)
    segments.append(Segment(time_text.rjust(Layout.TIMING)[-Layout.TIMING :] + " ", styles[time_style]))
    indent = "  " * min(depth, 6)
    if isinstance(item, Call) and item.children:
        marker = "▸ " if folded else "▾ "
    else:
        marker = "  " if depth else ""
    tool_style = styles["tool"] if isinstance(item, (Call, OrphanResult)) else styles["where"]
    lead = (indent + marker)[: layout.tool_width - 4]
    segments.append(Segment(lead, base))
    tool = _tool_text(item)
    if folded and isinstance(item, Call) and item.children:
        tool += f" ({nested_count(item)})"  # how much the fold hides
    segments.append(_cell(tool, layout.tool_width - len(lead), tool_style))
    if layout.exec_width:
        executor = item.request.executor.value if isinstance(item, Call) and item.request.executor else ""
        segments.append(_cell(executor, layout.exec_width, styles["exec"]))
    room = layout.width - layout.summary_x
    for text, name in _summary(item):
        if room <= 0:
            break
        piece = text if cell_len(text) <= room else set_cell_size(text, room - 1) + "…"
        segments.append(Segment(piece, styles[name]))
        room -= cell_len(piece)
    strip = Strip(segments)
    if context:
        strip = strip.apply_style(styles["context"])
    return strip.adjust_cell_length(layout.width, base)
