"""The session browser (``inspector`` with no path): never ~/.claude, always a folder the test gives."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from screen_text import screen_text
from screen_text import wait_long as wait_for
from textual.widgets import DataTable
from ui_factories import SIZE, browser_app

from inspector.ui.screens.browser import BrowserScreen
from inspector.ui.screens.main import MainScreen

SAMPLE_PROJECT = Path(__file__).resolve().parents[2] / "sample_sessions" / "claude"


async def test_the_browser_lists_sessions_and_enter_opens_one(tmp_path):
    shutil.copytree(SAMPLE_PROJECT, tmp_path / "projects")
    app = browser_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, BrowserScreen)
        assert await wait_for(pilot, lambda: bool(app.screen.sessions))
        # the rows are drawn on the next refresh after the listing (a loaded machine shows the frame between)
        assert await wait_for(
            pilot, lambda: "Fix the greeting, run the tests and tidy up." in screen_text(app)
        )
        text = screen_text(app)
        assert "/home/dev/demo/app" in text
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
        assert await wait_for(pilot, lambda: "No sessions under" in screen_text(app))  # drawn, not only set
        text = screen_text(app)
        assert f"No sessions under {tmp_path}" in text
        assert f"Claude Code sessions in {tmp_path}" in text  # it exists
        for agent in ("Codex", "Gemini"):  # they do not (the test points them at folders never made)
            assert f"{agent} sessions: no such folder " in text
        assert "--codex-dir DIR" in text and "--gemini-dir DIR" in text
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
        # the rows are known before they are painted: wait on the screen, not on the data
        assert await wait_for(
            pilot, lambda: "Empty Repo Setup: CLAUDE.md Foundation Created" in screen_text(app)
        )
        last = len(screen.sessions) - 1
        for key, row in (("G", last), ("g", 0), ("j", 1), ("j", 2), ("k", 1), ("end", last), ("home", 0)):
            await pilot.press(key)
            assert table.cursor_row == row, key
        await pilot.press("j", "enter")
        assert await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))


AGENTS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus"


@pytest.mark.skipif(not (AGENTS / "codex").is_dir(), reason="../shared/corpus/codex is not present")
async def test_codex_and_gemini_sessions_are_listed_beside_claude_code_and_open(tmp_path):
    """Rollouts in sessions/YYYY/MM/DD and Gemini chats in tmp/<project>/chats, as the CLIs keep them."""
    codex = tmp_path / "codex" / "2025" / "12" / "25"
    codex.mkdir(parents=True)
    shutil.copy(next((AGENTS / "codex").glob("0h-n0_*.jsonl")), codex / "rollout-2025-12-25T22-45-23-a.jsonl")
    chats = tmp_path / "gemini" / "myproject" / "chats"
    chats.mkdir(parents=True)
    shutil.copy(next((AGENTS / "gemini").glob("*chat_logs*.json")), chats / "session-2025-12-24T21-37-b.json")
    (chats / "notes.json").write_text("{}")  # not a session
    shutil.copytree(SAMPLE_PROJECT, tmp_path / "claude" / "projects")
    app = browser_app(tmp_path / "claude", tmp_path / "codex", tmp_path / "gemini")
    async with app.run_test(size=(200, 40)) as pilot:
        # the folders are scanned on their own: the sessions come in as each is done, then are drawn
        assert await wait_for(pilot, lambda: len(app.screen.sessions) >= 3)
        by_agent = {s.agent: s for s in app.screen.sessions}
        assert set(by_agent) == {"Claude Code", "Codex", "Gemini"}
        assert len(app.screen.sessions) == 3
        drawn = await wait_for(pilot, lambda: "local-voice-assistant-codex" in screen_text(app))
        # once seen not drawn in 30 s, on a loaded CI machine: say what the screen and the app held then
        assert drawn, (
            [(s.agent, s.project) for s in app.screen.sessions],
            app._exception,
            screen_text(app),
        )
        assert (
            by_agent["Codex"].tool_calls == 303 and by_agent["Codex"].project == "local-voice-assistant-codex"
        )
        assert by_agent["Gemini"].tool_calls == 78 and by_agent["Gemini"].project == "myproject"
        assert by_agent["Gemini"].title.startswith("install google antigravity")
        text = screen_text(app)
        assert f"Codex sessions in {tmp_path / 'codex'}" in text and "Gemini sessions in" in text
        assert "local-voice-assistant-codex" in text
        table = app.screen.query_one(DataTable)
        table.move_cursor(row=app.screen.sessions.index(by_agent["Gemini"]))
        await pilot.press("enter")
        assert await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
        assert await wait_for(pilot, lambda: not app.screen.has_class("-loading"))
        assert app.screen.store.call_count == 78
