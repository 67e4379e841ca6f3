"""Read a settings file (config, theme, answer rules, hub tools) only if it is a regular file of a sane
size, and parse its TOML whatever its nesting."""

from __future__ import annotations

import errno
import os
import sys
from typing import Any

from inspector.userpath import open_fd

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

MAX_SETTINGS_BYTES = 1024 * 1024


class NotASettingsFile(OSError):
    """A path that is not a regular file (a FIFO, a device, /dev/stdin) or is too large to be settings."""


def read_settings_bytes(path: str, limit: int = MAX_SETTINGS_BYTES) -> bytes:
    """The bytes of ``path``; raises ``OSError`` (``NotASettingsFile`` with a reason a person reads).

    Never blocks and never reads more than ``limit`` + 1 bytes: the path is opened as
    :func:`inspector.userpath.open_fd` opens it (a FIFO, ``/dev/zero`` or a folder is refused, not read).
    """
    fd, info = open_fd(path)
    try:
        _check(info, path, limit)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > limit:
        raise NotASettingsFile(errno.EFBIG, f"larger than {limit // 1024} KB", path)
    return b"".join(chunks)


def _check(info: os.stat_result, path: str, limit: int) -> None:
    if info.st_size > limit:
        raise NotASettingsFile(errno.EFBIG, f"larger than {limit // 1024} KB", path)


def loads_toml(text: str) -> dict[str, Any]:
    """``tomllib.loads``, a document nested past the parser's depth being a ``TOMLDecodeError`` like any
    other mistake in it (the parser recurses: ``x = [[[...`` 100,000 deep raised RecursionError, a
    traceback from a config, theme, rules or tools file)."""
    try:
        document: dict[str, Any] = tomllib.loads(text)  # typed where tomli, for Python 3.10, is absent
    except RecursionError:
        raise tomllib.TOMLDecodeError("arrays or inline tables nested too deeply") from None
    return document
