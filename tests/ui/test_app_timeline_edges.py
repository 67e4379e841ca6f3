"""The timeline and the per-tool panel on what real sessions throw at them: nothing, no times, days,
a 40-column terminal, resizing, long MCP tool names."""

from __future__ import annotations

import pytest
from screen_text import screen_text, wait_for
from ui_factories import T0, make_app, request, result, sample_store

from inspector.model import CallStore, FakeClock
from inspector.ui.widgets.timeline import Timeline
from inspector.ui.widgets.tool_panel import ToolFiguresPanel

SIZE = (100, 24)


def store_of(calls: list[tuple[str, float | None, float | None]], now: float = T0 + 5) -> CallStore:
    """Calls (tool, request time, result time); a result time of None leaves the call pending."""
    store = CallStore(clock=FakeClock(now))
    for index, (tool, start, end) in enumerate(calls):
        store.ingest(request(f"c{index}", tool, ts=start, timeout_ms=None))
        if end is not None or start is None:
            store.ingest(result(f"c{index}", ts=end))
    return store


def lines(app) -> list[str]:
    return screen_text(app).splitlines()


async def test_an_empty_session_and_an_empty_filter_say_so():
    app = make_app(CallStore(clock=FakeClock(T0)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("w", "plus", "L", "z", "full_stop", "c")  # nothing to zoom: nothing breaks
        await pilot.pause()
        assert "no calls yet" in lines(app)[0]
    app = make_app(sample_store())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("w")
        app.screen.apply_filter("tool:no_such_tool")
        assert await wait_for(pilot, lambda: "no row matches the filter" in lines(app)[0])


async def test_records_without_times_still_list_their_calls():
    """LM-Kit and some RAP records carry no times: the rows are there, in order, without bars."""
    app = make_app(store_of([("get_weather", None, None), ("read_file", None, None)]))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("w")
        assert await wait_for(pilot, lambda: "no times" in lines(app)[0])
        text = lines(app)
        assert text[1].startswith("get_weather") and text[2].startswith("read_file")
        await pilot.press("j", "plus", "enter")
        await pilot.pause()
        assert app.screen.detail.item is app.screen.query_one(Timeline).item
    mixed = store_of([("timed", T0, T0 + 1), ("untimed", None, None)])
    app = make_app(mixed)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("w")
        assert await wait_for(pilot, lambda: "(no time)" in screen_text(app))
        assert "╵" in lines(app)[0]  # the timed call gives an axis


async def test_days_collapse_to_marked_gaps_with_distinct_ticks():
    day = 86400.0
    calls = [
        ("Bash", T0, T0 + 2),
        ("Bash", T0 + day, T0 + day + 5),
        ("Read", T0 + 3 * day, T0 + 3 * day + 60),
    ]
    app = make_app(store_of(calls, now=T0 + 3 * day + 100))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("w")
        assert await wait_for(pilot, lambda: "≈24h" in lines(app)[0])
        axis = lines(app)[0].split("│", 1)[1]
        assert "≈48h" in axis
        labels = [word for word in axis.replace("╵", " ").split() if word[0].isdigit()]
        assert len(labels) == len(set(labels))  # ticks seconds apart three days in: 72h00m30s, not 72h 72h
        await pilot.press("c")  # expanded: three days across the width
        assert await wait_for(pilot, lambda: "≈" not in lines(app)[0])
        assert "24h" in lines(app)[0]


async def test_forty_columns_and_resizing_keep_names_readable():
    app = make_app(sample_store())
    async with app.run_test(size=(40, 24)) as pilot:
        await pilot.pause()
        await pilot.press("w")
        await pilot.pause()
        timeline = app.screen.query_one(Timeline)
        assert any(line.startswith("get_weather") for line in lines(app))  # the name, not "ge… 400ms"
        assert all(len(line) <= 40 for line in lines(app))
        for size in ((200, 40), (20, 10), (40, 24)):
            await pilot.resize_terminal(*size)
            assert await wait_for(pilot, lambda size=size: timeline.size.width == size[0])
            assert timeline.scale is not None and 0 < timeline.scale.x(T0 + 4.8) <= timeline.area
        await pilot.press("plus", "plus", "H", "z")
        await pilot.pause()
        assert timeline.mode == "fit"


MCP = [
    ("mcp__server__very_long_tool_name", T0, T0 + 0.05),
    ("mcp__github__create_pull_request_review_comment", T0 + 1, T0 + 1.5),
    ("mcp__github__create_pull_request_review", T0 + 2, T0 + 4),
    ("Read", T0 + 3, T0 + 3.01),
]


@pytest.mark.parametrize("width", [80, 40])
async def test_the_figures_panel_fits_its_width_with_long_mcp_names(width):
    app = make_app(store_of(MCP))
    async with app.run_test(size=(width, 30)) as pilot:
        await pilot.pause()
        await pilot.press("s")
        panel = app.screen.query_one(ToolFiguresPanel)
        assert await wait_for(pilot, lambda: "calls" in screen_text(app))
        text = lines(app)
        top = next(i for i, line in enumerate(text) if line.strip().startswith("per tool"))
        rows = text[top + 2 : top + 6]
        assert panel.size.height == 6  # title, header, four tools: nothing wrapped
        assert len({row.split("  ")[0].strip() for row in rows}) == 4  # the names stay apart
        assert any("review_comment" in row or "comment" in row for row in rows)
        if width == 80:
            assert "<10ms" in text[top + 1]  # the sparkline's scale at 80 columns
        app.screen.apply_filter("tool:mcp__github*")
        assert await wait_for(pilot, lambda: "filter tool:mcp__github*" in screen_text(app))
        assert await wait_for(pilot, lambda: panel.size.height == 4)


TIMELINE_VARIABLES = {
    "tl-pending": "call-pending",
    "tl-overdue": "call-overdue",
    "tl-failed": "call-failed",
    "tl-deadline": "timeline-deadline",
    "tl-mark": "timeline-mark",
    "tl-gap": "timeline-gap",
    "tl-now": "timeline-now",
}


@pytest.mark.parametrize("theme", ["dark", "light", "high-contrast", "bare"])
async def test_every_theme_colours_the_timeline_and_a_bare_user_theme_inherits(theme, tmp_path):
    """The three themes set the timeline's variables; a user theme without them takes the light theme's."""
    from rich.color import Color

    from inspector.themes import load_theme
    from inspector.ui.options import UiOptions

    if theme == "bare":
        (tmp_path / "bare.toml").write_text('name = "bare"\ndark = false\n[colors]\nprimary = "#336699"\n')
        theme = str(tmp_path / "bare.toml")
    app = make_app(sample_store(), options=UiOptions(theme_dirs=[], theme=theme))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("w")
        await pilot.pause()
        styles = app.screen.query_one(Timeline).row_styles
        expected = (
            load_theme("light").variables if theme.endswith("bare.toml") else app.current_theme.variables
        )
        for style, variable in TIMELINE_VARIABLES.items():
            assert styles[style].color == Color.parse(expected[variable]), style
