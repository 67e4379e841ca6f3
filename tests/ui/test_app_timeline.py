"""The timeline beside the list: switching, a shared cursor, zoom, pan, fit, follow, filter, figures."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from screen_text import screen_text
from ui_factories import T0, file_app, make_app, request, result, sample_store

from inspector.config import Config
from inspector.model import Call, CallStore, FakeClock
from inspector.ui.options import UiOptions
from inspector.ui.widgets.call_list import CallList
from inspector.ui.widgets.call_rows import CallRows
from inspector.ui.widgets.timeline import Timeline

SNAP_SIZE = (110, 32)
DEMO = Path(__file__).resolve().parents[2] / "sample_sessions" / "demo.recording.jsonl"
CLAUDE_TEAM = "claude/daaain-real_projects/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl"
"""Three subagents (alice, bob, carol) started within 22 s of each other, each minutes long, then idle gaps."""
TEAM_KEYS = ("j",) * 15 + ("h", "j", "h", "j", "j", "j", "j")
"""From the first row: the first two Agents folded, the third open, the cursor on its third call."""


@pytest.fixture(autouse=True)
def utc(monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def parts(app) -> tuple[CallList, Timeline]:
    return app.screen.query_one(CallList), app.screen.query_one(Timeline)


async def test_the_list_and_the_timeline_are_siblings_each_query_finds_its_own():
    """A query for the list never finds the timeline, whatever the order they are composed in."""
    app = make_app(sample_store())
    async with app.run_test(size=SNAP_SIZE) as pilot:
        await pilot.pause()
        lists, timelines = app.screen.query(CallList), app.screen.query(Timeline)
        assert [w.id for w in lists] == ["calls"] and [w.id for w in timelines] == ["timeline"]
        assert not isinstance(timelines.first(), CallList) and not isinstance(lists.first(), Timeline)
        assert [w.id for w in app.screen.query(CallRows)] == ["calls", "timeline"]


async def test_a_click_on_a_bar_selects_its_row_and_a_click_on_the_axis_selects_none():
    """The axis is the timeline's first line: a bar's row is the line clicked less one (the list's
    click handler ran after the timeline's when the timeline was a CallList, and took the row below)."""
    app = make_app(sample_store())
    async with app.run_test(size=SNAP_SIZE) as pilot:
        await pilot.pause()
        call_list, timeline = parts(app)
        await pilot.press("w")
        await pilot.pause()
        await pilot.click(Timeline, offset=(50, 3))
        await pilot.pause()
        assert timeline.cursor == 2 and call_list.item is timeline.item is timeline.view.items[2]
        await pilot.click(Timeline, offset=(50, 0))
        await pilot.pause()
        assert timeline.cursor == 2
        await pilot.resize_terminal(100, 12)  # the axis stays counted in the scrollable height
        await pilot.pause()
        assert timeline.virtual_size.height == len(timeline.view) + 1
        await pilot.press("G")
        await pilot.pause()
        line = timeline.cursor - round(timeline.scroll_y) + Timeline.HEAD  # the last row's line, shown
        assert timeline.item is timeline.view.items[-1] and line < timeline.scrollable_content_region.height


async def test_w_cycles_list_timeline_split_and_the_cursor_is_shared():
    app = make_app(sample_store())
    async with app.run_test(size=SNAP_SIZE) as pilot:
        await pilot.pause()
        call_list, timeline = parts(app)
        await pilot.press("j", "j")
        selected = call_list.item
        await pilot.press("w")
        await pilot.pause()
        assert timeline.display and not call_list.display and timeline.has_focus
        assert timeline.item is selected and "time from first call" in screen_text(app)
        await pilot.press("j")
        await pilot.pause()
        assert call_list.item is timeline.item is not selected  # the list follows the timeline
        assert app.screen.detail.item is timeline.item
        await pilot.press("w")
        await pilot.pause()
        assert timeline.display and call_list.display  # split
        await pilot.press("w")
        await pilot.pause()
        assert call_list.display and not timeline.display and call_list.has_focus
        assert call_list.item is timeline.item


async def test_enter_in_the_timeline_opens_the_detail():
    app = make_app(sample_store())
    async with app.run_test(size=SNAP_SIZE) as pilot:
        await pilot.pause()
        await pilot.press("w", "j")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.has_class("-detail-open")
        _, timeline = parts(app)
        await pilot.press("escape")  # back from the detail: to the timeline, not to the hidden list
        await pilot.pause()
        assert timeline.has_focus and timeline.display
        await pilot.press("slash", *"tool:web", "enter")
        await pilot.pause()
        assert timeline.has_focus and len(timeline.view) < 12


async def test_zoom_pan_fit_and_plus_is_still_the_replay_speed_in_the_list():
    app = make_app(sample_store())
    async with app.run_test(size=SNAP_SIZE) as pilot:
        await pilot.pause()
        call_list, timeline = parts(app)
        await pilot.press("plus")  # the list has focus: + is a screen key (replay speed), no zoom
        await pilot.press("w")
        await pilot.pause()
        fitted = timeline.scale
        await pilot.press("plus")
        await pilot.pause()
        assert timeline.mode == "manual" and timeline.scale.per_cell == pytest.approx(fitted.per_cell / 2)
        await pilot.press("greater_than_sign", "minus", "less_than_sign")
        await pilot.pause()
        assert timeline.scale.per_cell == pytest.approx(fitted.per_cell)
        start = timeline.scale.start
        await pilot.press("L")
        await pilot.pause()
        assert timeline.scale.start > start
        await pilot.press("H", "H")
        await pilot.pause()
        assert timeline.scale.start < start
        await pilot.press("z")
        await pilot.pause()
        assert timeline.mode == "fit" and timeline.scale == fitted
        await pilot.press("full_stop")
        await pilot.pause()
        assert timeline.mode == "follow"
        assert timeline.scale.x(app.now) == pytest.approx(timeline.area * 0.9)


async def test_the_filter_applies_to_the_timeline():
    app = make_app(sample_store())
    async with app.run_test(size=SNAP_SIZE) as pilot:
        await pilot.pause()
        await pilot.press("w")
        await pilot.pause()
        app.screen.apply_filter("tool:web_search")
        await pilot.pause()
        _, timeline = parts(app)
        assert [item.tool for item in timeline.view.items if isinstance(item, Call)] == ["web_search"]
        text = screen_text(app)
        assert "web_search" in text and "get_weather" not in text.split("───")[0]


async def test_pending_bars_grow_with_the_clock_and_turn_overdue():
    store = sample_store()
    app = make_app(store)
    async with app.run_test(size=SNAP_SIZE) as pilot:
        await pilot.pause()
        await pilot.press("w")
        _, timeline = parts(app)
        index = next(
            i for i, item in enumerate(timeline.view.items) if getattr(item, "call_id", "") == "wait1"
        )
        call = timeline.view.items[index]
        before = timeline._bar_strip(index, 110, timeline.scale, timeline.row_styles)
        store.clock.advance(60)
        app.tick()
        await pilot.pause()
        after = timeline._bar_strip(index, 110, timeline.scale, timeline.row_styles)
        assert call.state(app.now).value == "overdue"
        bar_style = timeline.row_styles["tl-overdue"]
        assert any(seg.style == bar_style for seg in after if set(seg.text) & set("█▏▎▍▌▋▊▉"))
        assert before.text != after.text


async def test_figures_panel_follows_the_filter():
    app = make_app(sample_store())
    async with app.run_test(size=SNAP_SIZE) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        assert "calls not ok" in screen_text(app) and "get_weather" in screen_text(app)
        app.screen.apply_filter("tool:web_search")
        await pilot.pause()
        text = screen_text(app)
        assert "filter tool:web_search" in text


async def test_the_timeline_key_is_remappable():
    app = make_app(sample_store(), config=Config(keys={"timeline": "v"}))
    async with app.run_test(size=SNAP_SIZE) as pilot:
        await pilot.pause()
        call_list, timeline = parts(app)
        await pilot.press("w")
        await pilot.pause()
        assert not timeline.display
        await pilot.press("v")
        await pilot.pause()
        assert timeline.display and not call_list.display


async def test_in_a_replay_the_timeline_follows_the_replay_clock():
    clock = FakeClock(T0)
    app = file_app([DEMO], clock=clock, replay=True)
    async with app.run_test(size=SNAP_SIZE) as pilot:
        for _ in range(100):
            await pilot.pause(0.02)
            if app.screen.replay is not None:
                break
        control = app.screen.replay
        await pilot.press("w")
        clock.advance(5)
        for _ in range(100):
            await pilot.pause(0.02)
            if len(parts(app)[1].view):
                break
        await pilot.press("space")  # pause: the replay clock stands still
        app.tick()
        await pilot.pause()
        _, timeline = parts(app)
        assert timeline.now == control.clock.now() == app.now
        extent = timeline._extent
        assert extent is not None and timeline.scale is not None
        assert extent[0] <= timeline.now  # the replay's present, not the wall clock's
        assert 0 <= timeline.scale.x(timeline.now) <= timeline.area  # fit all keeps the replay's now in view
        assert "▼" in screen_text(app).splitlines()[0]


def away_store() -> CallStore:
    """Two bursts of calls an hour apart (a person away from the keyboard)."""
    store = CallStore(clock=FakeClock(T0 + 3700))
    for index, start in enumerate((0, 2, 3600, 3603)):
        store.ingest(request(f"c{index}", "Bash", ts=T0 + start, timeout_ms=None))
        store.ingest(result(f"c{index}", ts=T0 + start + 1.5))
    return store


async def test_an_hour_away_collapses_to_a_marked_gap_and_c_expands_it():
    app = make_app(away_store())
    async with app.run_test(size=SNAP_SIZE) as pilot:
        await pilot.pause()
        await pilot.press("w")
        await pilot.pause()
        _, timeline = parts(app)
        axis = screen_text(app).splitlines()[0]
        assert "≈1h" in axis  # the gap says how long it was
        first, last = timeline.view.items[0], timeline.view.items[-1]
        collapsed = timeline.scale.x(last.request.ts) - timeline.scale.x(first.request.ts)
        assert collapsed > timeline.area / 2  # the bursts are drawn wide, not squeezed to the edges
        await pilot.press("c")
        await pilot.pause()
        assert "≈1h" not in screen_text(app).splitlines()[0]
        expanded = timeline.scale
        assert expanded.x(first.result.ts) - expanded.x(first.request.ts) < 1  # 1.5 s of an hour: a sliver
        await pilot.press("c")
        await pilot.pause()
        assert "≈1h" in screen_text(app).splitlines()[0]


async def test_a_user_theme_colours_the_timeline(tmp_path):
    from rich.color import Color

    text = (Path(__file__).resolve().parents[2] / "themes" / "dark.toml").read_text(encoding="utf-8")
    text = text.replace('timeline-deadline = "#ffa657"', 'timeline-deadline = "#123456"')
    (tmp_path / "mine.toml").write_text(
        text.replace('name = "inspector-dark"', 'name = "mine"'), encoding="utf-8"
    )
    app = make_app(sample_store(), options=UiOptions(theme_dirs=[], theme=str(tmp_path / "mine.toml")))
    async with app.run_test(size=SNAP_SIZE) as pilot:
        await pilot.pause()
        await pilot.press("w")
        await pilot.pause()
        _, timeline = parts(app)
        assert timeline.row_styles["tl-deadline"].color == Color.parse("#123456")
        assert timeline.row_styles["tl-pending"].color == Color.parse(
            app.current_theme.variables["call-pending"]
        )


def theme(name: str) -> UiOptions:
    return UiOptions(theme_dirs=[], theme=name)


def timeline_view(*keys: str):
    async def run_before(pilot) -> None:
        await pilot.pause()
        await pilot.press("w", *keys)
        await pilot.pause()

    return run_before


@pytest.mark.parametrize("name", ["light", "dark"])
def test_snapshot_zoomed_in(snap_compare, name):
    app = make_app(sample_store(), options=theme(name))
    assert snap_compare(app, terminal_size=SNAP_SIZE, run_before=timeline_view("j", "j", "j", "plus", "plus"))


def test_snapshot_claude_code_parallel_subagents_light(snap_compare, corpus):
    app = file_app([corpus / CLAUDE_TEAM], theme="light")
    assert snap_compare(app, terminal_size=SNAP_SIZE, run_before=timeline_view(*TEAM_KEYS))


def test_snapshot_claude_code_parallel_subagents_dark(snap_compare, corpus):
    app = file_app([corpus / CLAUDE_TEAM], theme="dark")
    assert snap_compare(app, terminal_size=SNAP_SIZE, run_before=timeline_view(*TEAM_KEYS))
