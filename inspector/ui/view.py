"""The rows the call list shows: the store's items flattened, filtered, folded, with messages hidden or not."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import islice

from inspector.model import Call, CallStore, Marker, Message, OrphanResult, State
from inspector.model.call import Item
from inspector.model.filter import Filter
from inspector.ui.feed import ChangeSet

Jump = Callable[[Item, float | None], bool]

JUMPS: dict[str, Jump] = {
    "pending": lambda item, now: isinstance(item, Call) and not item.results,
    "failed": lambda item, now: isinstance(item, Call) and item.state(now) in (State.FAILED, State.TIMED_OUT),
    "orphan": lambda item, now: isinstance(item, OrphanResult),
}
"""Predicates for the jump keys (next pending, next failed, next orphan)."""


def _flatten(tops: Iterable[Item], items: list[Item], depths: list[int]) -> None:
    """Every item under ``tops``, in tree order, with its depth: the rows when nothing is hidden (as the
    emitter makes them, in half its time: a loop, not a call per row)."""
    add_item, add_depth = items.append, depths.append
    for top in tops:
        add_item(top)
        add_depth(0)
        if not isinstance(top, Call) or not top.children:
            continue
        stack = [(iter(top.children), 1)]
        while stack:
            children, depth = stack[-1]
            for child in children:
                add_item(child)
                add_depth(depth)
                if isinstance(child, Call) and child.children:
                    stack.append((iter(child.children), depth + 1))
                    break
            else:
                stack.pop()


class RowView:
    """Visible rows: ``items[i]`` at nesting ``depths[i]``; ``version`` bumps when the rows change.

    A parent call stays visible when something nested under it matches the filter; such rows are
    *context* rows (``is_match`` is false for them). A folded call that is only such a context row is
    shown unfolded while the filter stands (``opened``), so the match under it shows; folded again by
    hand, it stays folded until the filter changes (``refolded``).
    """

    def __init__(self, store: CallStore) -> None:
        self.store = store
        self.items: list[Item] = []
        self.depths: list[int] = []
        self._filter: Filter | None = None
        self.hide_messages = False
        self.folded: set[Call] = set()
        self.opened: set[Call] = set()  # folded calls the filter shows unfolded (a match is under them)
        self.refolded: set[Call] = set()  # of those, the ones folded again by hand under this filter
        self.version = 0
        self.seen: int | None = None
        """How many top-level store items the rows may show (the feed's count; a loader may be ahead)."""
        self.waiting = False
        """True while a new store's items are judged by the filter away from the UI thread: the rows stay
        empty until the screen's judging is done (it sets this back and rebuilds)."""

    def __len__(self) -> int:
        return len(self.items)

    @property
    def filter(self) -> Filter | None:
        return self._filter

    @filter.setter
    def filter(self, flt: Filter | None) -> None:
        self._filter = flt
        self.refolded.clear()

    def is_folded(self, call: Call) -> bool:
        """Shown folded: folded, and not opened by the filter for a match under it."""
        return call in self.folded and call not in self.opened

    def set_folded(self, call: Call, fold: bool) -> None:
        """Fold or unfold ``call`` by hand (then :meth:`rebuild`)."""
        if fold:
            self.folded.add(call)
            if call in self.opened:
                self.refolded.add(call)
        else:
            self.folded.discard(call)
            self.refolded.discard(call)

    # -- building ----------------------------------------------------------------------------
    def top_items(self) -> list[Item]:
        """The top-level items the rows may show (what the feed has taken in)."""
        source = self.store.items
        return list(source if self.seen is None else islice(source, self.seen))

    def rebuild(self, now: float | None) -> None:
        """Flatten the whole store again (after a filter, fold or visibility change); nothing while
        :attr:`waiting`."""
        if self.waiting:
            return
        items: list[Item] = []
        depths: list[int] = []
        self.opened = set()
        source = self.store.items
        tops = source if self.seen is None else islice(source, self.seen)
        if (self.filter is None or self.filter.empty) and not self.hide_messages and not self.folded:
            _flatten(tops, items, depths)  # every row shown: no test per row (what a load redraws)
        else:
            emit = self._emitter(items, depths, now)
            for item in tops:
                emit(item, 0)
        self.items, self.depths = items, depths
        self.version += 1

    def _emitter(self, items: list[Item], depths: list[int], now: float | None):
        flt = self.filter if self.filter is not None and not self.filter.empty else None
        hide = self.hide_messages
        folded, opened, refolded = self.folded, self.opened, self.refolded
        add_item, add_depth = items.append, depths.append

        def emit(item: Item, depth: int) -> None:
            if hide and isinstance(item, Message) and not isinstance(item, Marker):  # boundaries stay
                return
            if flt is not None and not flt.matches_tree(item, now):
                return
            add_item(item)
            add_depth(depth)
            if isinstance(item, Call) and item.children:
                if item in folded:  # open it when only something under it matches
                    if flt is None or item in refolded or flt.matches(item, now):
                        return
                    opened.add(item)
                for child in item.children:
                    emit(child, depth + 1)

        return emit

    def apply(self, changes: ChangeSet, now: float | None) -> bool:
        """Take a change set into account; True when rows were added or rebuilt.

        A new store under a filter is not judged here: the rows empty and :attr:`waiting` is set, for the
        screen to judge it in slices (a filter searching payloads may take seconds on a big store)."""
        if self.waiting:
            return False
        if changes.reset and self.filter is not None and not self.filter.empty:
            self.items, self.depths = [], []
            self.waiting = True
            self.version += 1
            return True
        if changes.reset or changes.nested or self._time_filtered():
            self.rebuild(now)
            return True
        if not changes.new_top:
            return False
        emit = self._emitter(self.items, self.depths, now)
        before = len(self.items)
        for item in changes.new_top:
            emit(item, 0)
        if self.filter is not None and not self.filter.empty and changes.updated:
            self.rebuild(now)  # a result can make an earlier call match (state:failed) or stop matching
            return True
        if len(self.items) != before:
            self.version += 1
            return True
        return False

    def _time_filtered(self) -> bool:
        return self.filter is not None and self.filter.time_dependent

    # -- queries -----------------------------------------------------------------------------
    def index_of(self, item: Item | None) -> int | None:
        """The row showing ``item`` (by identity), if visible."""
        if item is None:
            return None
        for index, candidate in enumerate(self.items):
            if candidate is item:
                return index
        return None

    def is_match(self, index: int, now: float | None) -> bool:
        """False for a row shown only because something under it matches the filter."""
        if self.filter is None or self.filter.empty:
            return True
        return self.filter.matches(self.items[index], now)

    def find(self, start: int, forward: bool, test: Jump, now: float | None) -> int | None:
        """The next row after (or before) ``start`` passing ``test``, wrapping around; None if none."""
        count = len(self.items)
        if not count:
            return None
        step = 1 if forward else -1
        index = start
        for _ in range(count):
            index = (index + step) % count
            if test(self.items[index], now):
                return index
        return None

    def find_match(self, start: int, forward: bool, now: float | None) -> int | None:
        """The next row that matches the filter itself (not a context row)."""
        flt = self.filter
        if flt is None or flt.empty:
            return None
        return self.find(start, forward, lambda item, at: flt.matches(item, at), now)

    def matched_items(self, now: float | None) -> list[Item]:
        """The rows that match the filter themselves (for exporting the filtered view)."""
        return [item for index, item in enumerate(self.items) if self.is_match(index, now)]
