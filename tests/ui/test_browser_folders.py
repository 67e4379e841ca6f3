"""The session browser and folders (sources.folders): a Claude Code ``<session>/subagents/`` folder whose
session file is missing is a row of its own, and enter opens its agents' calls, saying why they stand alone.
Built in a temporary folder from a real session's subagent (tests/fixtures/real)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from claude20_factory import GONE_1, write_20_agent
from screen_text import screen_text
from screen_text import wait_long as wait_for
from ui_factories import SIZE, T0, browser_app

from inspector.config import Config
from inspector.model import FakeClock
from inspector.ui.app import InspectorApp
from inspector.ui.options import UiOptions
from inspector.ui.screens.browser import BrowserScreen
from inspector.ui.screens.main import MainScreen

XU = Path(__file__).resolve().parents[1] / "fixtures" / "real" / "Xu-Wentao_dotfile"
ORPHANED = "f7881aa9-f93e-41b6-94a1-fde7ddb9485f"  # its subagent ran 7 calls
KEPT = "72924ef0-ff51-47d2-8fc6-a5f2ff3f9ff6"  # 5 calls


async def test_subagents_whose_session_is_missing_are_a_row_that_opens_them(tmp_path):
    project = tmp_path / "projects" / "-Users-xuwentao"
    project.mkdir(parents=True)
    shutil.copy(XU / f"{KEPT}.jsonl", project)
    shutil.copytree(XU / ORPHANED, project / ORPHANED)
    os.utime(project / f"{KEPT}.jsonl", (1_000_000_000, 1_000_000_000))  # the orphaned agents are newest
    app = browser_app(tmp_path, codex=tmp_path / "no", gemini=tmp_path / "no")
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, BrowserScreen)
        assert await wait_for(pilot, lambda: len(app.screen.sessions) == 2)
        # the column is narrow on the test's screen; the rows are drawn on a refresh after the listing
        assert await wait_for(pilot, lambda: "subagents of session" in screen_text(app))
        [row] = [info for info in app.screen.sessions if info.tool_calls == 7]
        assert ORPHANED in row.title and "missing" in row.title and row is app.screen.sessions[0]
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
        assert await wait_for(pilot, lambda: not app.screen.has_class("-loading"))
        assert app.screen.store.call_count == 7
        notes = [n.message for n in app._notifications]
        assert any(ORPHANED in note and "missing" in note for note in notes), notes


async def test_a_folder_opened_from_the_command_line_says_what_opening_it_found(tmp_path):
    """``inspector FOLDER``: what the open found (ui_cmd hands it over) is said under "Opening", not as a
    setting, and the orphaned agent's calls are in the list beside the session's."""
    from inspector.sources.files import open_paths

    project = tmp_path / "-Users-xuwentao"
    project.mkdir()
    shutil.copy(XU / f"{KEPT}.jsonl", project)
    shutil.copytree(XU / ORPHANED, project / ORPHANED)
    notes: list[str] = []
    open_paths([str(project)], None, [], notes)
    options = UiOptions(theme_dirs=[], paths=[str(project)], opening=notes)
    app = InspectorApp(options, clock=FakeClock(T0), config=Config())
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
        assert await wait_for(pilot, lambda: not app.screen.has_class("-loading"))
        assert app.screen.store.call_count == 5 + 7
        said = [(n.title, n.message) for n in app._notifications]
        assert any(title == "Opening" and ORPHANED in text and "missing" in text for title, text in said), (
            said
        )


async def test_2_0_subagent_files_whose_session_is_missing_are_a_row_that_opens_them(tmp_path):
    """Claude Code 2.0.x subagent files beside the sessions (agent-*.jsonl) of a session that is gone: one
    row for them, marked, that enter opens (all of them), saying why they stand alone."""
    project = tmp_path / "projects" / "-Users-xuwentao"
    project.mkdir(parents=True)
    shutil.copy(XU / f"{KEPT}.jsonl", project)
    write_20_agent(project / "agent-a0000001.jsonl", GONE_1, "a0000001", 2)
    write_20_agent(project / "agent-a0000002.jsonl", GONE_1, "a0000002", 1)
    os.utime(project / f"{KEPT}.jsonl", (1_000_000_000, 1_000_000_000))  # the agents are newest
    app = browser_app(tmp_path, codex=tmp_path / "no", gemini=tmp_path / "no")
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, BrowserScreen)
        assert await wait_for(pilot, lambda: len(app.screen.sessions) == 2)
        row = app.screen.sessions[0]
        assert row.tool_calls == 3 and GONE_1 in row.title and "missing" in row.title
        assert await wait_for(pilot, lambda: "subagent file" in screen_text(app))
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
        assert await wait_for(pilot, lambda: not app.screen.has_class("-loading"))
        assert app.screen.store.call_count == 3
        notes = [n.message for n in app._notifications]
        assert any(GONE_1 in note and "missing" in note for note in notes), notes
