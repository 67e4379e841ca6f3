"""In the app a file that is not followed is judged at its last record; a followed one on the live clock."""

from __future__ import annotations

from recording_factory import START, unanswered_recording
from screen_text import screen_text, wait_for
from ui_factories import file_app

from inspector.model import FakeClock
from inspector.ui.widgets.call_list import CallList

THREE_WEEKS = 21 * 86400 + 3600


async def test_a_finished_recording_does_not_age(tmp_path):
    clock = FakeClock(START + THREE_WEEKS)
    app = file_app([unanswered_recording(tmp_path / "r.jsonl")], clock=clock)
    async with app.run_test(size=(120, 34)) as pilot:
        assert await wait_for(pilot, lambda: not app.screen.has_class("-loading"))
        await pilot.press("g")
        await pilot.pause()
        assert app.screen.query_one(CallList).item.tool == "send_sms"
        text = screen_text(app)
        assert "+4.2s" in text and "+21d" not in text
        assert "no result by the end of the recording, 4.2s past its deadline" in text
        clock.advance(3600)
        app.tick()
        await pilot.pause()
        assert "4.2s past its deadline" in screen_text(app)  # the figure does not grow


async def test_a_followed_file_keeps_the_live_clock(tmp_path):
    clock = FakeClock(START + THREE_WEEKS)
    app = file_app([unanswered_recording(tmp_path / "r.jsonl")], clock=clock, follow=True)
    async with app.run_test(size=(120, 34)) as pilot:
        assert await wait_for(pilot, lambda: app.screen.following)
        await pilot.press("g")
        await pilot.pause()
        text = screen_text(app)
        assert "+21d" in text and "overdue by 21d" in text
        await pilot.press("F")  # following off: judged at the end of the recording again
        await pilot.pause()
        assert "4.2s past its deadline" in screen_text(app)
