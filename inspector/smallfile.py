"""Read a settings file (config, theme, answer rules) only if it is a regular file of a sane size."""

from __future__ import annotations

import errno
import os

from inspector.userpath import open_fd

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
