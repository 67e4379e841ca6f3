"""A filter that matches only a nested call unfolds its folded parent in the list (the match shows at
once, not after ``l``); the fold comes back when the filter is cleared, and folding the parent again by
hand under the same filter keeps it folded."""

from __future__ import annotations

from screen_text import screen_text, wait_for
from ui_factories import SIZE, make_app

from inspector.model import Call
from inspector.ui.widgets.call_list import CallList


def tools(app) -> list[str]:
    return [item.tool for item in app.screen.query_one(CallList).view.items if isinstance(item, Call)]


async def fold_task(pilot, app) -> None:
    calls = app.screen.query_one(CallList)
    row = next(i for i, item in enumerate(calls.view.items) if isinstance(item, Call) and item.tool == "Task")
    calls.move_to(row)
    await pilot.press("enter")  # fold it
    assert await wait_for(pilot, lambda: "Read" not in tools(app))


async def test_a_filter_matching_only_a_nested_call_unfolds_its_parent():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await fold_task(pilot, app)
        assert "▸ Task" in screen_text(app)
        await pilot.press("slash", *"tool:Read", "enter")
        assert await wait_for(pilot, lambda: tools(app) == ["Task", "Read"])
        assert await wait_for(pilot, lambda: "▾ Task" in screen_text(app))  # the list drawn on its beat
        text = screen_text(app)
        assert "▾ Task" in text and "▸ Task" not in text
        view = app.screen.query_one(CallList).view
        assert view.is_match(
            view.items.index(next(i for i in view.items if getattr(i, "tool", "") == "Read")), None
        )
        await pilot.press("slash", "ctrl+u", "enter")  # the filter cleared: the fold the user made is back
        assert await wait_for(pilot, lambda: "Read" not in tools(app) and "Task" in tools(app))
        assert await wait_for(pilot, lambda: "▸ Task" in screen_text(app))


async def test_a_parent_that_matches_itself_stays_folded():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await fold_task(pilot, app)
        await pilot.press("slash", *"tool:Task", "enter")
        assert await wait_for(pilot, lambda: tools(app) == ["Task"])
        assert "▸ Task" in screen_text(app)


async def test_folding_it_again_under_the_filter_keeps_it_folded():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await fold_task(pilot, app)
        await pilot.press("slash", *"tool:Read", "enter")
        assert await wait_for(pilot, lambda: tools(app) == ["Task", "Read"])
        calls = app.screen.query_one(CallList)
        calls.move_to(0)
        calls.focus()
        await pilot.press("enter")  # fold the opened parent by hand
        assert await wait_for(pilot, lambda: tools(app) == ["Task"])
        assert "▸ Task" in screen_text(app)
        await pilot.press("l")  # and unfold it again
        assert await wait_for(pilot, lambda: tools(app) == ["Task", "Read"])
