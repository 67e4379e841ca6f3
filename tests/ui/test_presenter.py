"""The main screen's presenter, without a screen: coalescing, redraws, the status line."""

from __future__ import annotations

import pytest

from inspector.model import CallStore, FakeClock, Outcome, State
from inspector.sources.feeds import StoreSource
from inspector.sources.files import Progress
from inspector.sources.memory import MemorySource
from inspector.ui.presenter import LIVE_REPAINT, LOADING_REPAINT, MainPresenter
from inspector.ui.view import RowView
from tests.factories import make_request, make_result


def presenter(store: CallStore, source=None, **kwargs) -> tuple[MainPresenter, list[int]]:
    pokes: list[int] = []
    shown = MainPresenter(source or StoreSource(store), RowView(store), lambda: pokes.append(1), **kwargs)
    shown.watch(store)
    return shown, pokes


def test_a_burst_of_changes_pokes_once_and_drains_into_rows_and_counts():
    store = CallStore(clock=FakeClock(1000.0))
    shown, pokes = presenter(store)
    for index in range(50):
        store.ingest(make_request(f"c{index}"))
    assert pokes == [1]  # one notification stands for the whole burst
    redraw = shown.take_changes(1000.0, 0.0)
    assert redraw is not None and redraw.rows and not redraw.reset
    assert len(shown.view) == 50
    assert shown.tally.counts(1000.0)[State.PENDING] == 50
    assert shown.take_changes(1000.0, 0.0) is None  # nothing new
    store.ingest(make_result("c3"))
    assert pokes == [1, 1]
    redraw = shown.take_changes(1001.0, 0.0)
    assert redraw is not None and [call.call_id for call in redraw.updated] == ["c3"]
    assert shown.tally.counts(1001.0)[State.SUCCEEDED] == 1


def test_a_result_alone_repaints_without_new_rows():
    store = CallStore(clock=FakeClock(1000.0))
    shown, _ = presenter(store)
    store.ingest(make_request("c1"))
    shown.take_changes(1000.0, 0.0)
    store.ingest(make_result("c1", Outcome.ERROR))
    redraw = shown.take_changes(1001.0, 0.0)
    assert redraw is not None and redraw.repaint and not redraw.rows


def test_while_loading_changes_are_taken_a_few_times_a_second():
    store = CallStore()
    shown, _ = presenter(store)
    assert shown.flush_wait(10.0) == 0.0  # the first change after a quiet spell: at once
    shown.take_changes(None, 10.0)
    assert shown.flush_wait(10.05) == pytest.approx(LIVE_REPAINT - 0.05)  # a flood: ten times a second
    assert shown.flush_wait(10.0 + LIVE_REPAINT + 0.01) == 0.0
    shown.load_progress = Progress(done=1, total=10, events=1)
    shown.take_changes(None, 10.0)
    assert shown.flush_wait(10.1) == pytest.approx(LOADING_REPAINT - 0.1)
    assert shown.flush_wait(10.0 + LOADING_REPAINT) == 0.0


def test_a_replaced_store_resets_rows_and_counts():
    first = CallStore(clock=FakeClock(1000.0))
    shown, _ = presenter(first)
    first.ingest(make_request("a"))
    shown.take_changes(1000.0, 0.0)
    second = CallStore(clock=FakeClock(1000.0))
    second.ingest(make_request("b"))
    second.ingest(make_request("c"))
    shown.watch(second)
    redraw = shown.take_changes(1000.0, 0.0)
    assert redraw is not None and redraw.reset
    assert shown.store is second and len(shown.view) == 2
    assert shown.tally.counts(1000.0)[State.PENDING] == 2


def test_the_status_says_what_the_source_and_store_hold():
    store = CallStore(clock=FakeClock(1000.0))
    shown, _ = presenter(store, label="room conv_1")
    store.ingest(make_request("c1"))
    shown.take_changes(1000.0, 0.0)
    status = shown.status(1000.0, following=None, replay=None)
    assert status.sources == "room conv_1" and status.rows == 1 and status.connection is None
    live = MemorySource(store)
    shown, _ = presenter(store, source=live)
    assert shown.status(1000.0, following=True, replay=None).connection == live.state.label
