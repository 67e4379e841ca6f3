"""Countdowns: one clock drives them, only visible pending rows redraw, colours change, overdue at zero."""

from __future__ import annotations

from screen_text import screen_text
from ui_factories import SIZE, T0, make_app, request, result

from inspector.model import CallStore, FakeClock
from inspector.ui.render.rows import countdown
from inspector.ui.widgets.call_list import CallList
from inspector.ui.widgets.status_bar import StatusBar


def line_of(app, needle: str) -> str:
    return next(line for line in screen_text(app).splitlines() if needle in line)


def time_segment(call_list: CallList, index: int, text: str):
    strip = call_list.row_strip(index, call_list.row_layout, call_list.row_styles)
    return next(segment for segment in strip if text in segment.text)


async def test_countdown_ticks_changes_colour_and_turns_overdue():
    clock = FakeClock(T0)
    store = CallStore(clock=clock)
    store.ingest(request("w", "take_photo", ts=T0, timeout_ms=30_000))
    app = make_app(store, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        call_list = app.screen.query_one(CallList)
        assert "30s" in line_of(app, "take_photo")
        assert time_segment(call_list, 0, "30s").style == call_list.row_styles["pending"]
        clock.advance(21.1)
        app.tick()
        await pilot.pause()
        assert "9.0s" in line_of(app, "take_photo")  # the last 10 s count in quarter seconds
        assert time_segment(call_list, 0, "9.0s").style == call_list.row_styles["soon"]
        clock.advance(6.5)
        app.tick()
        await pilot.pause()
        assert "2.5s" in line_of(app, "take_photo")
        assert time_segment(call_list, 0, "2.5s").style == call_list.row_styles["urgent"]
        clock.advance(3.4)
        app.tick()
        await pilot.pause()
        line = line_of(app, "take_photo")
        assert "overdue" in line and "+1.0s" in line
        assert "overdue 1" in str(app.screen.query_one(StatusBar).render())


async def test_a_tick_redraws_only_the_time_columns_of_visible_pending_rows():
    clock = FakeClock(T0)
    store = CallStore(clock=clock)
    for index in range(200):  # 200 rows, a screenful visible; every other one pending
        store.ingest(request(f"c{index}", ts=T0, timeout_ms=60_000))
        if index % 2:
            store.ingest(result(f"c{index}", ts=T0 + 1))
    app = make_app(store, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        call_list = app.screen.query_one(CallList)
        regions = []
        original = call_list.refresh

        def spy(*args, **kwargs):
            regions.extend(args)
            return original(*args, **kwargs)

        call_list.refresh = spy
        clock.advance(1)
        app.tick()
        await pilot.pause()
        height = call_list.scrollable_content_region.height
        layout = call_list.row_layout
        assert regions, "the tick redrew nothing"
        # the visible pending rows only (the app's own timer may have ticked too: same rows again)
        assert {region.y for region in regions} == {y for y in range(height) if y % 2 == 0}
        for region in regions:
            assert region.height == 1 and 0 <= region.y < height
            assert region.x == layout.badge_x and region.right == layout.tool_x


async def test_late_results_are_marked():
    clock = FakeClock(T0 + 10)
    store = CallStore(clock=clock)
    store.ingest(request("l", "book_table", ts=T0, timeout_ms=500))
    store.ingest(result("l", ts=T0 + 3))
    app = make_app(store, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        call_list = app.screen.query_one(CallList)
        assert "(late)" in line_of(app, "book_table")
        assert time_segment(call_list, 0, "3.0s").style == call_list.row_styles["late"]


async def test_the_app_clock_is_one_reactive_fed_by_the_injected_clock():
    clock = FakeClock(T0)
    app = make_app(CallStore(clock=clock), clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        clock.advance(42)
        app.tick()
        await pilot.pause()
        assert app.now == T0 + 42
        assert app.screen.query_one(CallList).now == T0 + 42


def test_countdown_texts():
    assert countdown(125.0) == ("2m05s", "pending")
    assert countdown(29.2) == ("30s", "pending")
    assert countdown(9.1) == ("9.2s", "soon")
    assert countdown(2.0) == ("2.0s", "urgent")
    assert countdown(-0.4) == ("+400ms", "overdue")
