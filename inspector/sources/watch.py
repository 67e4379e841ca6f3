"""Wake when a followed file may have changed: inotify through ctypes on Linux, else a slow stat poll."""

from __future__ import annotations

import asyncio
import ctypes
import os
import struct
import sys

from inspector.sources.tasks import wait_within

_IN_MODIFY, _IN_ATTRIB, _IN_CLOSE_WRITE = 0x2, 0x4, 0x8
_IN_MOVED_FROM, _IN_MOVED_TO, _IN_CREATE, _IN_DELETE = 0x40, 0x80, 0x100, 0x200
_IN_DELETE_SELF, _IN_MOVE_SELF, _IN_Q_OVERFLOW, _IN_IGNORED = 0x400, 0x800, 0x4000, 0x8000
_WATCH_MASK = (
    _IN_MODIFY
    | _IN_ATTRIB
    | _IN_CLOSE_WRITE
    | _IN_MOVED_FROM
    | _IN_MOVED_TO
    | _IN_CREATE
    | _IN_DELETE
    | _IN_DELETE_SELF
    | _IN_MOVE_SELF
)
_EVENT_HEADER = struct.Struct("iIII")


class _Inotify:
    """An inotify watch on the file's folder (so rotation and re-creation are seen), through ctypes."""

    def __init__(self, path: str) -> None:

        libc = ctypes.CDLL(None, use_errno=True)
        self.name = os.path.basename(path).encode()
        self.fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if self.fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1 failed")
        folder = os.path.dirname(os.path.abspath(path)).encode()
        if libc.inotify_add_watch(self.fd, folder, _WATCH_MASK) < 0:
            error = ctypes.get_errno()
            os.close(self.fd)
            raise OSError(error, "inotify_add_watch failed")
        self.broken = False

    def drain(self) -> bool:
        """Read pending events; True when one concerns the file (or events were lost)."""
        relevant = False
        while True:
            try:
                data = os.read(self.fd, 65536)
            except (BlockingIOError, InterruptedError):
                return relevant
            except OSError:
                self.broken = True
                return True
            if not data:
                return relevant
            at = 0
            while at + _EVENT_HEADER.size <= len(data):
                _wd, mask, _cookie, size = _EVENT_HEADER.unpack_from(data, at)
                name = data[at + _EVENT_HEADER.size : at + _EVENT_HEADER.size + size].rstrip(b"\0")
                at += _EVENT_HEADER.size + size
                if mask & (_IN_IGNORED | _IN_DELETE_SELF | _IN_MOVE_SELF):
                    self.broken = True  # the folder went away: fall back to polling
                    relevant = True
                elif mask & _IN_Q_OVERFLOW or name == self.name:
                    relevant = True

    def close(self) -> None:
        os.close(self.fd)


class FileWatcher:
    """``await wait(timeout)`` returns when ``path`` may have changed, or when ``timeout`` passes.

    ``mode`` is ``"inotify"`` (Linux: sleeps in the event loop until the kernel reports a change) or
    ``"poll"`` (``os.stat`` every ``poll_interval`` seconds). A change that happens between two waits
    is not lost: the next wait returns at once. Spurious wake-ups are possible; callers just read.
    """

    def __init__(self, path: str, poll_interval: float = 0.3, use_inotify: bool = True) -> None:
        self.path = path
        self.poll_interval = poll_interval
        self._inotify: _Inotify | None = None
        self._flag: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._last = self._signature()
        self._poked = False
        self.mode = "poll"
        if use_inotify and sys.platform.startswith("linux"):
            try:
                self._inotify = _Inotify(path)
                self.mode = "inotify"
            except (OSError, AttributeError):
                self._inotify = None

    def _signature(self) -> tuple[int, int, int] | None:
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return (st.st_ino, st.st_size, st.st_mtime_ns)

    def _attach(self) -> bool:
        """Register the inotify fd with the running loop (once); False when that is not possible."""
        if self._inotify is None:
            return False
        if self._flag is None:
            loop = asyncio.get_running_loop()
            self._flag = asyncio.Event()
            try:
                loop.add_reader(self._inotify.fd, self._on_readable)
            except (NotImplementedError, RuntimeError):
                self._drop_inotify()
                return False
            self._loop = loop
        return True

    def _on_readable(self) -> None:
        assert self._inotify is not None and self._flag is not None
        if self._inotify.drain():
            self._flag.set()
        if self._inotify.broken:
            self._drop_inotify()

    def _drop_inotify(self) -> None:
        if self._inotify is not None:
            if self._loop is not None:
                self._loop.remove_reader(self._inotify.fd)
            self._inotify.close()
            self._inotify = None
        self.mode = "poll"
        if self._flag is not None:
            self._flag.set()  # wake the waiter so it re-checks in polling mode

    def poke(self) -> None:
        """Make the current (or next) wait return at once."""
        self._poked = True
        if self._flag is not None:
            self._flag.set()

    async def wait(self, timeout: float | None = None) -> bool:
        """Wait for a possible change; True if one was seen, False when ``timeout`` ran out."""
        if self._poked:
            self._poked = False
            return True
        if self._attach():
            assert self._flag is not None
            try:
                await wait_within(self._flag.wait(), timeout)
            except asyncio.TimeoutError:
                return False
            self._flag.clear()
            self._poked = False
            self._last = self._signature()
            return True
        return await self._poll(timeout)

    async def _poll(self, timeout: float | None) -> bool:
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while True:
            current = self._signature()
            if self._poked:
                self._poked = False
                return True
            if current != self._last:
                self._last = current
                return True
            if deadline is not None and loop.time() >= deadline:
                return False
            pause = self.poll_interval
            if deadline is not None:
                pause = max(0.0, min(pause, deadline - loop.time()))
            await asyncio.sleep(pause)

    def close(self) -> None:
        self._drop_inotify()
