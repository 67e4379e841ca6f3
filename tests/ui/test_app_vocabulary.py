"""One name per state: the status bar's figures, the filter that lists them, the help, the hint, the README."""

from __future__ import annotations

import re
from pathlib import Path

from screen_text import wait_for
from ui_factories import make_app

from inspector.model import State
from inspector.model.filter import parse_filter
from inspector.ui.screens.help import INTRO
from inspector.ui.screens.main import FILTER_HINT
from inspector.ui.widgets.call_list import CallList
from inspector.ui.widgets.status_bar import StatusBar

README = Path(__file__).resolve().parents[2] / "README.md"
NAMES = [state.value for state in State]


def matches(app) -> int:
    view = app.screen.query_one(CallList).view
    now = app.clock.now() if hasattr(app, "clock") else None
    return sum(1 for index in range(len(view)) if view.is_match(index, now))


async def test_every_figure_in_the_status_bar_is_what_its_filter_lists():
    app = make_app()  # one of everything, with an orphan result that says "error"
    async with app.run_test(size=(160, 34)) as pilot:
        await pilot.pause()
        line = str(app.screen.query_one(StatusBar).render())
        figures = dict(re.findall(r"\b([a-z_]+) (\d+)\b", line))
        assert figures.get("orphan") == "1" and "failed" in figures, line
        assert set(figures) - {"orphan", "malformed", "follow"} <= set(NAMES), line  # the states' own names
        for name, count in figures.items():
            if name in ("follow",):
                continue
            await pilot.press("slash", "ctrl+u", *f"state:{name}", "enter")
            assert await wait_for(
                pilot,
                lambda name=name: f"filter state:{name} (" in str(app.screen.query_one(StatusBar).render()),
            )
            assert matches(app) == int(count), (name, count, line)


def test_the_hint_the_help_and_the_readme_use_the_states_own_names_and_old_spellings_still_filter():
    for text in (FILTER_HINT, INTRO):
        words = set(re.findall(r"state:([a-z_,|]+)", text)[0].replace(",", "|").split("|"))
        assert "timeout" not in words and words & set(NAMES)
    assert "timed_out" in INTRO and "succeeded" in INTRO
    readme = README.read_text(encoding="utf-8")
    assert all(f"`{name}`" in readme for name in NAMES)
    for old, new in (
        ("timeout", "timed_out"),
        ("ok", "succeeded"),
        ("err", "failed"),
        ("cancelled", "canceled"),
    ):
        assert parse_filter(f"state:{old}").terms[0].values == parse_filter(f"state:{new}").terms[0].values
