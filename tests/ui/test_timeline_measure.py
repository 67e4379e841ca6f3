"""The timeline's measure of every row at once (kept spans, Spans.of) against a row-by-row pass."""

from __future__ import annotations

import random

from inspector.model import Call, Malformed, Message, OrphanResult, Outcome, Request, Result
from inspector.ui.timescale import Spans
from inspector.ui.widgets.timeline_measure import RowSpans
from inspector.ui.widgets.timeline_rows import item_span

T0 = 1_700_000_000.0


def row_by_row(items: list) -> tuple:
    """What the timeline measured before: each row's span added in turn, the running calls listed."""
    spans, running = Spans(60), []
    for item in items:
        if isinstance(item, Call) and not item.results:
            running.append(item)
        span = item_span(item, None)
        if span is not None:
            spans.add(*span)
    deadlines = sorted(d for call in running if (d := call.deadline) is not None)
    return spans.extent, spans.gaps, running, deadlines


def at_once(rows: RowSpans, items: list, store: object) -> tuple:
    measured = rows.measure(items, store)
    return measured.spans.extent, measured.spans.gaps, measured.running, measured.deadlines


def a_time(rng: random.Random) -> float | None:
    if rng.random() < 0.05:
        return None
    return T0 + rng.choice([rng.uniform(0, 2000), rng.randint(0, 40) * 50.0, rng.uniform(0, 20) * 300])


def some_rows(rng: random.Random, count: int) -> list:
    rows: list = []
    for index in range(count):
        kind = rng.random()
        ts = a_time(rng)
        if kind < 0.7:
            call = Call(Request(f"c{index}", "tool", ts=ts, timeout_ms=rng.choice([None, 30_000])), seq=index)
            if rng.random() < 0.7:
                late = None if ts is None else ts + rng.choice([0.0, rng.uniform(-5, 5), rng.uniform(0, 400)])
                call.results.append(
                    Result(f"c{index}", Outcome.SUCCESS, ts=late if rng.random() > 0.05 else None)
                )
            rows.append(call)
        elif kind < 0.8:
            rows.append(OrphanResult(Result(f"o{index}", Outcome.ERROR, ts=ts)))
        elif kind < 0.95:
            rows.append(Message("user", "hi", ts=ts))
        else:
            rows.append(Malformed("line 1", "bad"))
    return rows


def test_spans_of_finds_what_adding_them_one_by_one_finds():
    rng = random.Random(3)
    for _ in range(2000):
        pairs = []
        for _ in range(rng.randint(0, 40)):
            start = T0 + rng.choice(
                [rng.uniform(0, 1000), rng.randint(0, 20) * 30.0, rng.uniform(0, 50) * 100]
            )
            pairs.append(
                (start, start + rng.choice([0.0, rng.uniform(0, 5), rng.uniform(0, 300), 60.0, 90.0]))
            )
        gap = rng.choice([60.0, 30.0, 0.0])
        one_by_one = Spans(gap)
        for start, end in pairs:
            one_by_one.add(start, end)
        at_once = Spans.of(pairs, gap)
        assert (at_once.extent, at_once.gaps) == (one_by_one.extent, one_by_one.gaps)


def test_rows_measured_again_from_kept_spans_match_a_row_by_row_pass():
    rng = random.Random(7)
    for _ in range(60):
        universe = some_rows(rng, rng.randint(0, 300))
        store = object()
        rows = RowSpans(60)
        for _ in range(6):  # filters and folds: other subsets of the rows, in the store's order or not
            subset = [item for item in universe if rng.random() < rng.choice([0.3, 0.9, 1.0])]
            if rng.random() < 0.2:
                rng.shuffle(subset)
            if rng.random() < 0.3:
                subset = [item for item in subset if not isinstance(item, (Message, Malformed))]
            assert at_once(rows, subset, store) == row_by_row(subset)
            for item in universe:  # results arrive between two measures
                if isinstance(item, Call) and not item.results and rng.random() < 0.3:
                    ts = item.request.ts
                    item.results.append(
                        Result(item.call_id, Outcome.SUCCESS, ts=None if ts is None else ts + 2)
                    )


def test_a_new_store_forgets_the_kept_spans():
    call = Call(Request("a", "tool", ts=T0))
    call.results.append(Result("a", Outcome.SUCCESS, ts=T0 + 5))
    rows = RowSpans(60)
    rows.measure([call], "first store")
    assert call in rows.known
    rows.measure([], "second store")
    assert not rows.known
