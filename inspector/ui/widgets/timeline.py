"""The timeline: one bar per row of the call list's view, on a zoomable time axis (line API, visible rows only)."""

from __future__ import annotations

import bisect
from operator import attrgetter

from rich.style import Style
from textual.strip import Strip

from inspector.model import Call
from inspector.model.call import Item
from inspector.ui import keys
from inspector.ui.render.rows import SOON, RowStyles
from inspector.ui.timescale import Gap, Scale, Spans
from inspector.ui.view import RowView
from inspector.ui.widgets.call_rows import CallRows
from inspector.ui.widgets.timeline_measure import RowSpans
from inspector.ui.widgets.timeline_rows import (
    item_span,
    label_width,
    render_axis,
    render_bar_row,
    render_note,
)

TIMELINE_STYLES = (
    "tl-pending",
    "tl-overdue",
    "tl-succeeded",
    "tl-failed",
    "tl-timed_out",
    "tl-canceled",
    "tl-denied",
    "tl-deadline",
    "tl-mark",
    "tl-gap",
    "tl-now",
    "tl-axis",
    "tl-message",
)

IDLE_GAP = 60.0
"""Seconds with no call running before the stretch is collapsed (when gaps are collapsed)."""

FIT_NOW_WITHIN = 3600.0
"""Fit all reaches to now when calls are running and now is at most this far past the last event (a
finished file's never-answered calls do not squeeze the whole session into the left edge)."""

RESULTS = attrgetter("results")

ZOOM_STEP = 2.0
PAN_FRACTION = 0.25


