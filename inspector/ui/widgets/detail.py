"""The detail pane: the selected call rendered in full (parameters, results, diffs), or its raw records."""

from __future__ import annotations

import math
from typing import Any

from rich.console import RenderableType
from rich.text import Text
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widgets import Static

from inspector.model import Call
from inspector.model.call import Item
from inspector.sources.session import hydrate
from inspector.textsafe import one_line
from inspector.ui import keys
from inspector.ui.render import RenderTheme, render_call, render_item
from inspector.ui.render.call_view import MAX_RESULTS, with_request_diff
from inspector.ui.render.marks import Marked
from inspector.ui.render.rows import needs_ticks


class DetailPane(VerticalScroll, can_focus=True):
    """Shows ``item``; ``raw`` switches to the raw records, ``full_text`` to RAP's full text."""

    DEFAULT_CSS = """
    DetailPane > Static { width: 1fr; }
    """

    BINDINGS = keys.DETAIL_BINDINGS

    item: reactive[Item | None] = reactive(None, always_update=True, init=False)
    raw: reactive[bool] = reactive(False, init=False)
    full_text: reactive[bool] = reactive(False, init=False)

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.now: float | None = None
        self._body = Static(Text("Nothing selected.", style="dim"), id="detail-body")
        self._hydrated: tuple[Call, int, Any, Any] | None = None
        self._shown_second: int | None = None
        self.marks: tuple[str, ...] = ()  # what the filter searches for, marked in the detail

    def compose(self):
        yield self._body

    def watch_item(self, old: Item | None, new: Item | None) -> None:
        self._redraw(scroll_home=old is not new)

    def watch_raw(self) -> None:
        self._redraw(scroll_home=True)

    def watch_full_text(self) -> None:
        self._redraw(scroll_home=False)

    def on_resize(self) -> None:
        self._redraw(scroll_home=False)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        if self.is_mounted:
            self._redraw(scroll_home=False)

    def toggle_raw(self) -> None:
        """The call's raw records instead of its rendering, or back."""
        self.raw = not self.raw

    def toggle_full_text(self) -> None:
        """The full text the model received instead of the display segments, or back (said in a notice)."""
        self.full_text = not self.full_text
        self.notify(
            "Full text: what the model received, long parameters unfolded."
            if self.full_text
            else "Display segments; long parameters folded under a diff.",
            timeout=2,
        )

    def tick(self, now: float | None) -> None:
        """Time moved: redraw once a second when the shown call has a running countdown."""
        self.now = now
        item = self.item
        if item is None or now is None or not needs_ticks(item):
            return
        second = math.floor(now)
        if second != self._shown_second:
            self._shown_second = second
            self._redraw(scroll_home=False, layout=False)  # only the countdown moved

    def payloads(self, call: Call):
        """The call's request and results with payloads (re-read from the file when they were dropped)."""
        cached = self._hydrated
        if cached is not None and cached[0] is call and cached[1] == len(call.results):
            return cached[2], cached[3]
        request, results = hydrate(call, most=MAX_RESULTS)  # the detail shows no more
        results = with_request_diff(call, request, results)
        self._hydrated = (call, len(call.results), request, results)
        return request, results

    def _redraw(self, scroll_home: bool, layout: bool = True) -> None:
        if not self.is_mounted:
            return
        try:
            renderable = self._renderable()
        except Exception as exc:  # noqa: BLE001 - a renderer bug must not take the app down
            renderable = Text(
                f"cannot show this item: {type(exc).__name__}: {one_line(str(exc), 200)}", style="bold red"
            )
        self._body.update(renderable, layout=layout)
        if scroll_home:
            self.scroll_home(animate=False)

    def mark(self, needles: tuple[str, ...]) -> None:
        """Mark ``needles`` (the filter's search text) wherever the detail shows them."""
        if needles != self.marks:
            self.marks = needles
            self._redraw(scroll_home=False)

    def _renderable(self) -> RenderableType:
        renderable = self._unmarked()
        return Marked(renderable, self.marks) if self.marks else renderable

    def _unmarked(self) -> RenderableType:
        item = self.item
        if item is None:
            return Text("Nothing selected.", style="dim")
        width = max(20, self.scrollable_content_region.width - 1)
        theme = _render_theme(self.app)
        if isinstance(item, Call):
            request, results = self.payloads(item)
            return render_call(
                item,
                request,
                results,
                width=width,
                theme=theme,
                now=self.now,
                raw=self.raw,
                full_text=self.full_text,
            )
        return render_item(
            item, width=width, theme=theme, now=self.now, raw=self.raw, full_text=self.full_text
        )


def _render_theme(app) -> RenderTheme:
    """The detail colours from the app's theme variables (call states, diff lines, syntax style)."""
    dark = getattr(app.current_theme, "dark", True)
    return RenderTheme.from_variables(getattr(app, "theme_variables", {}) or {}, dark=dark)
