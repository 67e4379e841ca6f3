"""What changed in a call store since the UI last looked: collected from any thread, drained on the UI's."""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right, insort
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field

from inspector.model import Call, CallStore, Message, State
from inspector.model.call import Item


@dataclass
class ChangeSet:
    """One drain: ``new_top`` items appended at the top level, whether nesting changed, calls updated."""

    new_top: list[Item] = field(default_factory=list)
    nested: bool = False
    updated: list[Item] = field(default_factory=list)
    reset: bool = False

    @property
    def empty(self) -> bool:
        return not (self.new_top or self.nested or self.updated or self.reset)


class StoreFeed:
    """Subscribes to a store and tells the UI, once per burst, that something changed.

    The store's listener may run on a loader thread: it only appends to a deque and calls ``notify``
    when no notification is pending (``notify`` posts a coalescing message). The UI calls ``drain()``.
    """

    def __init__(self, store: CallStore, notify: Callable[[], None]) -> None:
        self._notify = notify
        self._changes: deque[Item] = deque()
        self._pending = False
        self._reset = False
        self.store = store
        self._seen_top = 0
        self._max_seq = 0
        self._removed = store.removed_top
        store.subscribe(self._on_change)

    def replace_store(self, store: CallStore) -> None:
        """Follow a new store (a replay seek rebuilt it); the next drain says ``reset``."""
        self.store = store
        self._changes.clear()
        self._seen_top = 0
        self._max_seq = 0
        self._removed = store.removed_top
        self._reset = True
        store.subscribe(self._on_change)
        self._poke()

    @property
    def seen_top(self) -> int:
        """How many top-level items of the store the UI has taken in."""
        return self._seen_top

    def _on_change(self, item: Item) -> None:
        self._changes.append(item)
        if not self._pending:  # _poke, without its call for each of a load's events
            self._pending = True
            self._notify()

    def _poke(self) -> None:
        if not self._pending:
            self._pending = True
            self._notify()

    def drain(self) -> ChangeSet:
        """Everything that changed since the last drain."""
        self._pending = False
        changes = ChangeSet(reset=self._reset)
        self._reset = False
        pending = self._changes
        count = len(pending)
        touched = [pending.popleft() for _ in range(count)]
        items = self.store.items
        removed = self.store.removed_top - self._removed
        if removed:  # early results joined to their request left the top level: rebuild the rows
            self._removed = self.store.removed_top
            self._seen_top = max(0, self._seen_top - removed)
            changes.nested = True
        end = len(items)
        changes.new_top = items[self._seen_top : end]
        self._seen_top = end
        top_ids = {id(item) for item in changes.new_top}
        max_seq = newest = self._max_seq
        updated = changes.updated
        for item in touched:  # one pass: what changed, and the newest call number seen
            if isinstance(item, Call):
                seq = item.seq
                if seq > newest:
                    newest = seq
                if id(item) in top_ids:
                    continue
                if seq > max_seq:  # a new call not appended: nested, or in an early result's row
                    changes.nested = True
                updated.append(item)
            elif isinstance(item, Message) and id(item) not in top_ids:
                changes.nested = True  # a message that is not top level was placed under a call
        self._max_seq = newest
        return changes


class Tally:
    """Calls per state, kept up to date from change sets; the pending/overdue split is made at ``now``.

    The split costs a binary search over the sorted deadlines of unanswered calls, not a pass over them.
    A call counted as done is marked by its number in the store (one byte each, not an entry of a set of
    ids: a 100 MB transcript's 8,500 calls took 0.8 MB that way); a call with no number (``seq`` 0, made
    outside a store) by its id.
    """

    def __init__(self) -> None:
        self.done: Counter[State] = Counter()
        self.open: dict[int, Call] = {}
        self._marks = bytearray()  # _marks[seq] == 1: the call numbered seq is counted as done
        self._counted: set[int] = set()  # the ids of counted calls without a number
        self._deadlines: list[float] = []
        """The deadlines of the open calls, kept sorted as calls open and close (no re-sort per repaint)."""

    def _count(self, call: Call) -> None:
        seq = call.seq
        marks = self._marks
        if seq > 0:
            if seq < len(marks) and marks[seq]:
                return
        elif id(call) in self._counted:
            return
        key = id(call)
        if call.results:
            if seq <= 0:
                self._counted.add(key)
            else:
                if seq >= len(marks):
                    marks.extend(bytes(seq + 1024 - len(marks)))
                marks[seq] = 1
            closed = self.open.pop(key, None)
            if closed is not None:
                self._forget_deadline(closed.deadline)
            self.done[call.state(None)] += 1
        elif key not in self.open:
            self.open[key] = call
            if call.deadline is not None and math.isfinite(call.deadline):
                insort(self._deadlines, call.deadline)

    def _forget_deadline(self, deadline: float | None) -> None:
        if deadline is None or not math.isfinite(deadline):
            return
        at = bisect_left(self._deadlines, deadline)
        if at < len(self._deadlines) and self._deadlines[at] == deadline:
            del self._deadlines[at]

    def add(self, items: list[Item]) -> None:
        """Count new items (with every call nested under them) or calls that changed."""
        count = self._count
        for item in items:
            if isinstance(item, Call):
                if item.children:
                    for call in item.walk():
                        count(call)
                else:  # nothing under it (most): itself, without walk's generator
                    count(item)

    def counts(self, now: float | None) -> dict[State, int]:
        """Calls per state at ``now`` (only states with at least one call), in State order."""
        overdue = bisect_right(self._deadlines, now) if now is not None else 0
        found: Counter[State] = Counter(self.done)
        found[State.PENDING] += len(self.open) - overdue
        found[State.OVERDUE] += overdue
        return {state: found[state] for state in State if found[state]}