class Timeline(CallRows):
    """The rows of a RowView as bars in time; the call list's sibling, with the same cursor, messages and keys.

    The first line is the time axis; rows start on the second. ``mode`` is ``fit`` (the whole session
    fits the width, refitted as calls come), ``follow`` (now stays near the right edge) or ``manual``.
    """

    COMPONENT_CLASSES = CallRows.COMPONENT_CLASSES | {f"timeline--{name}" for name in TIMELINE_STYLES}
    BINDINGS = keys.TIMELINE_BINDINGS
    SCOPED_CSS = False
    HEAD = 1  # the time axis

    DEFAULT_CSS = """
    Timeline { display: none; height: 1fr; background: $background; overflow-x: hidden; }
    CallsPane.-timeline #calls { display: none; }
    CallsPane.-timeline Timeline, CallsPane.-split Timeline { display: block; }
    MainScreen.-detail-open Timeline { display: none; }
    Timeline > .timeline--tl-pending { color: $call-pending; }
    Timeline > .timeline--tl-overdue { color: $call-overdue; }
    Timeline > .timeline--tl-succeeded { color: $call-succeeded; }
    Timeline > .timeline--tl-failed { color: $call-failed; }
    Timeline > .timeline--tl-timed_out { color: $call-timed-out; }
    Timeline > .timeline--tl-canceled { color: $call-canceled; }
    Timeline > .timeline--tl-denied { color: $call-denied; }
    Timeline > .timeline--tl-deadline { color: $timeline-deadline; text-style: bold; }
    Timeline > .timeline--tl-mark { color: $timeline-mark; text-style: bold; }
    Timeline > .timeline--tl-gap { color: $timeline-gap; }
    Timeline > .timeline--tl-now { color: $timeline-now; text-style: bold; }
    Timeline > .timeline--tl-axis { color: $text-muted; }
    Timeline > .timeline--tl-message { color: $text-muted; }
    """

    def __init__(
        self,
        view: RowView,
        *,
        sources: dict[str, str] | None = None,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(view, sources=sources, name=name, id=id, classes=classes)
        self.scale: Scale | None = None
        self.origin = 0.0
        self.mode = "fit"
        self.collapse_gaps = True
        self._scale_id = 0
        self._spans = Spans(IDLE_GAP)
        self._row_spans = RowSpans(IDLE_GAP)
        self._calls_running: list[Call] = []
        """Calls without a result among the measured rows (their bars grow with the clock)."""
        self._measured_items: list[Item] | None = None
        self._measured_count = 0
        self._extent: tuple[float, float] | None = None
        self._gaps: tuple[Gap, ...] = ()
        self._pending = False
        self._deadlines: list[float] = []
        """Deadlines of the running calls, sorted (fit all shows the next one to pass)."""

    # -- styles ----------------------------------------------------------------------------------
    def style_map(self) -> dict[str, Style]:
        styles = super().style_map()
        for name in TIMELINE_STYLES:
            styles[name] = self.get_component_rich_style(f"timeline--{name}", partial=True)
        return styles

    @property
    def area(self) -> int:
        """Cells of the time area."""
        width = self.scrollable_content_region.width
        return max(1, width - label_width(width) - 1)

    # -- the scale -------------------------------------------------------------------------------
    def _measure(self) -> None:
        """The session's extent, idle gaps and running calls: new rows and newly answered calls only."""
        items = self.view.items
        count = len(items)
        if items is not self._measured_items or count < self._measured_count:
            self.remeasure()  # the rows were rebuilt (filter, fold, a new store): start again
            self._measured_items = items
        changed = False
        if not self._measured_count and count:  # every row: from the spans kept by row, in a few passes
            self._spans, self._calls_running, self._deadlines = self._row_spans.measure(
                items, self.view.store
            )
            self._measured_count = count
        spans, running = self._spans, self._calls_running
        add = spans.add
        for item in items[self._measured_count :]:  # the new rows (item_span without the clock, inlined)
            if isinstance(item, Call):
                start, results = item.request.ts, item.results
                if not results:
                    running.append(item)  # counts at its start until it is answered
                    changed = True
                    if start is not None:
                        add(start, start)
                elif start is not None:
                    end = results[0].ts
                    add(start, start if end is None else end)
            else:
                span = item_span(item, None)
                if span is not None:
                    add(*span)
        self._measured_count = count
        if any(map(RESULTS, running)):  # answered since: the bar now reaches its result
            for call in running:
                span = item_span(call, None) if call.results else None
                if span is not None:
                    spans.add(*span)
            self._calls_running = running = [call for call in running if not call.results]
            changed = True
        if changed:
            self._deadlines = sorted(d for call in running if (d := call.deadline) is not None)
        self._extent = spans.extent
        if self._extent is not None:
            self.origin = self._extent[0]
        self._gaps = tuple(spans.gaps)
        self._pending = bool(running)

    def remeasure(self) -> None:
        """Forget what was measured: the next layout goes over every row again."""
        self._spans = Spans(IDLE_GAP)
        self._calls_running = []
        self._deadlines = []
        self._measured_items = None
        self._measured_count = 0

    def _gaps_shown(self) -> tuple[Gap, ...]:
        """The collapsed gaps, with the idle stretch from the last call to now when nothing runs."""
        if not self.collapse_gaps:
            return ()
        now, extent = self.now, self._extent
        if now is not None and extent is not None and not self._pending and now - extent[1] > IDLE_GAP:
            return (*self._gaps, Gap(extent[1], now))
        return self._gaps

    def _set_scale(self, scale: Scale | None) -> None:
        if scale != self.scale:
            self.scale = scale
            self._scale_id += 1
            self.refresh()

    def relayout(self) -> None:
        """Fit or follow again (after rows, the clock or the size changed)."""
        self._measure()
        extent = self._extent
        if extent is None:
            self._set_scale(None)
            return
        now = self.now
        last = extent[1]
        if now is not None and 0 < now - last <= FIT_NOW_WITHIN:
            last = now  # a live session or a replay: the present is at the right edge
        if now is not None and self._deadlines:
            upcoming = bisect.bisect_right(self._deadlines, now)
            if upcoming < len(self._deadlines) and self._deadlines[upcoming] - last <= FIT_NOW_WITHIN:
                last = max(last, self._deadlines[upcoming])  # the next call to time out shows its marker
        gaps = self._gaps_shown()
        if self.mode == "fit" or self.scale is None:
            self._set_scale(Scale.fit(extent[0], last, self.area - 2, gaps))
        elif self.mode == "follow" and now is not None:
            self._set_scale(self.scale.with_gaps(gaps).following(now, self.area))
        elif self.scale.gaps != gaps:
            self._set_scale(self.scale.with_gaps(gaps))

    # -- rows (the first line is the axis) ---------------------------------------------------------
    def rows_changed(self, reset: bool = False) -> None:
        super().rows_changed(reset)
        if self.display:
            self.relayout()

    def on_resize(self) -> None:
        self.fit_virtual_size()
        self.relayout()
        self._scroll_to_cursor()

    def on_show(self) -> None:
        self.rows_changed()

    # -- time ------------------------------------------------------------------------------------
    def watch_now(self, now: float | None) -> None:
        """Pending bars grow and the now marker moves: redraw when a visible row is still running."""
        if not self.display or self.scale is None:
            self.fast_ticks = False
            return
        top = round(self.scroll_y)
        items = self.view.items
        running = fast = False
        for index in range(top, min(len(items), top + self.size.height)):
            item = items[index]
            if isinstance(item, Call) and not item.results:
                running = True
                remaining = item.remaining(now) if now is not None else None
                fast = fast or (remaining is not None and 0 < remaining <= SOON)
        self.fast_ticks = fast
        if running or self.mode != "manual":
            self.relayout()
            self.refresh()

    # -- keys ------------------------------------------------------------------------------------
    def action_zoom(self, factor: float) -> None:
        if self.scale is not None:
            self.mode = "manual"
            self._set_scale(self.scale.zoomed(factor, self._anchor()))

    def _anchor(self) -> float:
        """Zoom around the selected call's start when it is on screen, else around the middle."""
        span = item_span(self.item, self.now) if self.item is not None and self.scale is not None else None
        if span is not None and self.scale is not None:
            x = self.scale.x(span[0])
            if 0 <= x < self.area:
                return x
        return self.area / 2

    def action_pan(self, direction: float) -> None:
        if self.scale is not None:
            self.mode = "manual"
            self._set_scale(self.scale.panned(direction * self.area * PAN_FRACTION))

    def action_fit(self) -> None:
        self.mode = "fit"
        self.relayout()

    def action_follow_now(self) -> None:
        self.mode = "follow"
        self.relayout()

    def action_toggle_gaps(self) -> None:
        self.collapse_gaps = not self.collapse_gaps
        self.relayout()
        self.refresh()

    # -- rendering -------------------------------------------------------------------------------
    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        styles = self.row_styles
        scale = self.scale
        if y == 0:
            if scale is None:
                return render_note(width, self._note(), styles)
            return render_axis(width, scale, self.origin, styles, self.now)
        index = y - 1 + round(self.scroll_y)
        if not 0 <= index < len(self.view):
            return Strip.blank(width, styles["row"])
        strip = self._bar_strip(index, width, scale, styles)
        if index == self.cursor:
            strip = strip.apply_style(styles["cursor" if self.has_focus else "cursor-blur"])
        return strip

    def _note(self) -> str:
        """What the axis line says when there is nothing to measure."""
        if len(self.view):
            return "these records carry no times: no bars to draw"
        if self.view.filter is not None:
            return "no row matches the filter"
        return "no calls yet"

    def _bar_strip(self, index: int, width: int, scale: Scale | None, styles: RowStyles) -> Strip:
        view = self.view
        item = view.items[index]
        now = self.now
        context = not view.is_match(index, now)
        if isinstance(item, Call):
            running = not item.results
            volatile: tuple = (len(item.results), item.state(now), now if running else None)
        else:
            volatile = ()
        folded = isinstance(item, Call) and view.is_folded(item)
        key = (id(item), view.depths[index], width, context, folded, self._scale_id, volatile)
        strip = self._cache.get(key)
        if strip is None:
            depth = view.depths[index]
            strip = render_bar_row(item, depth, width, scale, styles, now, context=context, folded=folded)
            self._cache[key] = strip
        return strip
