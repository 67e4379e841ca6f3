"""The calls pane: the call list, the timeline beside or instead of it and the per-tool figures, over one
RowView with one cursor.

It owns what its parts share: which of them the main area shows (list, timeline, split), the selected
call (moving one moves the other), the rows the view holds (jumps, matches, messages hidden, the filter:
judged here when that is quick, else in a thread in slices) and the clock its countdowns and bars follow.
The screen composes it and hears the list's messages (a highlighted call, an opened one) as they bubble
up; what a filter's judging changes beyond the pane (how far it is, the words it marks) it is told at
once, through the ``filtering`` callback it gives, so the status line never lags the rows.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.worker import Worker, WorkerState

from inspector.model.call import Item
from inspector.model.filter import Filter
from inspector.textsafe import one_line
from inspector.ui.host import host_of
from inspector.ui.presenter import Redraw
from inspector.ui.view import JUMPS, RowView
from inspector.ui.widgets.call_list import CallList
from inspector.ui.widgets.call_rows import CallRows
from inspector.ui.widgets.list_header import ListHeader
from inspector.ui.widgets.timeline import Timeline
from inspector.ui.widgets.tool_panel import ToolFiguresPanel

AREAS = ("list", "timeline", "split")
"""What the main area shows, in the order the timeline key cycles through."""

JUMP_NAMES = {"pending": "pending call", "failed": "failed call", "orphan": "orphan result"}

JUDGE_HERE = 0.03
"""Seconds a filter may judge rows on the UI thread; past them the rest is judged in a thread."""

JUDGE_SLICE = 0.2
"""Seconds of judging in the thread between two progress reports (the status bar's 'filtering N%')."""

JUDGE_BREATHE = 0.0005
"""Seconds the judging thread works before it lets the UI thread run (as a file load does)."""


class CallsPane(Vertical):
    """The list (``#calls``), the timeline (``#timeline``) and the figures (``#figures``) of one view."""

    DEFAULT_CSS = """
    CallsPane { height: 1fr; }
    MainScreen.-detail-open CallsPane { height: auto; }
    """
    SCOPED_CSS = False

    def __init__(
        self,
        view: RowView,
        *,
        sources: dict[str, str],
        filtering: Callable[[], None],
        id: str | None = None,
    ) -> None:
        """``filtering`` is called when :attr:`judging` or :attr:`marks` changed (a filter's judging went
        on, ended or failed)."""
        super().__init__(id=id)
        self._filtering_changed = filtering
        self.view = view
        self.sources = sources
        self.area = "list"
        self.now: float | None = None
        self.judging: float | None = None
        """How much of the rows a new filter has judged (None: none is being judged)."""
        self.marks: tuple[str, ...] = ()
        """The words the filter shown marks wherever they are shown (its search text)."""
        self._judging: Filter | None = None  # the filter being judged in a thread, shown when done
        self._judge_stop = threading.Event()  # set: that judging is dropped

    def compose(self) -> ComposeResult:
        yield ListHeader(multi_source=len(self.sources) > 1, id="list-header")
        yield CallList(self.view, sources=self.sources, id="calls")
        yield Timeline(self.view, sources=self.sources, id="timeline")
        yield ToolFiguresPanel(id="figures")

    @property
    def call_list(self) -> CallList:
        return self.query_one(CallList)

    @property
    def timeline(self) -> Timeline:
        return self.query_one(Timeline)

    @property
    def fast_ticks(self) -> bool:
        """True while a visible countdown is in its last seconds."""
        return any(view.fast_ticks for view in self._views())

    def on_mount(self) -> None:
        self.now = host_of(self).now
        self.call_list.now = self.timeline.now = self.now
        self.watch(self.app, "now", self._tick, init=False)

    # -- the clock -------------------------------------------------------------------------------
    def _tick(self, now: float) -> None:
        if not self.query("#calls"):  # being torn down
            return
        self.now = now
        self.call_list.now = now
        if self.view.filter is not None and self.view.filter.time_dependent:
            self.view.rebuild(now)
            self.call_list.rows_changed()
        self.timeline.now = now
        if self.has_class("-figures"):
            self._update_figures()

    # -- what shows ------------------------------------------------------------------------------
    def toggle_area(self) -> None:
        """List -> timeline -> split (list over timeline) -> list; the selected call stays selected."""
        call_list, timeline = self.call_list, self.timeline
        self.area = AREAS[(AREAS.index(self.area) + 1) % len(AREAS)]
        self.set_class(self.area == "timeline", "-timeline")
        self.set_class(self.area == "split", "-split")
        source = timeline if timeline.has_focus else call_list
        target = call_list if self.area == "list" else timeline
        if target is not source:
            if target.rows_version != target.view.version:
                target.rows_changed()
            target.sync_cursor(source.item)
        target.focus()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Back from the detail or the filter, focus goes to the list: to the timeline when only it shows."""
        if self.area == "timeline" and event.widget is self.call_list:
            self.timeline.focus()

    def toggle_figures(self) -> None:
        self.toggle_class("-figures")
        self._update_figures()

    def _update_figures(self) -> None:
        for panel in self.query(ToolFiguresPanel):  # none while the pane is torn down
            panel.show_view(self.view, self.now)

    def toggle_header(self) -> None:
        self.query_one(ListHeader).toggle()

    def toggle_messages(self) -> None:
        self.view.hide_messages = not self.view.hide_messages
        self.view.rebuild(self.now)
        self.call_list.rows_changed()
        self.notify("Messages hidden." if self.view.hide_messages else "Messages shown.", timeout=2)

    # -- moving ----------------------------------------------------------------------------------
    def jump(self, kind: str) -> None:
        """To the next pending call, failed call or orphan result."""
        test = JUMPS.get(kind)
        if test is None:
            return
        found = self.view.find(self.call_list.cursor, True, test, self.now)
        if found is None:
            self.notify(f"No {JUMP_NAMES.get(kind, kind)} in the list.", timeout=3)
        else:
            self.call_list.move_to(found)

    def match(self, forward: bool) -> None:
        """To the next (or previous) row that matches the filter itself."""
        if self.view.filter is None:
            self.notify("No filter: press / to filter, then n and N move between matches.", timeout=3)
            return
        found = self.view.find_match(self.call_list.cursor, forward, self.now)
        if found is None:
            self.notify("No row matches the filter.", timeout=3)
        else:
            self.call_list.move_to(found)

    def to_newest(self) -> None:
        """The newest row, kept there until the person moves (a file followed, a live room)."""
        if len(self.view):
            self.call_list.move_to(len(self.view) - 1)

    def show_changes(self, redraw: Redraw) -> Item | None:
        """Show what the store's changes ask (new rows, a new store judged under the filter, a repaint);
        the selected item when it is among the items updated."""
        if redraw.reset and self.view.waiting:  # a new store under the filter: judged in slices
            self.refilter()
        call_list = self.call_list
        if redraw.rows:
            call_list.rows_changed(reset=redraw.reset)
        elif redraw.repaint:
            call_list.refresh()
        selected = call_list.item
        if selected is not None and any(item is selected for item in redraw.updated):
            return selected
        return None

    # -- one cursor ------------------------------------------------------------------------------
    def _views(self) -> list[CallRows]:
        """The list and the timeline (none while the pane is built or torn down)."""
        return list(self.query(CallRows))

    def on_call_rows_rows_changed(self, message: CallRows.RowsChanged) -> None:
        for view in self._views():
            if view.rows_version != view.view.version:
                view.rows_changed()
        self._update_figures()

    def on_call_rows_highlighted(self, message: CallRows.Highlighted) -> None:
        """One cursor: the other view moves to the same call silently (no message back, no ping-pong)."""
        item = message.item
        if item is None:
            return
        for view in self._views():
            if view.item is not item:
                view.sync_cursor(item)

    # -- the filter ------------------------------------------------------------------------------
    def show_filter(self, flt: Filter) -> None:
        """Show the rows under ``flt``: judged here when that is quick, else in a thread in slices while
        the keys keep working (a filter searching payloads may take seconds on a big store); the rows
        keep the filter before until then, and the status bar says 'filtering N%'."""
        self._judge_stop.set()  # a filter still being judged is dropped: its thread stops at its next row
        self._judging = None
        items = self.view.top_items()
        try:
            reached = flt.judge(items, self.now, until=time.monotonic() + JUDGE_HERE)
        except Exception as exc:  # noqa: BLE001 - a row it cannot judge: said, the app goes on
            self._filter_failed(exc)
            return
        if reached >= len(items):
            self._install_filter(flt)
            return
        self._judging = flt
        self._judge_stop = threading.Event()
        self._filtering(reached / len(items))
        self.run_worker(
            self._judge_rest(flt, items, reached, self._judge_stop),
            group="filter",
            exit_on_error=False,
            description="filtering",
        )

    def refilter(self) -> None:
        """A new store waits for the filter (a replay's seek, a replaced followed file): judge it."""
        flt = self._judging or self.view.filter
        if flt is not None:
            self.show_filter(flt)

    async def _judge_rest(self, flt: Filter, items: list[Any], reached: int, stop: threading.Event) -> None:
        try:
            while reached < len(items) and not stop.is_set():
                reached = await asyncio.to_thread(
                    flt.judge,
                    items,
                    self.now,
                    start=reached,
                    until=time.monotonic() + JUDGE_SLICE,
                    cancelled=stop.is_set,
                    breathe=JUDGE_BREATHE,
                )
                if self._judging is flt:
                    self._filtering(reached / len(items))
        except Exception as exc:  # noqa: BLE001 - a row it cannot judge: said, the app goes on
            if self._judging is flt:
                self._filter_failed(exc)
            return
        finally:
            stop.set()  # a cancelled worker's (the screen going) thread stops at its next row
        if self._judging is flt and reached >= len(items):
            self._install_filter(flt)

    def _filter_failed(self, exc: Exception) -> None:
        """A filter that failed on a row is not applied (the one before stays; a new store waiting for
        it shows unfiltered), and the person is told why."""
        self._judging = None
        if self.view.waiting:
            self.view.waiting = False
            self.view.filter = None
            self.marks = ()
            self.view.rebuild(self.now)
            self.call_list.rows_changed()
        self.app.notify(
            f"The filter could not be applied: {type(exc).__name__}: {one_line(str(exc), 200)}",
            title="Filter",
            severity="error",
            timeout=10,
        )
        self._filtering(None)

    def _install_filter(self, flt: Filter) -> None:
        self._judging = None
        self.view.waiting = False
        self.view.filter = None if flt.empty else flt
        self.marks = flt.highlights
        self.view.rebuild(self.now)  # the items judged meanwhile are answered from memory
        self.call_list.rows_changed()
        self._filtering(None)

    def _filtering(self, judging: float | None) -> None:
        self.judging = judging
        self._filtering_changed()

    @on(Worker.StateChanged)
    def _worker_done(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR:
            host_of(self).worker_failed(event.worker)
