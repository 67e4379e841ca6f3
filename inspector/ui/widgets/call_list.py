"""The call list: a line-API ScrollView that renders only visible rows, from an LRU cache of strips."""

from __future__ import annotations

from textual import events
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from inspector.model import Call
from inspector.model.call import Item
from inspector.ui import keys
from inspector.ui.render.rows import SOON, Layout, RowStyles, needs_ticks, render_row, timing
from inspector.ui.view import RowView
from inspector.ui.widgets.list_header import ListHeader

STYLE_NAMES = (
    "row",
    "context",
    "cursor",
    "cursor-blur",
    "clock",
    "source",
    "tool",
    "where",
    "exec",
    "summary",
    "flag",
    "dim",
    "pending",
    "overdue",
    "succeeded",
    "failed",
    "timed_out",
    "canceled",
    "denied",
    "orphan",
    "malformed",
    "message",
    "soon",
    "urgent",
    "late",
    "latency",
    "violation",
    "orphan-text",
    "malformed-text",
    "message-text",
)


class CallList(ScrollView, can_focus=True):
    """Rows of a RowView. Posts ``Highlighted`` when the cursor moves and ``Activated`` on enter."""

    COMPONENT_CLASSES = {f"call-list--{name}" for name in STYLE_NAMES}
    BINDINGS = keys.CALL_LIST_BINDINGS

    DEFAULT_CSS = """
    CallList { overflow-x: hidden; overflow-y: auto; }
    """

    now: reactive[float | None] = reactive(None, always_update=True, init=False, repaint=False)

    class Highlighted(Message):
        """The cursor moved to ``item`` (None when the list is empty)."""

        def __init__(self, item: Item | None) -> None:
            super().__init__()
            self.item = item

    class Activated(Message):
        """Enter on a row without children (open its detail)."""

        def __init__(self, item: Item) -> None:
            super().__init__()
            self.item = item

    class RowsChanged(Message):
        """The rows were rebuilt or grew (a view beside this one follows); one pending stands for many."""

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, CallList.RowsChanged)

    def __init__(
        self,
        view: RowView,
        *,
        sources: dict[str, str] | None = None,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.view = view
        self.sources = sources or {}
        self.cursor = 0
        self.follow = False
        self._cursor_item: Item | None = None
        self._cache: LRUCache[tuple, Strip] = LRUCache(2000)
        self._styles: RowStyles | None = None
        self._layout: Layout | None = None
        self._painted: dict[int, tuple] = {}
        self._row_count = 0
        self.rows_version = -1
        """The view's version when this list last took its rows in."""
        self.fast_ticks = False
        """True when a visible countdown is in its last seconds (the app then ticks 4x a second)."""

    # -- styles and layout -------------------------------------------------------------------
    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles = None
        self._cache.clear()

    @property
    def row_styles(self) -> RowStyles:
        if self._styles is None:
            self._styles = RowStyles(
                {
                    name: self.get_component_rich_style(f"call-list--{name}", partial=True)
                    for name in STYLE_NAMES
                }
            )
            self._styles.styles["row"] = self.rich_style
        return self._styles

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

    # -- rows changed (attributes down) -----------------------------------------------------
    def rows_changed(self, reset: bool = False) -> None:
        """The view's rows changed: keep the cursor on its item, follow the end when asked."""
        if reset:
            self._cache.clear()
        count = len(self.view)
        self.set_virtual_height(count)
        previous = self._cursor_item
        at_end = self._row_count == 0 or self.cursor >= self._row_count - 1
        self._row_count = count
        if self.follow and count and at_end:  # following sticks to the end unless the person moved up
            self._set_cursor(count - 1)
        elif previous is not None:
            if not (self.cursor < count and self.view.items[self.cursor] is previous):
                found = self.view.index_of(previous)
                self._set_cursor(found if found is not None else min(self.cursor, max(0, count - 1)))
        elif count:
            self._set_cursor(min(self.cursor, count - 1))
        self.rows_version = self.view.version
        self.refresh()
        self.post_message(self.RowsChanged())

    def set_virtual_height(self, height: int) -> None:
        """The scrollable height in rows. A list that grows while its scrollbar stays as it was needs no
        layout of the screen: during a flood that layout ran ten times a second, for nothing."""
        size = Size(self.scrollable_content_region.width, height)
        old = self.virtual_size
        if old == size:
            return
        window = self.size.height + 2  # beyond any doubt about the scrollbar being shown
        update = getattr(self, "_scroll_update", None)  # Textual's own scrollbar update (8.x)
        if update is not None and old.width == size.width and min(old.height, height) > window:
            self.set_reactive(CallList.virtual_size, size)
            update(size)
            self.refresh()
        else:
            self.virtual_size = size

    def reset_cache(self) -> None:
        self._cache.clear()
        self.refresh()

    @property
    def item(self) -> Item | None:
        """The item under the cursor."""
        return self._cursor_item

    # -- cursor --------------------------------------------------------------------------
    def _set_cursor(self, index: int, scroll: bool = True) -> None:
        count = len(self.view)
        index = max(0, min(index, count - 1)) if count else 0
        old = self.cursor
        self.cursor = index
        item = self.view.items[index] if count else None
        self._refresh_row(old)
        self._refresh_row(index)
        if scroll:
            self._scroll_to_cursor()
        if item is not self._cursor_item:
            self._cursor_item = item
            self.post_message(self.Highlighted(item))

    def move_to(self, index: int) -> None:
        """Put the cursor on row ``index`` (clamped) and show it."""
        self._set_cursor(index)

    def sync_cursor(self, item: Item | None) -> None:
        """Put the cursor on ``item`` without a Highlighted message (a view beside this one moved there)."""
        index = self.view.index_of(item)
        if index is not None:
            self._cursor_item = item
            self._set_cursor(index)

    def _scroll_to_cursor(self) -> None:
        height = self.scrollable_content_region.height
        top = round(self.scroll_y)
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif height and self.cursor >= top + height:
            self.scroll_to(y=self.cursor - height + 1, animate=False, immediate=True)

    def _refresh_row(self, index: int) -> None:
        y = index - round(self.scroll_y)
        if 0 <= y < self.size.height:
            self.refresh(Region(0, y, self.size.width, 1))

    def action_cursor_down(self) -> None:
        self._set_cursor(self.cursor + 1)

    def action_cursor_up(self) -> None:
        self._set_cursor(self.cursor - 1)

    def action_first(self) -> None:
        self._set_cursor(0)

    def action_last(self) -> None:
        self._set_cursor(len(self.view) - 1)

    def action_page_down(self) -> None:
        page = max(1, self.scrollable_content_region.height - 1)
        self.scroll_to(y=round(self.scroll_y) + page, animate=False, immediate=True)
        self._set_cursor(self.cursor + page)

    def action_page_up(self) -> None:
        page = max(1, self.scrollable_content_region.height - 1)
        self.scroll_to(y=max(0, round(self.scroll_y) - page), animate=False, immediate=True)
        self._set_cursor(self.cursor - page)

    def action_select(self) -> None:
        """Enter: fold or unfold a call with nested calls, otherwise open the row's detail."""
        item = self._cursor_item
        if item is None:
            return
        if isinstance(item, Call) and item.children:
            self._fold(item, None)
        else:
            self.post_message(self.Activated(item))

    def action_fold(self) -> None:
        item = self._cursor_item
        if isinstance(item, Call) and item.children and not self.view.is_folded(item):
            self._fold(item, True)
        elif item is not None and self.cursor > 0:
            depth = self.view.depths[self.cursor]
            for index in range(self.cursor - 1, -1, -1):  # go to the parent row
                if self.view.depths[index] < depth:
                    self._set_cursor(index)
                    break

    def action_unfold(self) -> None:
        item = self._cursor_item
        if isinstance(item, Call) and self.view.is_folded(item):
            self._fold(item, False)

    def _fold(self, call: Call, fold: bool | None) -> None:
        if fold is None:
            fold = not self.view.is_folded(call)
        self.view.set_folded(call, fold)
        self.view.rebuild(self.now)
        self.rows_changed()

    def on_resize(self) -> None:
        self.virtual_size = Size(self.scrollable_content_region.width, len(self.view))
        self._scroll_to_cursor()

    def on_focus(self) -> None:
        self._refresh_row(self.cursor)

    def on_blur(self) -> None:
        self._refresh_row(self.cursor)

    # -- mouse ---------------------------------------------------------------------------
    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = offset.y + round(self.scroll_y)
        if 0 <= index < len(self.view):
            self._set_cursor(index, scroll=False)
            if event.chain >= 2:
                self.action_select()

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
