"""The calls pane: the call list, the timeline beside or instead of it and the per-tool figures, over one
RowView with one cursor.

It owns what its parts share: which of them the main area shows (list, timeline, split), the selected
call (moving one moves the other), the rows the view holds (jumps, matches, messages hidden, a filter that
depends on the clock) and the clock its countdowns and bars follow. The screen composes it and hears the
list's messages (a highlighted call, an opened one) as they bubble up.
"""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical

from inspector.ui.host import host_of
from inspector.ui.view import JUMPS, RowView
from inspector.ui.widgets.call_list import CallList
from inspector.ui.widgets.list_header import ListHeader
from inspector.ui.widgets.timeline import Timeline
from inspector.ui.widgets.tool_panel import ToolFiguresPanel

AREAS = ("list", "timeline", "split")
"""What the main area shows, in the order the timeline key cycles through."""

JUMP_NAMES = {"pending": "pending call", "failed": "failed call", "orphan": "orphan result"}


class CallsPane(Vertical):
    """The list (``#calls``), the timeline (``#timeline``) and the figures (``#figures``) of one view."""

    DEFAULT_CSS = """
    CallsPane { height: 1fr; }
    MainScreen.-detail-open CallsPane { height: auto; }
    """
    SCOPED_CSS = False

    def __init__(self, view: RowView, *, sources: dict[str, str], id: str | None = None) -> None:
        super().__init__(id=id)
        self.view = view
        self.sources = sources
        self.area = "list"
        self.now: float | None = None

    def compose(self) -> ComposeResult:
        yield ListHeader(multi_source=len(self.sources) > 1, id="list-header")
        yield CallList(self.view, sources=self.sources, id="calls")
        yield Timeline(self.view, sources=self.sources, id="timeline")
        yield ToolFiguresPanel(id="figures")

    @property
    def call_list(self) -> CallList:
        return self.query_one("#calls", CallList)  # by id: the timeline is a CallList too

    @property
    def timeline(self) -> Timeline:
        return self.query_one("#timeline", Timeline)

    @property
    def shown(self) -> CallList:
        """The view the person moves in: the timeline when only it shows, else the list."""
        return self.timeline if self.area == "timeline" else self.call_list

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

    # -- one cursor ------------------------------------------------------------------------------
    def _views(self) -> list[CallList]:
        """The list and the timeline (none while the pane is built or torn down)."""
        return list(self.query(CallList))

    def on_call_list_rows_changed(self, message: CallList.RowsChanged) -> None:
        for view in self._views():
            if view.rows_version != view.view.version:
                view.rows_changed()
        self._update_figures()

    def on_call_list_highlighted(self, message: CallList.Highlighted) -> None:
        """One cursor: the other view moves to the same call silently (no message back, no ping-pong)."""
        item = message.item
        if item is None:
            return
        for view in self._views():
            if view.item is not item:
                view.sync_cursor(item)
