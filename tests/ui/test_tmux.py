"""The real ``inspector`` command in a real terminal (tmux): it starts, answers keys, and quits cleanly."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

DEMO = Path(__file__).resolve().parents[2] / "sample_sessions" / "demo.recording.jsonl"

pytestmark = [
    pytest.mark.skipif(
        shutil.which("tmux") is None, reason="tmux is not installed (CI installs it: apt-get install tmux)"
    ),
    pytest.mark.slow,
]


class Tmux:
    """One tmux server of our own (its own socket), so a person's tmux is never touched."""

    def __init__(self, tmp: Path) -> None:
        self.socket = f"inspector-test-{os.getpid()}"
        self.name = "inspector"
        self.tmp = tmp

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=20, check=check
        )

    def start(self, command: list[str], env: dict[str, str]) -> None:
        exports = " ".join(f"{k}={_quote(v)}" for k, v in env.items())
        line = f"env {exports} {' '.join(_quote(c) for c in command)}"
        self.run("-f", "/dev/null", "new-session", "-d", "-s", self.name, "-x", "120", "-y", "35", line)
        self.run("resize-window", "-t", self.name, "-x", "120", "-y", "35", check=False)

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", self.name, check=False).stdout

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", self.name, *keys)

    def wait_for(self, text: str, seconds: float = 20.0) -> str:
        deadline = time.monotonic() + seconds
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared; the screen was:\n{screen}")

    def wait_gone(self, text: str, seconds: float = 20.0) -> str:
        deadline = time.monotonic() + seconds
        screen = self.screen()
        while text in screen:
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} never went away; the screen was:\n{screen}")
            time.sleep(0.1)
            screen = self.screen()
        return screen

    def alive(self) -> bool:
        return self.run("has-session", "-t", self.name, check=False).returncode == 0

    def kill(self) -> None:
        self.run("kill-server", check=False)


def _quote(value: str) -> str:
    return "'" + value.replace("'", "'\\''") + "'"


def test_inspector_runs_in_a_real_terminal(tmp_path):
    tmux = Tmux(tmp_path)
    paged = tmp_path / "paged.json"
    env = {
        "INSPECTOR_CONFIG": str(tmp_path / "none.toml"),
        "INSPECTOR_CLAUDE_DIR": str(tmp_path),
        "TERM": "xterm-256color",
        "TZ": "UTC",
        "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
        "PAGER": f"sh -c 'cp \"$0\" {paged}'",
    }
    try:
        tmux.start([sys.executable, "-m", "inspector", str(DEMO)], env)
        screen = tmux.wait_for("get_weather")
        assert "book_table" in screen and "orphan" in screen
        tmux.keys("p")  # next pending call: its detail shows below
        screen = tmux.wait_for("send_sms  ")
        tmux.keys("P")  # the terminal is handed to $PAGER (here: a copy), then the app comes back
        deadline = time.monotonic() + 10
        while not paged.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert '"tool": "send_sms"' in paged.read_text()
        tmux.wait_for("get_weather")
        tmux.keys("?")
        tmux.wait_for("cursor-down")
        tmux.keys("Escape")  # a lone escape: wait for the help to close before the next key
        tmux.wait_gone("cursor-down")
        tmux.wait_for("get_weather")
        tmux.keys("q")
        deadline = time.monotonic() + 10
        while tmux.alive() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not tmux.alive(), "the inspector did not quit on q"
    finally:
        tmux.kill()
