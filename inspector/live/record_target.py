"""Where ``--record`` may write: never into a file that is not a recording of the same room, never two
sessions under one header, and a place that cannot be written is refused before anything connects."""

from __future__ import annotations

import json
import os
import stat
from typing import Any

from inspector.live.errors import SetupError
from inspector.protocols.recording import FORMAT_ID, RecordingWriter
from inspector.userpath import open_binary


def _header(path: str) -> dict[str, Any] | None:
    """The recording header of ``path``, or None when its first line is not one."""
    try:
        with open_binary(path) as fh:
            first = fh.readline(64_000)
        value = json.loads(first)
    except (OSError, ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) and value.get("format") == FORMAT_ID else None


def _beside(path: str) -> str:
    stem, ext = os.path.splitext(path)
    number = 2
    while os.path.exists(f"{stem}-{number}{ext or '.jsonl'}"):
        number += 1
    return f"{stem}-{number}{ext or '.jsonl'}"


def choose(path: str, room: str, *, append: bool) -> tuple[str, str | None]:
    """The file to record into and, when it is not ``path``, a sentence saying why (raises SetupError)."""
    if os.path.isdir(path):
        raise SetupError(f"--record {path}: is a directory; give a file name inside it")
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return path, None
    except OSError as exc:
        raise SetupError(f"--record {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        return path, None  # a device or a pipe: tried as it is (/dev/full is refused when written)
    if os.path.getsize(path) == 0:
        return path, None
    header = _header(path)
    if header is None:
        raise SetupError(
            f"--record {path}: the file exists and is not an inspector recording; it is left alone "
            "(choose another path)"
        )
    if header.get("room") == room and append:
        return path, None
    new = _beside(path)
    why = "another room's recording" if header.get("room") != room else "a recording of an earlier session"
    hint = "" if header.get("room") != room else " (--append continues it)"
    return new, f"{path} is {why}{hint}: recording to {new} instead"


def open_writer(path: str, header: dict[str, Any]) -> RecordingWriter:
    """Open the recording and write its header now, so a place that cannot be written fails at start."""
    try:
        return RecordingWriter(path, header)
    except OSError as exc:
        raise SetupError(f"--record {path}: cannot write there ({exc.strerror or exc})") from None
