"""Read a settings file (config, theme, answer rules) only if it is a regular file of a sane size."""

from __future__ import annotations

import errno
import os
import stat

MAX_SETTINGS_BYTES = 1024 * 1024


class NotASettingsFile(OSError):
    """A path that is not a regular file (a FIFO, a device, /dev/stdin) or is too large to be settings."""


def read_settings_bytes(path: str, limit: int = MAX_SETTINGS_BYTES) -> bytes:
    """The bytes of ``path``; raises ``OSError`` (``NotASettingsFile`` with a reason a person reads).

    Never blocks (a FIFO is refused before it is opened, and opened without blocking if it appears
    in between) and never reads more than ``limit`` + 1 bytes (``/dev/zero`` is refused, not read).
    """
    info = os.stat(path)
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, "is a folder", path)
    _check(info, path, limit)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        _check(os.fstat(fd), path, limit)
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
    if not stat.S_ISREG(info.st_mode):
        raise NotASettingsFile(errno.EINVAL, "not a regular file", path)
    if info.st_size > limit:
        raise NotASettingsFile(errno.EFBIG, f"larger than {limit // 1024} KB", path)
