"""The timeline's measure of all its rows at once, from the span of each row kept across rebuilds of the rows.

A filter or fold change rebuilds the rows: the extent and idle gaps come from every row again. Going over
100,000 calls a step each (request, results, first result, their times) took most of a frame; a call's
span, once it is answered, never changes, so it is kept by call and a rebuild costs a dictionary look-up
a row and a few passes in C (``Spans.of``).
"""

from __future__ import annotations

from typing import NamedTuple, Union, cast

from inspector.model import Call, OrphanResult
from inspector.model.call import Item
from inspector.ui.timescale import Spans

Span = Union[tuple[float, float], tuple[()]]  # noqa: UP007 - a runtime alias, also on 3.10
"""(start, end) of what a row draws without the clock; ``()`` for a row with no time."""

NO_SPAN: Span = ()


def clock_free_span(item: Item) -> Span:
    """What ``item_span(item, None)`` gives (the events make every time finite), in new floats: the times
    read from 100,000 events lie all over the heap, copies made one after another lie together, and
    the passes over every row's span (sort, max) go half as fast again."""
    if isinstance(item, Call):
        start, results = item.request.ts, item.results
        end = results[0].ts if results else None
    else:
        start = end = item.result.ts if isinstance(item, OrphanResult) else getattr(item, "ts", None)
    if start is None:
        return NO_SPAN
    start += 0.0
    return (start, end + 0.0) if end is not None and end > start else (start, start)


class Measured(NamedTuple):
    spans: Spans
    running: list[Call]
    """The calls without a result among the rows (their bars grow with the clock)."""
    deadlines: list[float]
    """The deadlines of the running calls, sorted."""


class RowSpans:
    """The spans of the rows measured, by row: kept for good once a call is answered (an orphan result's
    at once), and with its deadline while it runs (its bar reaches its result once that comes).

    Messages and malformed records cannot be keys: their time is read each time (a look-up costs as much).
    """

    def __init__(self, min_gap: float) -> None:
        self.min_gap = min_gap
        self.store: object = None
        self.known: dict[Call | OrphanResult, Span] = {}
        self.waiting: dict[Call, tuple[Span, float | None]] = {}
        self.untimed = False
        """A row without a time was measured: its empty span is to be left out."""

    def measure(self, items: list[Item], store: object) -> Measured:
        """The extent and gaps of ``items`` (rows of ``store``), its running calls and their deadlines."""
        if store is not self.store:  # a new store (a replay rebuilt it): other calls
            self.store, self.known, self.waiting, self.untimed = store, {}, {}, False
        running: list[Call] = []
        deadlines: list[float] = []
        if len(self.known) + len(self.waiting) < len(items) // 2:  # most rows are new: a loop a row
            timed = self._measure_all(items, running, deadlines)
        else:
            timed = self._look_up(items, running, deadlines)
        deadlines.sort()
        return Measured(Spans.of(timed, self.min_gap), running, deadlines)

    def _look_up(
        self, items: list[Item], running: list[Call], deadlines: list[float]
    ) -> list[tuple[float, float]]:
        """The spans of ``items`` looked up, a scan in C for the rows not known yet (then measured)."""
        keyed: list[Item] = items
        plain: list[Item] = []
        try:
            spans: list[Span | None] = list(map(self.known.get, items))  # type: ignore[arg-type]
        except TypeError:  # messages among the rows: they cannot be keys
            keyed = [item for item in items if isinstance(item, (Call, OrphanResult))]
            plain = [item for item in items if not isinstance(item, (Call, OrphanResult))]
            spans = list(map(self.known.get, keyed))  # type: ignore[arg-type]
        index = -1
        find = spans.index
        try:
            while True:
                index = find(None, index + 1)
                spans[index] = self._measure(keyed[index], running, deadlines)
        except ValueError:  # no row left to measure
            pass
        timed = cast("list[tuple[float, float]]", list(filter(None, spans)) if self.untimed else spans)
        if plain:
            timed += [(ts, ts) for item in plain if (ts := getattr(item, "ts", None)) is not None]
        return timed

    def _measure_all(
        self, items: list[Item], running: list[Call], deadlines: list[float]
    ) -> list[tuple[float, float]]:
        """The spans of ``items`` measured one by one (the first measure: most rows are new): an answered
        call's is ``clock_free_span`` inlined, a running call or an orphan goes to ``_measure``."""
        known = self.known
        timed: list[tuple[float, float]] = []
        add = timed.append
        for item in items:
            if (
                isinstance(item, Call)
                and (results := item.results)
                and (start := item.request.ts) is not None
            ):
                start += 0.0
                end = results[0].ts
                span = known[item] = (start, end + 0.0) if end is not None and end > start else (start, start)
                add(span)
            elif isinstance(item, (Call, OrphanResult)):
                if kept := self._measure(item, running, deadlines):
                    add(kept)
            elif (ts := getattr(item, "ts", None)) is not None:  # a message: not a key, nothing to keep
                add((ts, ts))
        return timed

    def _measure(self, item: Item, running: list[Call], deadlines: list[float]) -> Span:
        """The span of a row not known: kept, or listed with its deadline if it runs."""
        if isinstance(item, Call) and not item.results:
            waiting = self.waiting.get(item)
            if waiting is None:
                waiting = self.waiting[item] = (clock_free_span(item), item.deadline)
            span, deadline = waiting
            running.append(item)  # counts at its start until it is answered
            if deadline is not None:
                deadlines.append(deadline)
        else:  # an answered call or an orphan result: its span is for good
            keyed = cast("Call | OrphanResult", item)
            span = self.known[keyed] = clock_free_span(item)
            if self.waiting and isinstance(keyed, Call):
                self.waiting.pop(keyed, None)
        if not span:
            self.untimed = True
        return span
