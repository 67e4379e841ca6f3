"""Run a live command in a child process, so a crash of the LiveKit core is reported instead of vanishing.

The SDK's Rust core ends the whole process when it panics (it signals itself, or aborts with exit 134).
The parent holds no SDK: it waits, forwards Ctrl+C / SIGTERM as SIGINT, and if the child dies by a
signal it did not forward (or with 134), it restores the terminal and says what happened and where the
recording so far is. The arguments (the API secret among them) travel through a pipe: never on a
command line that ``ps`` shows, nor in the child's environment (``ARGS_ENV`` holds only the pipe's fd).
The child asks the kernel for SIGINT when the parent dies (PR_SET_PDEATHSIG), so a ``kill -9`` of
``inspector live`` does not leave it behind in the room.
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
PARENT_ENV = "INSPECTOR_LIVE_PARENT"
_PAYLOAD_KEY = "\0payload"  # never reaches a real environment: supervise() takes it out
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
    payload = child_env.pop(_PAYLOAD_KEY, None)
    if payload is not None:
        read_fd, write_fd = os.pipe()
        child_env[ARGS_ENV] = f"fd:{read_fd}"
        child_env[PARENT_ENV] = str(os.getpid())
        proc = subprocess.Popen(command, env=child_env, pass_fds=(read_fd,))
        os.close(read_fd)
        with os.fdopen(write_fd, "w", encoding="utf-8") as pipe:
            try:
                pipe.write(payload)
            except BrokenPipeError:
                pass
    else:
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


_NATIVE_CRASH = {"SIGABRT", "SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE", "SIGTRAP"}


def crash_message(code: int, status: dict[str, Any]) -> str:
    """What to tell a person whose live session just died: what happened, as far as the exit says."""
    name = signal.Signals(-code).name if code < 0 and -code in signal.valid_signals() else ""
    if code == 134 or name in _NATIVE_CRASH:
        how = name or f"exit {code}"
        text = (
            f"inspector: the LiveKit core stopped ({how}). This is a crash inside the LiveKit SDK's native "
            "library, not something the room or your agent sent."
        )
    elif name == "SIGKILL":
        text = (
            "inspector: the live session was killed (SIGKILL): by another process, a `kill -9`, or the "
            "system's out-of-memory killer."
        )
    elif name:
        text = f"inspector: the live session was ended by a signal ({name}) that the inspector did not send."
    else:
        text = f"inspector: the live session ended unexpectedly (exit {code})."
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


SECRET_ENV = ("LIVEKIT_API_SECRET",)


def child_command(command: str, args: dict[str, Any]) -> tuple[list[str], dict[str, str]]:
    """The child's command line and environment for ``inspector <command>`` with ``args``.

    The arguments, with the API secret taken from the environment, go through ``supervise``'s pipe;
    the secret is taken out of the child's environment.
    """
    env = dict(os.environ)
    secret = {name: env.pop(name) for name in SECRET_ENV if name in env}
    payload = json.dumps({"command": command, "args": args, "env": secret})
    return [sys.executable, "-m", "inspector.cli.child"], {**env, _PAYLOAD_KEY: payload}


def read_payload() -> dict[str, Any]:
    """In the child: the arguments from the parent's pipe; also arrange to stop when the parent dies."""
    value = os.environ.get(ARGS_ENV, "")
    if value.startswith("fd:"):
        with os.fdopen(int(value[3:]), encoding="utf-8") as pipe:
            payload = json.loads(pipe.read())
    else:
        payload = json.loads(value)
    _die_with_parent()
    return payload if isinstance(payload, dict) else {}


def _die_with_parent() -> None:
    """SIGINT (a clean leave) when the supervisor dies, even by SIGKILL (Linux's PR_SET_PDEATHSIG)."""
    parent = os.environ.get(PARENT_ENV, "")
    if not sys.platform.startswith("linux") or not parent.isdigit():
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGINT), 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != int(parent):  # the parent died before the request took effect
        os.kill(os.getpid(), signal.SIGINT)
