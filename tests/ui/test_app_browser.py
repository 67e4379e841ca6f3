"""The session browser (``inspector`` with no path): never ~/.claude, always a folder the test gives."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from screen_text import screen_text
from textual.widgets import DataTable
from ui_factories import SIZE, T0

from inspector.config import Config
from inspector.model import FakeClock
from inspector.ui.app import InspectorApp
from inspector.ui.options import UiOptions
from inspector.ui.screens.browser import BrowserScreen
from inspector.ui.screens.main import MainScreen

SAMPLE_PROJECT = Path(__file__).resolve().parents[2] / "sample_sessions" / "claude"


def browser_app(folder: Path) -> InspectorApp:
    return InspectorApp(
        UiOptions(theme_dirs=[], claude_dir=str(folder)), clock=FakeClock(T0), config=Config()
    )


async def wait_for(pilot, condition) -> bool:
    for _ in range(100):
        if condition():
            await pilot.pause()  # let the layout catch up before the screen is read
            return True
        await pilot.pause(0.05)
    return False


async def test_the_browser_lists_sessions_and_enter_opens_one(tmp_path):
    shutil.copytree(SAMPLE_PROJECT, tmp_path / "projects")
    app = browser_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, BrowserScreen)
        assert await wait_for(pilot, lambda: bool(app.screen.sessions))
        text = screen_text(app)
        assert "-home-dev-demo-app" in text and "Fix the greeting, run the tests and tidy up." in text
        assert str(tmp_path / "projects") in text
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
        assert await wait_for(pilot, lambda: not app.screen.has_class("-loading"))
        assert app.screen.store.call_count > 0
        await pilot.press("escape")
        assert await wait_for(pilot, lambda: isinstance(app.screen, BrowserScreen))


async def test_an_empty_folder_says_so_and_shows_how_to_open_a_file_or_join_a_room(tmp_path):
    app = browser_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_for(pilot, lambda: app.screen.has_class("-empty"))
        text = screen_text(app)
        assert f"No Claude Code sessions under {tmp_path}" in text
        assert "inspector PATH..." in text and "inspector live" in text
        assert not app._notifications  # nothing went wrong


CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus" / "claude"


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus/claude is not present")
async def test_the_browser_shows_nested_counts_and_titles_and_moves_like_the_list():
    app = browser_app(CORPUS)
    async with app.run_test(size=(200, 40)) as pilot:
        assert await wait_for(pilot, lambda: bool(app.screen.sessions))
        screen = app.screen
        table = screen.query_one(DataTable)
        rows = {Path(s.path).name[:8]: i for i, s in enumerate(screen.sessions)}
        deep = table.get_row_at(rows["a7da6a22"])
        assert "123" in [str(cell) for cell in deep]  # 108 in the session file + 15 in its agent file
        assert "Claude Code CLI Tool Development Summary" in [str(cell) for cell in deep]
        assert "Empty Repo Setup: CLAUDE.md Foundation Created" in screen_text(app)
        last = len(screen.sessions) - 1
        for key, row in (("G", last), ("g", 0), ("j", 1), ("j", 2), ("k", 1), ("end", last), ("home", 0)):
            await pilot.press(key)
            assert table.cursor_row == row, key
        await pilot.press("j", "enter")
        assert await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
