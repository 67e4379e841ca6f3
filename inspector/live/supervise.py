"""Run a live command in a child process, so a crash of the LiveKit core is reported instead of vanishing.

The SDK's Rust core ends the whole process when it panics (it signals itself, or aborts with exit 134).
The parent holds no SDK: it waits, forwards Ctrl+C / SIGTERM as SIGINT, and if the child dies by a
signal it did not forward (or with 134), it restores the terminal and says what happened and where the
recording so far is. The arguments travel by environment (JSON), never on a command line that ``ps``
would show.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
from typing import Any, TextIO

ARGS_ENV = "INSPECTOR_LIVE_ARGS"
STATUS_ENV = "INSPECTOR_LIVE_STATUS"
EXIT_CRASH = 3
_RESET_TERMINAL = "\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?2004l\x1b[0m\x1b[?25h\x1b[?1049l"


def supervised() -> bool:
    """True inside the child (the work happens here, without another level of supervision)."""
    return ARGS_ENV in os.environ


def note_status(**fields: Any) -> None:
    """Tell the parent something it should repeat after a crash (e.g. ``recording=path``)."""
    path = os.environ.get(STATUS_ENV)
    if not path:
        return
    try:
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(fields, fh)
    except OSError:
        pass


def supervise(command: list[str], env: dict[str, str] | None = None, *, err: TextIO | None = None) -> int:
    """Run ``command`` (a child that may crash) and return its exit code, or 3 after reporting a crash."""
    err = err or sys.stderr
    fd, status_path = tempfile.mkstemp(prefix="inspector-live-", suffix=".json")
    os.close(fd)
    child_env = {**(env if env is not None else os.environ), STATUS_ENV: status_path}
    saved_tty = _save_tty()
    forwarded = False
    proc = subprocess.Popen(command, env=child_env)

    def forward(signum: int, frame: object) -> None:
        nonlocal forwarded
        forwarded = True
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)

    previous = {sig: signal.signal(sig, forward) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        code = proc.wait()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        status = _read_status(status_path)
    crashed = (code < 0 and not (forwarded and -code in (signal.SIGINT, signal.SIGTERM))) or code == 134
    if not crashed:
        return 130 if code == -signal.SIGINT else code
    _restore_tty(saved_tty)
    err.write(crash_message(code, status) + "\n")
    err.flush()
    return EXIT_CRASH


def crash_message(code: int, status: dict[str, Any]) -> str:
    """What to tell a person whose live session just died in the SDK."""
    how = (
        f"signal {signal.Signals(-code).name}"
        if code < 0 and -code in signal.valid_signals()
        else f"exit {code}"
    )
    text = (
        f"inspector: the LiveKit core stopped ({how}). This is a crash inside the LiveKit SDK's native "
        "library, not something the room or your agent sent."
    )
    recording = status.get("recording")
    if isinstance(recording, str) and recording:
        text += f" The recording so far is at {recording} (open it with: inspector open {recording})."
    return text


def _read_status(path: str) -> dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as fh:
            value = json.load(fh)
    except (OSError, ValueError):
        value = {}
    finally:
        try:
            os.unlink(path)
        except OSError:
            pass
    return value if isinstance(value, dict) else {}


def _save_tty() -> Any:
    if not sys.stdin.isatty():
        return None
    try:
        import termios

        return termios.tcgetattr(sys.stdin.fileno())
    except (ImportError, OSError):
        return None


def _restore_tty(saved: Any) -> None:
    if saved is not None:
        try:
            import termios

            termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, saved)
        except (ImportError, OSError):
            pass
    if sys.stdout.isatty():
        sys.stdout.write(_RESET_TERMINAL)
        sys.stdout.flush()


def child_command(command: str, args: dict[str, Any]) -> tuple[list[str], dict[str, str]]:
    """The child's command line and environment for ``inspector <command>`` with ``args``."""
    payload = json.dumps({"command": command, "args": args})
    return [sys.executable, "-m", "inspector.live.child"], {**os.environ, ARGS_ENV: payload}
