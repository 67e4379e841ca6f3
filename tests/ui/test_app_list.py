"""Pilot tests of the call list: rows, keys, folding, jumps, hidden messages, inert session text, floods."""

from __future__ import annotations

from screen_text import screen_text, wait_for
from ui_factories import NASTY, SIZE, T0, make_app, nasty_store, request, result, sample_store

from inspector.model import Call, CallStore, FakeClock, Malformed, Message, OrphanResult
from inspector.ui.screens.main import CallsChanged
from inspector.ui.widgets.call_list import CallList


def rows(app) -> list:
    return app.screen.query_one(CallList).view.items


def cursor_item(app):
    return app.screen.query_one(CallList).item


async def test_rows_show_time_tool_executor_summary_badge_and_time_column():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = screen_text(app)
        lines = text.splitlines()
        weather = next(line for line in lines if "get_weather" in line)
        assert (
            "succeeded" in weather and "server" not in weather and "client" in weather and "Rome" in weather
        )
        assert "400ms" in weather  # latency of a finished call
        assert "22:13:20" in weather or ":13:20" in weather  # the request's time (local zone)
        failed = next(line for line in lines if "web_search" in line)
        assert "failed" in failed and "execution_error Network unreachable" in failed
        assert any("orphan" in line and "ghost" in line for line in lines)
        assert any("malformed" in line and "line 17" in line for line in lines)
        assert any("message" in line and "Plan my evening" in line for line in lines)
        assert any("⚠" in line and "execution is REQUIRED" in line for line in lines)
        pending = next(line for line in lines if "take_photo" in line)
        assert "pending" in pending and "29s" in pending  # 30 s timeout, requested 1 s before now


async def test_nested_calls_are_indented_under_their_task_and_fold():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        tools = [item.tool for item in rows(app) if isinstance(item, Call)]
        assert tools[:5] == ["get_weather", "web_search", "Task", "Read", "Edit"]
        view = app.screen.query_one(CallList).view
        task_row = next(
            i for i, item in enumerate(view.items) if isinstance(item, Call) and item.tool == "Task"
        )
        assert view.depths[task_row + 1] == 1 and view.depths[task_row + 2] == 1
        assert "▾ Task" in screen_text(app)
        app.screen.query_one(CallList).move_to(task_row)
        await pilot.press("enter")  # enter on a call with nested calls folds it
        await pilot.pause()
        tools = [item.tool for item in rows(app) if isinstance(item, Call)]
        assert "Read" not in tools and "Edit" not in tools
        assert "▸ Task" in screen_text(app)
        await pilot.press("l")  # unfold
        await pilot.pause()
        assert "Read" in [item.tool for item in rows(app) if isinstance(item, Call)]
        await pilot.press("j", "h")  # on a nested call, h goes to the parent
        await pilot.pause()
        assert cursor_item(app).tool == "Task"


async def test_navigation_keys_move_the_cursor_and_the_detail_follows():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(cursor_item(app), Message)
        await pilot.press("j")
        assert cursor_item(app).tool == "get_weather"
        await pilot.press("down", "k")
        assert cursor_item(app).tool == "get_weather"
        await pilot.press("G")
        assert cursor_item(app) is rows(app)[-1]
        await pilot.press("g")
        assert cursor_item(app) is rows(app)[0]
        await pilot.press("pagedown")
        assert cursor_item(app) is rows(app)[-1]  # fewer rows than a page
        await pilot.press("pageup")
        assert cursor_item(app) is rows(app)[0]
        await pilot.press("j", "j")
        await pilot.pause()
        assert "web_search" in screen_text(app).split("───")[-1] or "fail1" in screen_text(app)


async def test_jump_keys_find_pending_failed_and_orphan_rows():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("p")
        assert cursor_item(app).call_id == "wait1"
        await pilot.press("p")
        assert cursor_item(app).call_id == "wait2"
        await pilot.press("e")  # wraps around to the first failed call
        assert cursor_item(app).call_id == "fail1"
        await pilot.press("e")
        assert cursor_item(app).call_id == "late1"  # timed out counts as failed
        await pilot.press("o")
        assert isinstance(cursor_item(app), OrphanResult)


