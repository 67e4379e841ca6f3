"""An empty file in the app: a session with no calls yet; following it waits for its first records."""

from __future__ import annotations

from pathlib import Path

from screen_text import wait_for
from ui_factories import SIZE, file_app

from inspector.ui.widgets.call_list import CallList

DEMO = Path(__file__).resolve().parents[2] / "sample_sessions" / "demo.recording.jsonl"


async def test_follow_on_an_empty_file_waits_for_content_then_shows_it(tmp_path):
    path = tmp_path / "growing.jsonl"  # a name that says nothing: the first record decides the format
    path.write_bytes(b"")
    app = file_app([path], follow=True)
    rows = lambda: app.screen.query_one(CallList).view.items  # noqa: E731
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_for(pilot, lambda: getattr(app.screen, "following", False))
        assert rows() == []
        with path.open("a") as fh:
            fh.write("".join(DEMO.read_text().splitlines(keepends=True)[:12]))
        assert await wait_for(pilot, lambda: len(rows()) > 0)
