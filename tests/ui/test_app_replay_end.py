"""Replay to the end of a Claude Code sample keeps every row (nested calls rebuild the rows from the replay's store)."""

from __future__ import annotations

from pathlib import Path

from screen_text import wait_for
from ui_factories import T0, file_app

from inspector.model import FakeClock
from inspector.ui.view import RowView
from inspector.ui.widgets.call_list import CallList

SESSION = (
    Path(__file__).resolve().parents[2]
    / "sample_sessions/claude/-home-dev-demo-app/5a3e0000-0000-4000-8000-000000000001.jsonl"
)


def row_count(store) -> int:
    """How many rows a fresh list of ``store`` shows."""
    view = RowView(store)
    view.rebuild(None)
    return len(view.items)


async def test_replay_of_a_claude_session_to_its_end_keeps_the_rows():
    clock = FakeClock(T0)
    app = file_app([SESSION], clock=clock, replay=True, speed=2.0)
    async with app.run_test(size=(120, 34)) as pilot:
        assert await wait_for(pilot, lambda: app.screen.replay is not None)
        control = app.screen.replay
        view = app.screen.query_one(CallList).view
        replayer = control.replayer
        for _ in range(200):  # the sample's 45 s at 2x, two seconds of wall clock at a time
            if replayer.finished:
                break
            clock.advance(2)
            # until the app has delivered every event due by now (the next one is due later)
            assert await wait_for(pilot, lambda: replayer.finished or (replayer.next_due_in() or 0) > 0)
        assert replayer.finished
        store = control.store
        nested = sum(1 for call in store.all_calls() if call.parent is not None)
        assert nested > 0  # the sample's Task has subagent calls: their arrival rebuilds the rows
        assert await wait_for(pilot, lambda: len(view.items) >= len(store.items) + nested)
        assert view.store is store
        every = len(view.items)
        calls = store.call_count
        for key, rows in (("G", every), ("k", every), ("m", calls), ("m", every), ("g", every)):
            await pilot.press(key)  # the keys that did not bring the rows back
            assert await wait_for(pilot, lambda rows=rows: len(view.items) == rows), key
        assert app.screen.query_one(CallList).item is store.items[0]
        await pilot.press("left_square_bracket")  # a step back rebuilds the replay's store: rows follow it
        assert await wait_for(pilot, lambda: control.store is not store and view.store is control.store)
        assert await wait_for(pilot, lambda: len(view.items) == row_count(control.store) > 0)
        await pilot.press("right_square_bracket")
        assert await wait_for(pilot, lambda: control.replayer.finished and len(view.items) == every)
