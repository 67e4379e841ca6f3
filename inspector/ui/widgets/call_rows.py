"""The rows of a RowView under one cursor: what the call list and the timeline share.

A line-API ScrollView (only visible rows are drawn) with the cursor and its keys, folding, a click's
selection, the row styles of the theme, and the messages a view beside it follows (``Highlighted``,
``Activated``, ``RowsChanged``). :class:`~inspector.ui.widgets.call_list.CallList` draws the rows as
text, :class:`~inspector.ui.widgets.timeline.Timeline` as bars under a time axis; they are siblings, so a
query for one never finds the other.
"""

from __future__ import annotations

from rich.style import Style
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
from inspector.ui.render.rows import RowStyles
from inspector.ui.view import RowView

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


class CallRows(ScrollView, can_focus=True):
    """Rows of a RowView under a cursor. Posts ``Highlighted`` when the cursor moves and ``Activated`` on
    enter; ``HEAD`` lines above the first row belong to the subclass (the timeline's axis)."""

    COMPONENT_CLASSES = {f"call-list--{name}" for name in STYLE_NAMES}
    BINDINGS = keys.CALL_LIST_BINDINGS
    HEAD = 0
    """Lines drawn above the first row."""

    DEFAULT_CSS = """
    CallRows { overflow-x: hidden; overflow-y: auto; }
    """

    now: reactive[float | None] = reactive(None, always_update=True, init=False, repaint=False)

    class Highlighted(Message):
        """The cursor moved to ``item`` (None when the rows are empty)."""

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
            return isinstance(message, CallRows.RowsChanged)

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
        self._row_count = 0
        self.rows_version = -1
        """The view's version when these rows were last taken in."""
        self.fast_ticks = False
        """True when a visible countdown is in its last seconds (the app then ticks 4x a second)."""

    # -- styles ------------------------------------------------------------------------------
    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles = None
        self._cache.clear()

    def style_map(self) -> dict[str, Style]:
        """The row styles of the theme, by name (``row`` is the widget's own)."""
        styles = {
            name: self.get_component_rich_style(f"call-list--{name}", partial=True) for name in STYLE_NAMES
        }
        styles["row"] = self.rich_style
        return styles

    @property
    def row_styles(self) -> RowStyles:
        if self._styles is None:
            self._styles = RowStyles(self.style_map())
        return self._styles

    # -- rows changed (attributes down) -----------------------------------------------------
    def rows_changed(self, reset: bool = False) -> None:
        """The view's rows changed: keep the cursor on its item, follow the end when asked."""
        if reset:
            self._cache.clear()
        count = len(self.view)
        self.set_virtual_height(count + self.HEAD)
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
        """The scrollable height in lines. Lines that grow while the scrollbar stays as it was need no
        layout of the screen: during a flood that layout ran ten times a second, for nothing."""
        size = Size(self.scrollable_content_region.width, height)
        old = self.virtual_size
        if old == size:
            return
        window = self.size.height + 2  # beyond any doubt about the scrollbar being shown
        update = getattr(self, "_scroll_update", None)  # Textual's own scrollbar update (8.x)
        if update is not None and old.width == size.width and min(old.height, height) > window:
            self.set_reactive(CallRows.virtual_size, size)
            update(size)
            self.refresh()
        else:
            self.virtual_size = size

    def fit_virtual_size(self) -> None:
        """The scrollable size after a resize: the width shown, the rows and the head."""
        self.virtual_size = Size(self.scrollable_content_region.width, len(self.view) + self.HEAD)

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
        height = self.scrollable_content_region.height - self.HEAD
        top = round(self.scroll_y)
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif height > 0 and self.cursor >= top + height:
            self.scroll_to(y=self.cursor - height + 1, animate=False, immediate=True)

    def _refresh_row(self, index: int) -> None:
        y = index - round(self.scroll_y) + self.HEAD
        if self.HEAD <= y < self.size.height:
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

    def on_focus(self) -> None:
        self._refresh_row(self.cursor)

    def on_blur(self) -> None:
        self._refresh_row(self.cursor)

    # -- mouse ---------------------------------------------------------------------------
    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or offset.y < self.HEAD:
            return
        index = offset.y - self.HEAD + round(self.scroll_y)
        if 0 <= index < len(self.view):
            self._set_cursor(index, scroll=False)
            if event.chain >= 2:
                self.action_select()
