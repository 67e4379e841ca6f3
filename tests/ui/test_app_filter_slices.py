"""A filter that searches payloads on a big store never takes the keys away: it is judged in a thread
while the old rows stay and the status bar says 'filtering N%'; keys and ``q`` work meanwhile."""

from __future__ import annotations

import threading
import time

from screen_text import settled, wait_for
from ui_factories import T0, make_app, request, result

from inspector.model import CallStore, FakeClock
from inspector.model.filter import parse_filter
from inspector.sources.payloads import FilePayloads
from inspector.ui.screens import main as main_module
from inspector.ui.widgets.call_list import CallList
from inspector.ui.widgets.status_bar import StatusBar

HEAVY = " ".join(f"-param:needle{n}" for n in range(100)) + " param:keep"
"""A hundred payload terms, each asked of every call (negated terms all run)."""


def big_store(count: int) -> CallStore:
    clock = FakeClock(T0 + count + 5)
    store = CallStore(clock=clock)
    for n in range(count):
        body = {
            "command": f"echo {n} " + "x" * 200,
            "nested": {"a": [n, {"b": "keep" if n % 3 == 0 else "drop"}]},
        }
        store.ingest(request(f"c{n:05d}", "Bash", ts=T0 + n, params=body))
        store.ingest(result(f"c{n:05d}", ts=T0 + n + 0.5))
    return store


def status(app) -> str:
    return str(app.screen.query_one(StatusBar).render())


def judging(screen) -> bool:
    return any(worker.group == "filter" and not worker.is_finished for worker in screen.workers)


class GatedPayloads(FilePayloads):
    """Payloads read away from the UI thread wait for the test's gate: the filter cannot end before
    the test has seen a key handled (on the UI thread nothing waits, so judging there would end it)."""

    gate = threading.Event()

    def request(self, call):
        if threading.current_thread() is not threading.main_thread():
            self.gate.wait(30)
        return super().request(call)


async def test_keys_work_while_a_payload_filter_is_judged_and_its_rows_come_after(monkeypatch):
    GatedPayloads.gate = threading.Event()
    monkeypatch.setattr(main_module, "FilePayloads", GatedPayloads)
    store = big_store(3_000)
    app = make_app(store)
    async with app.run_test(size=(120, 34)) as pilot:
        assert await wait_for(pilot, lambda: settled(app), 60)  # a big store on a busy machine
        screen = app.screen
        calls = screen.query_one(CallList)
        assert len(screen.view) == 3_000
        screen.apply_filter(HEAVY)
        assert await wait_for(pilot, lambda: "filtering" in status(app), 60), status(app)
        assert len(screen.view) == 3_000  # the rows before stay while the new filter is judged
        before = calls.cursor
        await pilot.press("j")
        assert await wait_for(pilot, lambda: calls.cursor == before + 1), calls.cursor
        hidden = screen.view.hide_messages
        await pilot.press("m")
        assert await wait_for(pilot, lambda: screen.view.hide_messages != hidden)
        assert "filtering" in status(app)  # all of that while the filter still runs
        GatedPayloads.gate.set()
        assert await wait_for(pilot, lambda: "filtering" not in status(app), 60), status(app)
        expected = parse_filter(HEAVY).select(store.items, app.now)
        assert len(expected) == 1_000
        assert [item.call_id for item in screen.view.items] == [item.call_id for item in expected]
        assert "filter -param:needle0" in status(app) and "(1000 rows)" in status(app)


async def test_a_new_filter_typed_while_one_is_judged_replaces_it(monkeypatch):
    GatedPayloads.gate = threading.Event()
    monkeypatch.setattr(main_module, "FilePayloads", GatedPayloads)
    app = make_app(big_store(2_000))
    async with app.run_test(size=(120, 34)) as pilot:
        assert await wait_for(pilot, lambda: settled(app), 60)  # a big store on a busy machine
        screen = app.screen
        screen.apply_filter(HEAVY)
        assert await wait_for(pilot, lambda: "filtering" in status(app), 60), status(app)
        screen.apply_filter("id:c0001")  # no payload: quick, the one being judged is dropped
        # judged here within JUDGE_HERE, or in a slice of its own when a loaded machine takes longer
        assert await wait_for(pilot, lambda: "filtering" not in status(app), 60), status(app)
        assert [item.call_id for item in screen.view.items] == [f"c0001{n}" for n in range(10)]
        GatedPayloads.gate.set()
        assert await wait_for(pilot, lambda: not judging(screen), 60)  # the dropped one has ended
        assert len(screen.view.items) == 10 and "filter id:c0001" in status(app)


