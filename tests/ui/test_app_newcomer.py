"""What a newcomer tripped on in the app: help header, ctrl+c notice, the status bar at 120 columns, the filter."""

from __future__ import annotations

from pathlib import Path

from screen_text import screen_text, wait_for
from ui_factories import file_app, make_app

from inspector.ui.screens.help import HelpScreen
from inspector.ui.widgets.call_list import CallList
from inspector.ui.widgets.status_bar import StatusBar

SAMPLES = Path(__file__).resolve().parents[2] / "sample_sessions"
CLAUDE = SAMPLES / "claude" / "-home-dev-demo-app" / "5a3e0000-0000-4000-8000-000000000001.jsonl"
FILES = [CLAUDE, SAMPLES / "demo.recording.jsonl", SAMPLES / "rap.jsonl", SAMPLES / "lmkit.jsonl"]


def status(app) -> str:
    return str(app.screen.query_one(StatusBar).render())


async def test_the_help_header_names_the_config_table_as_typed():
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("question_mark")
        assert await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.pause()
        assert "id ([keys] in config)" in screen_text(app)


async def test_ctrl_c_says_how_to_quit_without_markup():
    app = make_app()
    async with app.run_test(size=(120, 34)) as pilot:
        await pilot.press("ctrl+c")
        await pilot.pause()
        said = [str(note.message) for note in app._notifications]
        assert any(text.startswith("Press ") and "to quit" in text for text in said), said
        assert not any("[b]" in text for text in said)


async def test_the_active_filter_always_shows_at_120_columns_with_several_files():
    app = file_app(FILES)
    async with app.run_test(size=(120, 34)) as pilot:
        assert await wait_for(pilot, lambda: not app.screen.has_class("-loading"))
        await pilot.press("slash", *"state:ok,failed,pending -tool:Bash", "enter")
        assert await wait_for(pilot, lambda: "filter state:ok,failed,pending -tool:Bash (" in status(app))
        line = status(app)
        assert "…" not in line.split("filter ", 1)[1]  # the filter part is whole, not cut off
        assert len(line) <= 120


async def test_an_empty_filter_clears_it_and_one_row_is_singular():
    app = make_app()
    async with app.run_test(size=(120, 34)) as pilot:
        await pilot.pause()
        everything = len(app.screen.query_one(CallList).view)
        await pilot.press("slash", *"id:fail1", "enter")
        assert await wait_for(pilot, lambda: "(1 row)" in status(app))
        await pilot.press("slash", "ctrl+u", "enter")
        assert await wait_for(pilot, lambda: "filter" not in status(app))
        assert len(app.screen.query_one(CallList).view) == everything


def test_fit_drops_the_least_important_part_first_and_shrinks_the_sources():
    from rich.text import Text

    from inspector.ui.widgets.status_bar import KEEP, SOURCES, fit

    parts = [Text("s" * 30), Text("ok 3"), Text("failed 2"), Text("filter x (1 row)")]
    priorities = [SOURCES, 2, 5, KEEP]
    assert fit(parts, priorities, 0).plain == "  ".join(p.plain for p in parts)
    line = fit(parts, priorities, 40).plain
    assert line == "s" * 11 + "…  failed 2  filter x (1 row)"
    assert fit(parts, priorities, 10).plain.startswith("s" * 11 + "…  filter x")  # the filter stays


def test_marked_shows_every_match_in_any_renderable_whatever_the_case():
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from inspector.ui.render.marks import MARK, Marked

    table = Table("key", "value")
    table.add_row("header", Text("X-Request-Id: 1", style="green"))
    table.add_row("other", "x-request-ID and x-request-id")
    console = Console(width=60, color_system=None)
    segments = list(console.render(Marked(table, ["x-request-id"])))
    marked = [s.text for s in segments if s.style is not None and s.style.reverse]
    assert marked == ["X-Request-Id", "x-request-ID", "x-request-id"]
    assert "".join(s.text for s in segments) == "".join(s.text for s in console.render(table))
    assert MARK.reverse


async def test_a_search_marks_its_text_in_the_detail():
    from inspector.ui.widgets.detail import DetailPane

    app = make_app()
    async with app.run_test(size=(120, 34)) as pilot:
        await pilot.pause()
        await pilot.press("slash", *'param:fail1 "ok1"', "enter")
        await pilot.pause()
        assert app.screen.query_one(DetailPane).marks == ("fail1", "ok1")
        await pilot.press("slash", "ctrl+u", "enter")
        await pilot.pause()
        assert app.screen.query_one(DetailPane).marks == ()


