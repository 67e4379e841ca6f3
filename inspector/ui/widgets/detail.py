"""The detail pane: the selected call rendered in full (parameters, results, diffs), or its raw records."""

from __future__ import annotations

import json
import math
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widgets import Static

from inspector.model import Call, Malformed, Message, OrphanResult
from inspector.model.call import Item
from inspector.session import hydrate
from inspector.textsafe import clean, one_line
from inspector.ui.widgets.rows import needs_ticks


class DetailPane(VerticalScroll, can_focus=True):
    """Shows ``item``; ``raw`` switches to the raw records, ``full_text`` to RAP's full text."""

    DEFAULT_CSS = """
    DetailPane > Static { width: 1fr; }
    """

    item: reactive[Item | None] = reactive(None, always_update=True, init=False)
    raw: reactive[bool] = reactive(False, init=False)
    full_text: reactive[bool] = reactive(False, init=False)

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.now: float | None = None
        self._body = Static(Text("Nothing selected.", style="dim"), id="detail-body")
        self._hydrated: tuple[Call, int, Any, Any] | None = None
        self._shown_second: int | None = None

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
        request, results = hydrate(call)
        self._hydrated = (call, len(call.results), request, results)
        return request, results

    def _redraw(self, scroll_home: bool, layout: bool = True) -> None:
        if not self.is_mounted:
            return
        try:
            renderable = self._renderable()
        except Exception as exc:  # noqa: BLE001 - a renderer bug must not take the app down
            renderable = Text(f"cannot show this item: {type(exc).__name__}: {one_line(str(exc), 200)}",
                              style="bold red")
        self._body.update(renderable, layout=layout)
        if scroll_home:
            self.scroll_home(animate=False)

    def _renderable(self) -> RenderableType:
        item = self.item
        width = max(20, self.scrollable_content_region.width - 1)
        if item is None:
            return Text("Nothing selected.", style="dim")
        renderers = _renderers()
        theme = _render_theme(self.app) if renderers else None
        if isinstance(item, Call):
            request, results = self.payloads(item)
            if renderers is None:
                return _fallback_call(item, request, results, self.raw)
            if self.raw:
                return renderers.render_raw(_raw_refs(request, results))
            return renderers.render_call(item, request, results, width=width, theme=theme, now=self.now,
                                         raw=False, full_text=self.full_text)
        if renderers is not None:
            return renderers.render_item(item, width=width, theme=theme, now=self.now, raw=self.raw)
        return _fallback_item(item)


def _renderers():
    """The detail renderers (inspector.ui.render), or None while they are not there."""
    try:
        from inspector.ui import render
    except ImportError:
        return None
    return render if hasattr(render, "render_call") else None


def _render_theme(app):
    from inspector.ui.render import RenderTheme

    dark = getattr(app.current_theme, "dark", True)
    return RenderTheme.from_variables(getattr(app, "theme_variables", {}) or {}, dark=dark)


def _raw_refs(request, results) -> list:
    return [ref for ref in [request.raw, *(r.raw for r in results)] if ref is not None]


def _json_text(value: Any) -> Text:
    try:
        text = json.dumps(value, indent=2, ensure_ascii=False, default=repr)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return Text(clean(text[:20000]))


def _fallback_call(call: Call, request, results, raw: bool) -> RenderableType:
    head = Text()
    head.append(one_line(call.tool, 80), "bold")
    head.append(f"  id {one_line(call.call_id, 80)}", "dim")
    parts: list[RenderableType] = [head]
    if raw:
        for ref in _raw_refs(request, results):
            parts.append(Text(f"{one_line(ref.where, 60)}:", style="bold"))
            parts.append(Text(clean(ref.read()[:20000].decode("utf-8", "replace"))))
        return Group(*parts)
    parts += [Text("parameters", style="bold"), _json_text(request.params)]
    for index, result in enumerate(results):
        label = "result" if index == 0 else f"duplicate result {index}"
        parts.append(Text(f"{label}: {result.outcome.value}", style="bold"))
        if result.error_code or result.error_message:
            parts.append(Text(one_line(f"{result.error_code or ''} {result.error_message or ''}", 500)))
        parts.append(_json_text(result.data))
    return Group(*parts)


def _fallback_item(item: Item) -> RenderableType:
    if isinstance(item, OrphanResult):
        return Group(Text(f"orphan result for unknown id {one_line(item.call_id, 80)}", style="bold"),
                     _json_text(item.result.data))
    if isinstance(item, Malformed):
        return Text(f"malformed record at {one_line(item.where, 80)}: {one_line(item.reason, 500)}")
    if isinstance(item, Message):
        return Group(Text(one_line(item.kind, 40), style="bold"), Text(clean(item.text[:50000])))
    return Text("")