async def test_jump_with_nothing_to_find_says_so():
    store = CallStore(clock=FakeClock(T0))
    store.ingest(request("a", ts=T0))
    store.ingest(result("a", ts=T0 + 1))
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause()
        assert any("No orphan result" in str(n.message) for n in app._notifications)


async def test_m_hides_and_shows_conversation_messages():
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert any(isinstance(item, Message) for item in rows(app))
        await pilot.press("m")
        await pilot.pause()
        assert not any(isinstance(item, Message) for item in rows(app))
        assert "Plan my evening" not in screen_text(app)
        await pilot.press("m")
        await pilot.pause()
        assert any(isinstance(item, Message) for item in rows(app))


async def test_session_strings_render_inert_in_the_list():
    app = make_app(nasty_store())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "[bold red]boom[/]" in text  # markup shown as typed, not applied
        assert "␛[31mred" in text  # escape shown as a visible stand-in
        for bad in ("\x1b", "\x07", "\x00", "\x08", "\u202e", "\u2066"):
            assert bad not in text
        assert "\\u202e" in text  # bidi override made visible
        assert all(len(line) <= SIZE[0] for line in text.splitlines())  # long lines cut to the width
        malformed = next(item for item in rows(app) if isinstance(item, Malformed))
        assert malformed.reason == NASTY["markup"]  # the data itself is untouched


async def test_a_burst_of_5000_calls_is_one_repaint_not_5000():
    clock = FakeClock(T0)
    store = CallStore(clock=clock)
    handled: list[CallsChanged] = []
    app = make_app(store, clock=clock)

    def hook(message) -> None:
        if isinstance(message, CallsChanged):
            handled.append(message)

    async with app.run_test(size=SIZE, message_hook=hook) as pilot:
        await pilot.pause()
        before = len(handled)
        for index in range(5000):
            store.ingest(request(f"c{index}", ts=T0 + index / 1000))
        await pilot.pause()
        assert len(rows(app)) == 5000
        assert len(handled) - before == 1  # the feed posts once per burst; the message replaces itself
        assert CallsChanged().can_replace(CallsChanged())


async def test_results_arriving_later_update_the_row_in_place():
    clock = FakeClock(T0)
    store = CallStore(clock=clock)
    store.ingest(request("a", ts=T0))
    app = make_app(store, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "pending" in screen_text(app)
        store.ingest(result("a", ts=T0 + 0.25))
        await wait_for(pilot, lambda: "250ms" in screen_text(app))  # repaints are throttled by a timer
        line = next(line for line in screen_text(app).splitlines() if "web_search" in line)
        assert "succeeded" in line and "250ms" in line


async def test_sample_store_has_every_kind_of_row():
    store = sample_store()
    kinds = {type(item).__name__ for item in store.items}
    assert kinds == {"Call", "Message", "OrphanResult", "Malformed"}


async def test_a_rebuild_while_a_loader_is_ahead_never_shows_a_row_twice():
    clock = FakeClock(T0)
    store = CallStore(clock=clock)
    app = make_app(store, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        store.ingest(request("a", ts=T0))
        screen = app.screen
        screen.view.rebuild(clock.now())  # e.g. a fold or a filter before the feed was drained
        await wait_for(
            pilot, lambda: screen.presenter.feed is not None and screen.presenter.feed.seen_top == 1
        )
        await pilot.pause()
        assert [item.call_id for item in rows(app)] == ["a"]


async def test_a_result_waiting_for_its_request_says_early_then_takes_the_requests_row():
    clock = FakeClock(T0)
    store = CallStore(clock=clock)
    store.ingest(result("r1", ts=T0))
    app = make_app(store, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert any("early" in line for line in screen_text(app).splitlines())
        store.ingest(request("r1", "get_weather", ts=T0))
        app.screen.post_message(CallsChanged())
        await pilot.pause()
        await pilot.pause()
        assert [type(item) for item in rows(app)] == [Call]
        assert not any("early" in line or "orphan" in line for line in screen_text(app).splitlines())
