"""``inspector FOLDER --follow``: a session file created in the folder after it was opened shows its calls
as they are written, and the app says it follows it (the files found at the open were the only ones)."""

from __future__ import annotations

from claude20_factory import claude_lines
from screen_text import wait_long as wait_for
from ui_factories import SIZE, file_app

from inspector.sources import feeds

FIRST = "aaaaaaaa-0000-4000-8000-000000000001"
LATER = "bbbbbbbb-0000-4000-8000-000000000002"


async def test_a_session_created_in_a_followed_folder_shows_its_calls(tmp_path, monkeypatch):
    monkeypatch.setattr(feeds, "FOLDER_POLL", 0.05)
    project = tmp_path / "-w"
    project.mkdir()
    (project / f"{FIRST}.jsonl").write_text(claude_lines(FIRST, range(2)))
    app = file_app([tmp_path], follow=True)
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_for(pilot, lambda: getattr(app.screen, "following", False))
        assert app.screen.store.call_count == 2
        later = project / f"{LATER}.jsonl"
        later.write_text(claude_lines(LATER, range(3)))
        assert await wait_for(pilot, lambda: app.screen.store.call_count == 5)
        notes = [n.message for n in app._notifications]
        assert any("New session file" in note and LATER in note for note in notes), notes
        with later.open("a") as fh:
            fh.write(claude_lines(LATER, range(3, 4)))
        assert await wait_for(pilot, lambda: app.screen.store.call_count == 6)
        await pilot.press("F")  # following off: the folder is no longer watched
        assert not app.screen.following
        (project / "cccccccc-0000-4000-8000-000000000003.jsonl").write_text(claude_lines("cccc", range(1)))
        await pilot.pause(0.3)
        assert app.screen.store.call_count == 6
