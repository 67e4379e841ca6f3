"""The app shows a Workflow's agents under the Workflow call (Claude Code 2.1.16x), as the headless
commands do; tests/protocols/claude_workflows.py lays the session out."""

from __future__ import annotations

import sys
from pathlib import Path

from screen_text import screen_text, wait_for
from ui_factories import SIZE, file_app

from inspector.model import Call
from inspector.ui.widgets.call_list import CallList

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "protocols"))
import claude_workflows as wf  # noqa: E402


async def test_the_workflow_row_holds_its_agents_calls(tmp_path):
    app = file_app([wf.session(tmp_path)])
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_for(pilot, lambda: not app.screen.has_class("-loading"))
        view = app.screen.query_one(CallList).view
        calls = [
            (item, depth)
            for item, depth in zip(view.items, view.depths, strict=True)
            if isinstance(item, Call)
        ]
        at = next(i for i, (item, _) in enumerate(calls) if item.tool == "Workflow")
        under = [item.call_id for item, depth in calls[at + 1 :] if depth == 1]
        assert under[: len(wf.WORKFLOW_CALLS)] == wf.WORKFLOW_CALLS
        assert "▾ Workflow" in screen_text(app)
