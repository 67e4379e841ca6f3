"""Without a terminal the UI is refused; when its terminal goes (SIGHUP, or a hang-up without one), it quits."""

from __future__ import annotations

import os
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "sample_sessions" / "demo.recording.jsonl"


def env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "INSPECTOR_CONFIG": str(tmp_path / "none.toml"),
        "INSPECTOR_DATA_DIR": str(tmp_path / "data"),
        "TERM": "xterm-256color",
    }


@pytest.mark.parametrize(
    ("args", "hint"),
    [([str(DEMO)], "inspector dump PATH"), ([], "inspector stats PATH"), (["demo"], "--no-ui")],
)
def test_with_no_terminal_the_ui_is_refused_with_what_to_use_instead(tmp_path, args, hint):
    proc = subprocess.run(
        [sys.executable, "-m", "inspector", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        env=env(tmp_path),
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""  # no escape codes drawn into a pipe
    assert "the UI needs a terminal" in proc.stderr and hint in proc.stderr
    assert proc.stderr.count("\n") == 1 and "\x1b" not in proc.stderr


def read_until(master: int, wanted: bytes, seconds: float) -> bytes:
    seen = b""
    deadline = time.monotonic() + seconds
    while wanted not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                seen += os.read(master, 65536)
            except OSError:
                break
    return seen


def wait_exit(proc: subprocess.Popen, seconds: float) -> int | None:
    try:
        return proc.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        return None


def test_the_app_quits_when_a_terminal_it_does_not_control_hangs_up(tmp_path):
    # a new session with the terminal as its streams but not its controlling terminal: no SIGHUP comes
    master, slave = os.openpty()
    os.set_blocking(master, True)
    import fcntl
    import struct
    import termios

    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    proc = subprocess.Popen(
        [sys.executable, "-m", "inspector", str(DEMO)],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        start_new_session=True,
        env=env(tmp_path),
    )
    os.close(slave)
    try:
        assert b"read_local_file" in read_until(master, b"read_local_file", 60)  # the UI is up
        os.close(master)  # the terminal goes
        code = wait_exit(proc, 20)
        assert code is not None, "the app kept running after its terminal was gone"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (CI installs it)")
def test_the_app_quits_on_sighup_when_its_tmux_window_is_killed(tmp_path):
    socket = f"inspector-hup-{os.getpid()}"
    pidfile = tmp_path / "pid"
    exports = " ".join(
        f"{k}='{v}'" for k, v in env(tmp_path).items() if k.startswith(("PYTHON", "INSPECTOR"))
    )
    line = f"echo $$ > {pidfile}; exec env {exports} {sys.executable} -m inspector {DEMO}"

    def tmux(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["tmux", "-L", socket, *args], capture_output=True, text=True, timeout=20)

    tmux("-f", "/dev/null", "new-session", "-d", "-s", "hup", "-x", "100", "-y", "30", "sh", "-c", line)
    try:
        deadline = time.monotonic() + 60
        while "read_local_file" not in tmux("capture-pane", "-p", "-t", "hup").stdout:
            assert time.monotonic() < deadline, "the UI never came up"
            time.sleep(0.1)
        pid = int(pidfile.read_text())
        os.kill(pid, signal.SIGHUP)  # what the terminal sends when it closes
        deadline = time.monotonic() + 20
        while _alive(pid):
            assert time.monotonic() < deadline, "the app ignored SIGHUP"
            time.sleep(0.1)
    finally:
        tmux("kill-server")


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            return fh.read().split(") ", 1)[1][0] != "Z"
    except (FileNotFoundError, IndexError):
        return False
