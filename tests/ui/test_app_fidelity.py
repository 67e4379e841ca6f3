"""The app reads what the headless commands read (issue 20): a Claude Code session rewritten into its
own file, a Gemini CLI log without its header line, a Codex call whose arguments did not parse."""

from __future__ import annotations

import sys
from pathlib import Path

from screen_text import screen_text, wait_for
from ui_factories import SIZE, file_app

from inspector.model import Call, Marker
from inspector.ui.widgets.call_list import CallList

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "protocols"))
import test_claude_rewritten as rewritten  # noqa: E402
import test_codex_refused as refused  # noqa: E402
import test_detect_records as detection  # noqa: E402


def rows(app) -> list:
    return app.screen.query_one(CallList).view.items


async def test_a_rewritten_session_shows_each_call_once_under_its_marker(tmp_path):
    app = file_app([rewritten.rewritten(tmp_path, "whole, one time")])
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_for(pilot, lambda: not app.screen.has_class("-loading"))
        calls = [item.call_id for item in rows(app) if isinstance(item, Call)]
        assert calls == ["toolu_01Read", "toolu_01Bash", "toolu_01Grep", "toolu_01Edit", "toolu_02Bash"]
        assert [item.kind for item in rows(app) if isinstance(item, Marker)] == ["rewrite"]
        assert "session rewritten into its own file" in screen_text(app)
        assert "⚠" not in screen_text(app)  # no violation badge


async def test_a_gemini_log_without_its_header_opens(tmp_path):
    app = file_app([detection.headerless(tmp_path / "chats")])
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_for(pilot, lambda: not app.screen.has_class("-loading"))
        calls = {item.call_id: item for item in rows(app) if isinstance(item, Call)}
        assert set(calls) == {"ku16wmft", "r7p2xq0a"}
        assert "run_shell_command" in screen_text(app)


async def test_a_codex_call_refused_for_its_arguments_reads_failed(tmp_path):
    app = file_app([refused.rollout(tmp_path, refused.REFUSALS["display"])])
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_for(pilot, lambda: not app.screen.has_class("-loading"))
        assert await wait_for(pilot, lambda: "ls -la src" in screen_text(app))
        line = next(line for line in screen_text(app).splitlines() if "ls -la src" in line)
        assert "failed" in line and "ok" not in line.split("shell")[0]
        assert "failed 1" in screen_text(app)  # the status bar's count
