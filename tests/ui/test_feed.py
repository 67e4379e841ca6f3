"""StoreFeed, Tally and RowView on their own: what the main screen builds its rows and counts from."""

from __future__ import annotations

import threading

from inspector.model import Call, CallStore, FakeClock, Message, Outcome, State
from inspector.model.filter import parse_filter
from inspector.ui.feed import StoreFeed, Tally
from inspector.ui.view import JUMPS, RowView
from tests.factories import make_request, make_result

# -- StoreFeed ---------------------------------------------------------------------------------


def test_the_feed_notifies_once_per_burst_until_drained():
    store = CallStore(clock=FakeClock(1000.0))
    pokes: list[int] = []
    feed = StoreFeed(store, lambda: pokes.append(1))
    for index in range(10):
        store.ingest(make_request(f"c{index}"))
    assert pokes == [1]
    changes = feed.drain()
    assert [c.call_id for c in changes.new_top] == [f"c{i}" for i in range(10)]
    assert feed.seen_top == 10 and not changes.reset
    store.ingest(make_request("c10"))
    assert pokes == [1, 1]  # drained: the next change notifies again


def test_a_result_is_an_update_and_a_nested_call_says_nested():
    store = CallStore(clock=FakeClock(1000.0))
    feed = StoreFeed(store, lambda: None)
    store.ingest(make_request("parent", "Task"))
    feed.drain()
    store.ingest(make_result("parent", Outcome.ERROR))
    changes = feed.drain()
    assert not changes.new_top and [c.call_id for c in changes.updated] == ["parent"]
    store.ingest(make_request("child", parent_id="parent"))
    changes = feed.drain()
    assert changes.nested and not changes.new_top


def test_replacing_the_store_resets_and_forgets_the_old_one():
    first = CallStore(clock=FakeClock(1000.0))
    feed = StoreFeed(first, lambda: None)
    first.ingest(make_request("a"))
    feed.drain()
    second = CallStore(clock=FakeClock(1000.0))
    second.ingest(make_request("b"))
    feed.replace_store(second)
    changes = feed.drain()
    assert changes.reset and [c.call_id for c in changes.new_top] == ["b"]


def test_changes_from_a_loader_thread_all_arrive():
    store = CallStore(clock=FakeClock(1000.0))
    feed = StoreFeed(store, lambda: None)
    seen: list[str] = []

    def load() -> None:
        for index in range(2000):
            store.ingest(make_request(f"c{index}"))

    thread = threading.Thread(target=load)
    thread.start()
    while thread.is_alive():
        seen += [c.call_id for c in feed.drain().new_top]
    thread.join()
    seen += [c.call_id for c in feed.drain().new_top]
    assert seen == [f"c{i}" for i in range(2000)]


# -- Tally -------------------------------------------------------------------------------------


def test_the_tally_splits_pending_from_overdue_at_now_and_moves_answered_calls():
    store = CallStore(clock=FakeClock(1000.0))
    tally = Tally()
    store.ingest(make_request("short", ts=1000.0, timeout_ms=1000))
    store.ingest(make_request("long", ts=1000.0, timeout_ms=60000))
    tally.add(store.items)
    assert tally.counts(1000.5) == {State.PENDING: 2}
    assert tally.counts(1002.0) == {State.PENDING: 1, State.OVERDUE: 1}
    store.ingest(make_result("short", Outcome.TIMEOUT, ts=1003.0))
    tally.add([store.find("g", "short")])
    assert tally.counts(1004.0) == {State.PENDING: 1, State.TIMED_OUT: 1}
    tally.add([store.find("g", "short")])  # counting twice changes nothing
    assert tally.counts(1004.0) == {State.PENDING: 1, State.TIMED_OUT: 1}


def test_the_tally_counts_nested_calls():
    store = CallStore(clock=FakeClock(1000.0))
    store.ingest(make_request("task", "Task"))
    store.ingest(make_request("inner", parent_id="task"))
    store.ingest(make_result("inner"))
    tally = Tally()
    tally.add(store.items)
    assert tally.counts(1000.0) == {State.PENDING: 1, State.SUCCEEDED: 1}


