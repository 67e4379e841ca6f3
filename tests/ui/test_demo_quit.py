"""Quitting ``inspector demo --hub`` with a request pending: no traceback, and the demo's own words."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from test_tmux import Tmux

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (CI installs it)")


def test_quitting_the_hub_demo_with_a_request_pending_ends_every_task_and_leaves_no_recording(tmp_path):
    tmux = Tmux(tmp_path)
    tmux.socket += "-demo-quit"
    data = tmp_path / "xdg-data"
    env = {
        "INSPECTOR_CONFIG": str(tmp_path / "none.toml"),
        "INSPECTOR_DATA_DIR": str(tmp_path / "data"),
        "XDG_DATA_HOME": str(data),
        "TMPDIR": str(tmp_path / "tmp"),
        "TERM": "xterm-256color",
        "PYTHONPATH": str(ROOT),
        "PYTHONDEVMODE": "1",  # asyncio says so about every task left pending
    }
    (tmp_path / "tmp").mkdir()
    exports = " ".join(f"{k}='{v}'" for k, v in env.items())
    line = f"env {exports} {sys.executable} -m inspector demo --hub --speed 5; echo EXIT=$?; sleep 60"
    tmux.run(
        "-f", "/dev/null", "new-session", "-d", "-s", tmux.name, "-x", "150", "-y", "40", "sh", "-c", line
    )
    try:
        tmux.wait_for("get_battery", 90)  # the bridge asks the inspector (the assistant): it waits for us
        tmux.wait_for("pending", 30)
        tmux.keys("q")
        screen = tmux.wait_for("EXIT=", 60)
    finally:
        tmux.kill()
    assert "EXIT=0" in screen, screen
    for bad in ("Traceback", "Task was destroyed", "no running event loop", "was never awaited"):
        assert bad not in screen, screen
    assert "inspector live" not in screen and "inspector demo: recorded to " in screen, screen
    recorded = screen.split("inspector demo: recorded to ", 1)[1].split()[0]
    assert recorded.startswith(str(tmp_path / "tmp")) and os.path.getsize(recorded) > 0  # a temporary file
    assert not data.exists() or not any(data.rglob("*.jsonl"))  # nothing kept in the data directory
