"""The one way to open a path a user (or a session on disk) names: never blocks, never reads a device.

Every file the inspector reads or writes at a user's say goes through here: session files, followed
files, the browser's scan, subagent and meta files, ``tool-results/``, Codex and Gemini folders,
recordings, config, rules and exports. A path is opened with ``O_NONBLOCK`` (a FIFO nobody writes does
not hold the open), then ``fstat`` on the open descriptor decides (no window between a check and the
open): anything but a regular file is refused with :class:`NotARegularFile`, whose message names the
kind (a FIFO, a character device such as ``/dev/zero``, a folder, a socket). A dangling symlink is
named as one. One ``open`` and one ``fstat`` per file: nothing else is asked of the filesystem.
"""

from __future__ import annotations

import errno
import io
import os
import stat
from typing import BinaryIO, TextIO

_NONBLOCK = getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class NotARegularFile(OSError):
    """A path that names something else than a regular file (or a folder where one is wanted)."""

    def __init__(self, path: str, kind: str, wanted: str = "a regular file") -> None:
        super().__init__(errno.EINVAL, f"is {kind}, not {wanted}", path)
        self.kind = kind


def kind_of(mode: int) -> str:
    """What a file of ``mode`` is, as a person reads it ("a FIFO (named pipe)", "a folder"...)."""
    if stat.S_ISREG(mode):
        return "a regular file"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


def open_fd(path: str, flags: int = os.O_RDONLY, mode: int = 0o666) -> tuple[int, os.stat_result]:
    """A descriptor of the regular file ``path`` and its ``fstat``; raises ``OSError`` otherwise.

    ``flags`` are added to ``O_NONBLOCK | O_NOCTTY | O_CLOEXEC``. A FIFO, device, socket or folder is
    refused (:class:`NotARegularFile`); a dangling symlink raises ``FileNotFoundError`` saying so.
    """
    try:
        fd = os.open(path, flags | _NONBLOCK, mode)
    except FileNotFoundError as exc:
        raise _dangling(path) or exc from None
    except IsADirectoryError:  # opened for writing
        raise NotARegularFile(path, "a folder") from None
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a FIFO without a reader, opened to write
            raise NotARegularFile(path, "a FIFO (named pipe)") from None
        if exc.errno == errno.ELOOP and flags & _NOFOLLOW:
            raise NotARegularFile(path, "a symlink") from None
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotARegularFile(path, kind_of(info.st_mode))
    except BaseException:
        os.close(fd)
        raise
    return fd, info


def open_binary(path: str) -> io.BufferedReader:
    """``path`` opened to read bytes, if it is a regular file (see :func:`open_fd`)."""
    fd, _ = open_fd(path)
    return os.fdopen(fd, "rb")


def open_sized(path: str) -> tuple[io.BufferedReader, int]:
    """``path`` opened to read bytes, and its size as the open descriptor reports it."""
    fd, info = open_fd(path)
    return os.fdopen(fd, "rb"), info.st_size


def open_text(path: str, encoding: str = "utf-8", errors: str = "strict") -> TextIO:
    """``path`` opened to read text, if it is a regular file."""
    fd, _ = open_fd(path)
    return os.fdopen(fd, encoding=encoding, errors=errors)


def read_bytes(path: str, limit: int | None = None) -> bytes:
    """The bytes of the regular file ``path`` (at most ``limit`` of them)."""
    with open_binary(path) as fh:
        return fh.read() if limit is None else fh.read(limit)


def open_append(path: str) -> BinaryIO:
    """``path`` opened to append bytes (created if missing), if it is or becomes a regular file."""
    fd, _ = open_fd(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    return os.fdopen(fd, "ab")


def create_new(path: str, encoding: str = "utf-8") -> TextIO:
    """A new file at ``path`` to write text: never an existing file, never through a symlink
    (``O_EXCL | O_NOFOLLOW``); raises ``FileExistsError`` when the name is taken (by anything)."""
    fd, _ = open_fd(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o644)
    return os.fdopen(fd, "w", encoding=encoding)


def is_regular(path: str) -> bool:
    """True when ``path`` is (or links to) a regular file now (a walk's filter; opening still checks)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def list_folder(path: str) -> list[str]:
    """The names in the folder ``path``, sorted; raises ``NotARegularFile`` when it is not a folder."""
    try:
        return sorted(os.listdir(path))
    except NotADirectoryError:
        try:
            kind = kind_of(os.stat(path).st_mode)
        except OSError:
            kind = "not a folder"
        raise NotARegularFile(path, kind, "a folder") from None
    except FileNotFoundError as exc:
        raise _dangling(path) or exc from None


def _dangling(path: str) -> FileNotFoundError | None:
    try:
        if not os.path.islink(path):
            return None
        target = os.readlink(path)
    except (OSError, ValueError):
        return None
    return FileNotFoundError(errno.ENOENT, f"is a symlink to a missing file ({target})", path)