def test_the_tally_counts_each_call_once_numbered_by_a_store_or_made_on_its_own():
    store = CallStore(clock=FakeClock(1000.0))
    for n in range(3000):  # past the first block of marks
        store.ingest(make_request(f"c{n}", ts=1000.0))
        store.ingest(make_result(f"c{n}"))
    loose = Call(make_request("loose"), seq=0)  # no store's number: marked by its id
    loose.results.append(make_result("loose", Outcome.ERROR))
    tally = Tally()
    for _ in range(2):
        tally.add(store.items)
        tally.add([loose, loose])
    assert tally.counts(1000.0) == {State.SUCCEEDED: 3000, State.FAILED: 1}


# -- RowView -----------------------------------------------------------------------------------


def view_of(store: CallStore) -> tuple[RowView, StoreFeed]:
    view = RowView(store)
    feed = StoreFeed(store, lambda: None)
    view.apply(feed.drain(), 1000.0)
    return view, feed


def test_rows_follow_the_store_and_hide_messages_on_demand():
    store = CallStore(clock=FakeClock(1000.0))
    view, feed = view_of(store)
    store.ingest(make_request("c1"))
    store.ingest(Message(kind="user", text="hi", group="g", ts=1000.0))
    store.ingest(make_request("c2"))
    assert view.apply(feed.drain(), 1000.0)
    assert len(view) == 3
    view.hide_messages = True
    view.rebuild(1000.0)
    assert [item.call_id for item in view.items] == ["c1", "c2"]


def test_a_filter_keeps_a_parent_as_context_and_matches_only_what_it_says():
    store = CallStore(clock=FakeClock(1000.0))
    store.ingest(make_request("task", "Task"))
    store.ingest(make_request("inner", "Bash", parent_id="task"))
    store.ingest(make_request("other", "Read"))
    view, _ = view_of(store)
    view.filter = parse_filter("tool:Bash")
    view.rebuild(1000.0)
    assert [item.call_id for item in view.items] == ["task", "inner"]
    assert [view.is_match(i, 1000.0) for i in range(len(view))] == [False, True]
    assert [item.call_id for item in view.matched_items(1000.0)] == ["inner"]
    assert view.find_match(0, True, 1000.0) == 1


def test_folding_hides_nested_rows_and_jumps_wrap_around():
    store = CallStore(clock=FakeClock(1000.0))
    store.ingest(make_request("task", "Task"))
    store.ingest(make_request("inner", parent_id="task"))
    store.ingest(make_request("done"))
    store.ingest(make_result("done", Outcome.ERROR))
    view, _ = view_of(store)
    assert len(view) == 3
    view.folded.add(store.find("g", "task"))
    view.rebuild(1000.0)
    assert [item.call_id for item in view.items] == ["task", "done"]
    assert view.find(1, True, JUMPS["pending"], 1000.0) == 0  # wraps to the top
    assert view.find(0, True, JUMPS["failed"], 1000.0) == 1
    assert view.index_of(store.find("g", "done")) == 1


def test_rows_of_a_deep_tree_are_the_same_whether_anything_is_hidden_or_not():
    store = CallStore(clock=FakeClock(1000.0))
    store.ingest(make_request("task", "Task"))
    store.ingest(make_request("sub", "Task", parent_id="task"))
    store.ingest(make_request("leaf", "Bash", parent_id="sub"))
    store.ingest(Message(kind="assistant", text="in sub", group="g", ts=1000.0, parent_id="sub"))
    store.ingest(make_request("after", "Read", parent_id="task"))
    store.ingest(make_result("orphan"))
    store.ingest(make_request("last"))
    view, _ = view_of(store)
    shown = [
        (getattr(item, "call_id", None) or type(item).__name__, depth)
        for item, depth in zip(view.items, view.depths, strict=True)
    ]
    assert shown == [
        ("task", 0),
        ("sub", 1),
        ("leaf", 2),
        ("Message", 2),
        ("after", 1),
        ("orphan", 0),  # an orphan result, by its id
        ("last", 0),
    ]
    view.filter = parse_filter("-id:nothing")  # matches every row: the rows made one by one
    view.rebuild(1000.0)
    assert (view.items, view.depths) == (view_of(store)[0].items, view_of(store)[0].depths)
    view.filter = None
    view.seen = 2  # what the feed has taken in: the first two top-level items and all under them
    view.rebuild(1000.0)
    assert [depth for depth in view.depths] == [0, 1, 2, 2, 1, 0]