async def test_q_quits_at_once_while_a_heavy_filter_runs():
    app = make_app(big_store(8_000))
    async with app.run_test(size=(120, 34)) as pilot:
        assert await wait_for(pilot, lambda: settled(app), 60)  # a big store on a busy machine
        app.screen.apply_filter(HEAVY)
        assert await wait_for(pilot, lambda: "filtering" in status(app), 60), status(app)
        asked = time.monotonic()
        await pilot.press("q")
        assert await wait_for(pilot, lambda: not app.is_running or app._exit_renderables is not None, 10)
    assert time.monotonic() - asked < 10


async def test_a_new_store_under_a_heavy_filter_is_judged_in_the_thread_too(monkeypatch):
    """A followed file replaced, or a replay sought back, brings a new store: the filter judges its
    items in the thread as well (the rows wait empty), not all of them in one go on the UI thread."""
    GatedPayloads.gate = threading.Event()
    GatedPayloads.gate.set()  # the first store is judged at once
    monkeypatch.setattr(main_module, "FilePayloads", GatedPayloads)
    app = make_app(big_store(30))
    async with app.run_test(size=(120, 34)) as pilot:
        assert await wait_for(pilot, lambda: settled(app), 60)  # a big store on a busy machine
        screen = app.screen
        screen.apply_filter(HEAVY)
        assert await wait_for(pilot, lambda: len(screen.view.items) == 10), len(screen.view.items)
        GatedPayloads.gate.clear()
        bigger = big_store(3_000)
        screen.presenter.watch(bigger)  # as a replay's seek or a replaced followed file hands it over
        screen.post_message(main_module.CallsChanged())
        assert await wait_for(pilot, lambda: "filtering" in status(app), 60), status(app)
        assert screen.view.items == []
        hidden = screen.view.hide_messages
        await pilot.press("m")
        assert await wait_for(pilot, lambda: screen.view.hide_messages != hidden)
        assert "filtering" in status(app) and screen.view.items == []
        GatedPayloads.gate.set()
        assert await wait_for(pilot, lambda: "filtering" not in status(app), 60), status(app)
        expected = parse_filter(HEAVY).select(bigger.items, app.now)
        assert [item.call_id for item in screen.view.items] == [item.call_id for item in expected]
        assert len(expected) == 1_000


class BrokenPayloads(FilePayloads):
    """A payload that cannot be read again (a file gone bad under the app): the read raises."""

    def request(self, call):
        if call.call_id == "c02500":
            raise OSError(5, "Input/output error", "/gone/session.jsonl")
        return super().request(call)


async def test_a_filter_that_fails_on_a_row_is_said_and_the_app_goes_on(monkeypatch):
    monkeypatch.setattr(main_module, "FilePayloads", BrokenPayloads)
    app = make_app(big_store(3_000))
    async with app.run_test(size=(120, 34)) as pilot:
        assert await wait_for(pilot, lambda: settled(app), 60)
        screen = app.screen
        screen.apply_filter("id:c0000")  # a filter that stands (judged at once, or in a slice when loaded)
        assert await wait_for(pilot, lambda: len(screen.view.items) == 10, 60)
        screen.apply_filter(HEAVY)  # reaches the bad row in its thread (or here, on a fast machine)
        said = lambda: [n.message for n in app._notifications if "could not be applied" in n.message]  # noqa: E731
        assert await wait_for(pilot, lambda: bool(said()), 60), status(app)
        assert "Input/output error" in said()[0]
        assert "filtering" not in status(app) and "filter id:c0000" in status(app)  # the one before stays
        assert len(screen.view.items) == 10
        await pilot.press("j")  # and the keys work
        assert await wait_for(pilot, lambda: screen.query_one(CallList).cursor == 1)