def long_store():
    from ui_factories import T0, request, result

    from inspector.model import CallStore, FakeClock

    store = CallStore(clock=FakeClock(T0 + 5))
    for index in range(3):
        store.ingest(
            request(f"c{index}", "Read", params={"text": "\n".join(f"line {n}" for n in range(300))})
        )
        store.ingest(result(f"c{index}", data="done"))
    return store


async def test_j_and_k_scroll_the_full_screen_detail_and_tab_brings_the_list_back():
    from inspector.ui.widgets.detail import DetailPane

    app = make_app(long_store())
    async with app.run_test(size=(120, 34)) as pilot:
        await pilot.pause()
        listing = app.screen.query_one(CallList)
        await pilot.press("enter")  # the full-screen detail of the first call
        await pilot.pause()
        detail = app.screen.query_one(DetailPane)
        assert app.screen.has_class("-detail-open") and detail.has_focus
        await pilot.press("j", "j", "j")
        assert await wait_for(pilot, lambda: detail.scroll_y == 3), detail.scroll_y
        await pilot.press("k")
        assert await wait_for(pilot, lambda: detail.scroll_y == 2), detail.scroll_y
        await pilot.press("G")  # the scroll to the end is animated: wait for it to arrive
        assert await wait_for(pilot, lambda: detail.scroll_y == detail.max_scroll_y > 100), detail.scroll_y
        await pilot.press("tab")
        await pilot.pause()
        assert not app.screen.has_class("-detail-open") and listing.has_focus  # the list shows again
        assert listing.item is listing.view.items[0]  # and it did not move


async def test_follow_keeps_the_cursor_on_the_newest_row_until_the_user_moves_it(tmp_path):
    demo = (SAMPLES / "demo.recording.jsonl").read_text().splitlines(keepends=True)
    path = tmp_path / "growing.recording.jsonl"
    path.write_text("".join(demo[:8]))
    app = file_app([path], follow=True)
    async with app.run_test(size=(120, 34)) as pilot:
        listing = app.screen.query_one(CallList)
        assert await wait_for(
            pilot, lambda: getattr(app.screen, "following", False) and len(listing.view) > 1
        )
        await pilot.pause()
        assert listing.item is listing.view.items[-1]  # on the newest row from the start
        with path.open("a") as fh:
            fh.write("".join(demo[8:14]))
        before = len(listing.view)
        assert await wait_for(pilot, lambda: len(listing.view) > before)
        await pilot.pause()
        assert listing.item is listing.view.items[-1]  # and it stays there as rows arrive
        await pilot.press("k")  # the user moves: the cursor stays where they put it
        chosen = listing.item
        with path.open("a") as fh:
            fh.write("".join(demo[14:]))
        grown = len(listing.view)
        assert await wait_for(pilot, lambda: len(listing.view) > grown)
        assert listing.item is chosen


async def test_a_folded_task_shows_how_many_calls_it_holds():
    app = file_app([CLAUDE])
    async with app.run_test(size=(120, 34)) as pilot:
        assert await wait_for(pilot, lambda: not app.screen.has_class("-loading"))
        listing = app.screen.query_one(CallList)
        task = next(i for i, item in enumerate(listing.view.items) if getattr(item, "tool", "") == "Task")
        listing.move_to(task)
        await pilot.press("h")  # fold it
        await pilot.pause()
        assert "▸ Task (2)" in screen_text(app)
        await pilot.press("l")
        await pilot.pause()
        assert "▾ Task" in screen_text(app) and "Task (2)" not in screen_text(app)


async def test_the_list_can_show_a_header_row_over_its_columns():
    from inspector.config import Config
    from inspector.ui.widgets.list_header import ListHeader

    app = make_app()
    async with app.run_test(size=(120, 34)) as pilot:
        await pilot.pause()
        assert "summary" not in screen_text(app).splitlines()[0]
        await pilot.press("H")
        await pilot.pause()
        header = screen_text(app).splitlines()[0]
        assert header.split() == ["time", "state", "took", "tool", "exec", "summary"]
        items = app.screen.call_list.view.items
        index, call = next((i, item) for i, item in enumerate(items) if hasattr(item, "tool"))
        row = screen_text(app).splitlines()[1 + index]
        assert row[header.index("tool") :].startswith(call.tool)  # the title stands over its column
        await pilot.press("H")
        await pilot.pause()
        assert not app.screen.query_one(ListHeader).has_class("-shown")
    shown = make_app(config=Config(list_header=True))
    async with shown.run_test(size=(120, 34)) as pilot:
        await pilot.pause()
        assert shown.screen.query_one(ListHeader).has_class("-shown")
