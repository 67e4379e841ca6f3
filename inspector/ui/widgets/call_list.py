"""The call list: the rows as text, in fixed columns, rendered only where visible from an LRU cache of strips."""

from __future__ import annotations

from textual.geometry import Region
from textual.strip import Strip

from inspector.model import Call
from inspector.model.call import Item
from inspector.ui.render.rows import SOON, Layout, RowStyles, needs_ticks, render_row, timing
from inspector.ui.view import RowView
from inspector.ui.widgets.call_rows import CallRows
from inspector.ui.widgets.list_header import ListHeader


class CallList(CallRows):
    """Rows of a RowView as text, the columns fitted to the width (a source column with several files
    or conversations). Its cursor, keys and messages are :class:`CallRows`'."""

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
        self._layout: Layout | None = None
        self._painted: dict[int, tuple] = {}

    # -- layout ------------------------------------------------------------------------------
    @property
    def row_layout(self) -> Layout:
        width = self.scrollable_content_region.width
        layout = self._layout
        column = self.source_title
        if layout is None or layout.width != width or bool(layout.source_width) != bool(column):
            layout = self._layout = Layout.for_width(width, bool(column))
            self._cache.clear()
            self._tell_header(column)
        return layout

    @property
    def source_title(self) -> str:
        """What the source column shows: ``file`` with several files, ``conv`` with several
        conversations in one source (two agents in one room), else nothing (no column)."""
        if len(set(self.sources.values())) > 1:
            return "file"
        return "conv" if len(self.view.store.groups) > 1 else ""

    def _column_text(self, item: Item) -> str:
        if len(set(self.sources.values())) > 1:
            return self.sources.get(_source_of(item), "")
        return _group_of(item)

    def _tell_header(self, column: str) -> None:
        for header in self.screen.query(ListHeader) if self.is_attached else ():
            header.set_source_title(column)

    def on_resize(self) -> None:
        self.fit_virtual_size()
        self._scroll_to_cursor()

    # -- time ----------------------------------------------------------------------------
    def watch_now(self, now: float | None) -> None:
        """Redraw the badge and time columns of visible rows whose countdown text or state changed."""
        layout = self.row_layout
        top = round(self.scroll_y)
        items = self.view.items
        width = layout.tool_x - layout.badge_x
        painted = self._painted
        fast = False
        changed: list[int] = []
        for y in range(min(self.size.height, len(items) - top)):
            item = items[top + y]
            if needs_ticks(item):
                if now is not None and not fast:
                    fast = (item.remaining(now) or 0) <= SOON
                if painted.get(id(item)) != _time_key(item, now):
                    changed.append(y)
        self.fast_ticks = fast
        for y in changed:
            self.refresh(Region(layout.badge_x, y, width, 1))

    # -- rendering -----------------------------------------------------------------------
    def render_line(self, y: int) -> Strip:
        index = y + round(self.scroll_y)
        layout = self.row_layout
        styles = self.row_styles
        if index >= len(self.view) or index < 0:
            return Strip.blank(layout.width, styles["row"])
        strip = self.row_strip(index, layout, styles)
        if index == self.cursor:
            strip = strip.apply_style(styles["cursor" if self.has_focus else "cursor-blur"])
        return strip

    def row_strip(self, index: int, layout: Layout, styles: RowStyles) -> Strip:
        """The (cached) strip of row ``index`` without the cursor."""
        view = self.view
        item = view.items[index]
        depth = view.depths[index]
        now = self.now
        context = not view.is_match(index, now)
        folded = isinstance(item, Call) and view.is_folded(item)
        if isinstance(item, Call):
            time_key = _time_key(item, now)
            volatile: tuple = (len(item.results), time_key, len(item.children))
            if len(self._painted) > 10_000:
                self._painted.clear()
            self._painted[id(item)] = time_key
        else:
            volatile = ()
        key = (id(item), depth, layout.width, context, folded, volatile)
        strip = self._cache.get(key)
        if strip is None:
            source = self._column_text(item) if layout.source_width else ""
            strip = render_row(
                item, depth, layout, styles, now, source=source, folded=folded, context=context
            )
            self._cache[key] = strip
        return strip


def _time_key(call: Call, now: float | None) -> tuple:
    """What a tick can change in a row: the call's state and its time column's text."""
    return call.state(now), timing(call, now)[0]


def _group_of(item: Item) -> str:
    """The conversation (group) of a call, an orphan result or a message."""
    inner = getattr(item, "request", None) or getattr(item, "result", None) or item
    return str(getattr(inner, "group", "") or "")


def _source_of(item: Item) -> str:
    """The path (or source name) an item was read from."""
    raw = getattr(item, "raw", None)
    if raw is None:
        inner = getattr(item, "request", None) or getattr(item, "result", None)
        raw = getattr(inner, "raw", None)
        if raw is None:
            return getattr(item, "source", "") or ""
    return raw.source
