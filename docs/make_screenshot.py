"""Regenerate docs/screenshot.svg: the inspector on the bundled sample sessions, Edit diff selected.

Run: ``python docs/make_screenshot.py``.
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

from inspector.model import Call, FakeClock
from inspector.ui.app import InspectorApp
from inspector.ui.options import UiOptions
from inspector.ui.widgets.call_list import CallList

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_sessions"
PATHS = [
    SAMPLES / "claude" / "-home-dev-demo-app" / "5a3e0000-0000-4000-8000-000000000001.jsonl",
    SAMPLES / "demo.recording.jsonl",
]


async def main() -> None:
    os.environ["TZ"] = "UTC"
    time.tzset()
    app = InspectorApp(UiOptions(paths=[str(p) for p in PATHS]), clock=FakeClock(1_793_527_215.0))
    async with app.run_test(size=(150, 44)) as pilot:
        await pilot.pause(0.5)
        call_list = app.screen.query_one(CallList)
        index = next(i for i, item in enumerate(call_list.view.items)
                     if isinstance(item, Call) and item.tool == "Edit")
        call_list.move_to(index)
        await pilot.pause(0.3)
        app.save_screenshot(filename="screenshot.svg", path=str(ROOT / "docs"))


if __name__ == "__main__":
    asyncio.run(main())
