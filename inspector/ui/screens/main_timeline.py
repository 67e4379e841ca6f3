"""The main screen's timeline hook: switch list / timeline / split, share the cursor, per-tool figures."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, cast

from textual import events

from inspector.ui.widgets.call_list import CallList
from inspector.ui.widgets.timeline import Timeline
from inspector.ui.widgets.tool_panel import ToolFiguresPanel

if TYPE_CHECKING:
    from textual.app import App

    from inspector.ui.view import RowView

AREAS = ("list", "timeline", "split")
"""What the main area shows, in the order the timeline key cycles through."""


class TimelineHost(Protocol):
    """What the timeline hook needs of the screen it is mixed into (it never imports that screen)."""

    view: RowView

    @property
    def app(self) -> App[object]: ...
    @property
    def now(self) -> float | None: ...

    def query(self, selector: Any) -> Any: ...
    def set_class(self, add: bool, *class_names: str) -> object: ...
    def has_class(self, *class_names: str) -> bool: ...
    def toggle_class(self, *class_names: str) -> object: ...
    def watch(self, obj: Any, attribute_name: str, callback: Any, init: bool = ...) -> None: ...


class TimelineActions:
    """Mixed into MainScreen: the list and the timeline show one RowView and keep one selected call."""

    area = "list"

    @property
    def _screen(self) -> TimelineHost:
        return cast("TimelineHost", self)

    def _views(self) -> tuple[CallList, Timeline] | None:
        screen = self._screen
        lists = list(screen.query("#calls").results(CallList))
        timelines = list(screen.query("#timeline").results(Timeline))
        if not lists or not timelines:
            return None
        return lists[0], timelines[0]

    def action_toggle_timeline(self) -> None:
        """List -> timeline -> split (list over timeline) -> list; the selected call stays selected."""
        screen = self._screen
        views = self._views()
        if views is None:
            return
        call_list, timeline = views
        self.area = AREAS[(AREAS.index(self.area) + 1) % len(AREAS)]
        screen.set_class(self.area == "timeline", "-timeline")
        screen.set_class(self.area == "split", "-split")
        source = timeline if timeline.has_focus else call_list
        target = call_list if self.area == "list" else timeline
        if target is not source:
            if target.rows_version != target.view.version:
                target.rows_changed()
            target.sync_cursor(source.item)
        target.focus()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Back from the detail or the filter, focus goes to the list: to the timeline when only it shows."""
        views = self._views()
        if views is not None and self.area == "timeline" and event.widget is views[0]:
            views[1].focus()

    def action_toggle_figures(self) -> None:
        self._screen.toggle_class("-figures")
        self._update_figures()

    def _update_figures(self) -> None:
        screen = self._screen
        for panel in screen.query(ToolFiguresPanel):
            panel.show_view(screen.view, screen.now)

    def on_mount(self) -> None:
        screen = self._screen
        screen.watch(screen.app, "now", self._timeline_tick, init=False)
        views = self._views()
        if views is not None:
            views[1].now = screen.now

    def _timeline_tick(self, now: float) -> None:
        views = self._views()
        if views is not None:
            views[1].now = now
        if self._screen.has_class("-figures"):
            self._update_figures()

    def on_call_list_rows_changed(self, message: CallList.RowsChanged) -> None:
        views = self._views()
        if views is None:
            return
        for view in views:
            if view.rows_version != view.view.version:
                view.rows_changed()
        self._update_figures()

    def on_call_list_highlighted(self, message: CallList.Highlighted) -> None:
        """One cursor: the other view moves to the same call silently (no message back, no ping-pong)."""
        views = self._views()
        if views is None or message.item is None:
            return
        for view in views:
            if view.item is not message.item:
                view.sync_cursor(message.item)
