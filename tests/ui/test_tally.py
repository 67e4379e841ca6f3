"""Tally: calls per state kept from change sets, the pending/overdue split made at any time."""

from __future__ import annotations

from inspector.model import CallStore, FakeClock, State
from inspector.model.events import Outcome, Request, Result
from inspector.ui.feed import Tally


def test_the_overdue_split_follows_calls_as_they_open_and_close():
    store = CallStore(clock=FakeClock(1000.0))
    tally = Tally()
    for n, timeout in enumerate([1000, 2000, 3000, 2000]):
        store.ingest(Request(call_id=f"c{n}", tool="t", timeout_ms=timeout, ts=1000.0))
    store.ingest(Request(call_id="forever", tool="t", ts=1000.0))  # no timeout: never overdue
    tally.add(store.items)
    assert tally.counts(1000.5) == {State.PENDING: 5}
    assert tally.counts(1002.5) == {State.PENDING: 2, State.OVERDUE: 3}
    first_two = [store.find("", "c1"), store.find("", "c3")]  # the two with the same deadline
    store.ingest(Result(call_id="c1", ts=1001.0, outcome=Outcome.SUCCESS))
    tally.add(first_two[:1])
    assert tally.counts(1002.5) == {State.SUCCEEDED: 1, State.PENDING: 2, State.OVERDUE: 2}
    store.ingest(Result(call_id="c3", ts=1001.0, outcome=Outcome.SUCCESS))
    tally.add(first_two)  # counted again: no change
    assert tally.counts(1002.5) == {State.SUCCEEDED: 2, State.PENDING: 2, State.OVERDUE: 1}
    assert tally.counts(None) == {State.SUCCEEDED: 2, State.PENDING: 3}
