"""Replay to the end of a Claude Code sample keeps every row (nested calls rebuild the rows from the replay's store)."""

from __future__ import annotations

from pathlib import Path

from screen_text import wait_for
from ui_factories import T0, file_app

from inspector.model import FakeClock
from inspector.ui.widgets.call_list import CallList

SESSION = (
    Path(__file__).resolve().parents[2]
    / "sample_sessions/claude/-home-dev-demo-app/5a3e0000-0000-4000-8000-000000000001.jsonl"
)


async def test_replay_of_a_claude_session_to_its_end_keeps_the_rows():
    clock = FakeClock(T0)
    app = file_app([SESSION], clock=clock, replay=True, speed=2.0)
    async with app.run_test(size=(120, 34)) as pilot:
        assert await wait_for(pilot, lambda: app.screen.replay is not None)
        control = app.screen.replay
        view = app.screen.query_one(CallList).view
        for _ in range(200):
            if control.replayer.finished:
                break
            clock.advance(2)
            await pilot.pause(0.02)
        assert control.replayer.finished
        await pilot.pause(0.2)
        store = control.store
        nested = sum(1 for call in store.all_calls() if call.parent is not None)
        assert nested > 0  # the sample's Task has subagent calls: their arrival rebuilds the rows
        assert view.store is store
        assert len(view.items) >= len(store.items) + nested
        await pilot.press("g")
        assert app.screen.query_one(CallList).item is store.items[0]
