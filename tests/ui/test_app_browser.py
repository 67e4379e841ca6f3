"""The session browser (``inspector`` with no path): never ~/.claude, always a folder the test gives."""

from __future__ import annotations

import shutil
from pathlib import Path

from screen_text import screen_text
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
        assert "-home-dev-demo-app" in text and "5a3e0000-0000-4000-8000-000000000001.jsonl" in text
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
