"""Follow a growing session file: read only appended lines, wake on inotify (or a slow stat poll), decode per line.

The pieces, each usable alone:

- ``FileTail(path)``: ``read()`` returns the complete lines appended since the last read (a partial last
  line waits for its newline); truncation or replacement of the file (size below the offset, or a new
  inode) restarts from the top with ``restarted=True``.
- ``FileWatcher(path)``: ``await watcher.wait(timeout)`` returns when the file may have changed. Linux
  uses inotify through ctypes (no thread, no CPU while idle); elsewhere it polls ``os.stat`` every
  ``poll_interval`` seconds.
- ``decode_lines(module, lines, first_line, path, offset)``: turns lines into events with the format
  module's ``decode_line`` hook; raises FollowUnsupported when the format has none.
- ``follow(path, fmt, on_events)``: the three together, until cancelled.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import BinaryIO

from inspector.model.events import Event, Malformed, RawRef
from inspector.protocols.format import Format
from inspector.sources.watch import FileWatcher

READ_LIMIT = 16 * 1024 * 1024
"""At most this many bytes are read per ``FileTail.read()``; ``more`` says when there is more."""


class FollowUnsupported(Exception):
    """The file's format has no per-line decoder, so it cannot be followed."""


@dataclass
class TailRead:
    """What one ``FileTail.read()`` found: ``lines[i]`` is line ``first_line + i`` at a known offset."""

    lines: list[bytes] = field(default_factory=list)
    first_line: int = 1
    offset: int = 0
    restarted: bool = False
    missing: bool = False
    more: bool = False


class FileTail:
    """Reads the complete lines appended to ``path`` since the last read.

    ``offset`` is where the next unread line starts and ``line_no`` how many lines came before it, so a
    tail can continue after a whole-file read (see ``at_end``). Bytes of an unfinished last line are
    kept until its newline arrives. When the file shrinks below the offset or is replaced (another
    inode, e.g. log rotation), the rest of the old file is read first, then reading restarts at the top
    of the new one and ``restarted`` is set: the consumer should rebuild what it showed.
    """

    def __init__(self, path: str, offset: int = 0, line_no: int = 0) -> None:
        self.path = path
        self.offset = offset
        self.line_no = line_no
        self._partial = b""
        self._fh: BinaryIO | None = None
        self._ino: int | None = None

    @classmethod
    def at_end(cls, path: str) -> FileTail:
        """A tail positioned after the last complete line of ``path`` as it is now (to follow after a load)."""
        offset = lines = 0
        with open(path, "rb") as fh:
            position = 0
            while chunk := fh.read(1 << 20):
                count = chunk.count(b"\n")
                if count:
                    lines += count
                    offset = position + chunk.rindex(b"\n") + 1
                position += len(chunk)
        return cls(path, offset, lines)

    @classmethod
    def at_offset(cls, path: str, offset: int) -> FileTail:
        """A tail that starts at byte ``offset`` (where a load stopped), numbering lines from there."""
        lines = 0
        with open(path, "rb") as fh:
            left = offset
            while left > 0 and (chunk := fh.read(min(left, 1 << 20))):
                lines += chunk.count(b"\n")
                left -= len(chunk)
        return cls(path, offset, lines)

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def _open(self) -> bool:
        try:
            fh = open(self.path, "rb")
        except FileNotFoundError:
            return False
        self._fh = fh
        self._ino = os.fstat(fh.fileno()).st_ino
        return True

    def _replaced(self) -> bool:
        """True when the path now names another file than the one open (rotation)."""
        try:
            return os.stat(self.path).st_ino != self._ino
        except FileNotFoundError:
            return True

    def _restart(self) -> None:
        self.close()
        self.offset = 0
        self.line_no = 0
        self._partial = b""

    def read(self, limit: int = READ_LIMIT) -> TailRead:
        """The complete lines appended since the last read (never raises for a vanished file)."""
        restarted = False
        if self._fh is None and not self._open():
            return TailRead(first_line=self.line_no + 1, offset=self.offset, missing=True)
        assert self._fh is not None
        position = self.offset + len(self._partial)
        size = os.fstat(self._fh.fileno()).st_size
        if size < position:  # truncated in place
            self._restart()
            restarted = True
            if not self._open():
                return TailRead(first_line=1, offset=0, restarted=True, missing=True)
            assert self._fh is not None
            position = 0
        self._fh.seek(position)
        data = self._fh.read(limit)
        if not data and self._replaced():
            self._restart()
            if not self._open():
                return TailRead(first_line=1, offset=0, restarted=True, missing=True)
            return self._with(self.read(limit), restarted=True)
        return self._with(self._take(data, more=len(data) >= limit), restarted=restarted)

    @staticmethod
    def _with(chunk: TailRead, restarted: bool) -> TailRead:
        chunk.restarted = chunk.restarted or restarted
        return chunk

    def _take(self, data: bytes, more: bool) -> TailRead:
        buffer = self._partial + data
        cut = buffer.rfind(b"\n") + 1
        self._partial = buffer[cut:]
        complete = buffer[:cut]
        lines = [piece + b"\n" for piece in complete.split(b"\n")[:-1]]
        chunk = TailRead(lines, first_line=self.line_no + 1, offset=self.offset, more=more)
        self.offset += len(complete)
        self.line_no += len(lines)
        return chunk


# -- decoding ----------------------------------------------------------------------------------
def supports_follow(fmt: Format) -> bool:
    """True when the format can decode one line at a time."""
    return fmt.decode_line is not None


def decode_lines(fmt: Format, lines: list[bytes], start_line_no: int, path: str, offset: int) -> list[Event]:
    """Decode consecutive lines (the first is number ``start_line_no`` at byte ``offset``) into events.

    Blank lines are skipped; a decoder that raises yields a Malformed event for that line. Raises
    FollowUnsupported when the format has no ``decode_line``.
    """
    decode = fmt.decode_line
    name = fmt.name
    if decode is None:
        raise FollowUnsupported(f"the {name} format cannot be followed (no per-line decoder)")
    events: list[Event] = []
    for number, line in enumerate(lines, start=start_line_no):
        length = len(line)
        if line.strip():
            raw = RawRef(source=path, where=f"line {number}", offset=offset, length=length, protocol=name)
            try:
                events.extend(decode(line, raw))
            except Exception as exc:  # noqa: BLE001 - a decoder bug must not stop following
                events.append(
                    Malformed(
                        where=raw.where,
                        reason=f"could not decode: {type(exc).__name__}: {str(exc)[:160]}",
                        source=path,
                        raw=raw,
                    )
                )
        offset += length
    return events


async def follow(
    path: str,
    fmt: Format,
    on_events: Callable[[list[Event]], None],
    *,
    tail: FileTail | None = None,
    watcher: FileWatcher | None = None,
    on_restart: Callable[[], None] | None = None,
    safety_interval: float = 5.0,
) -> None:
    """Feed every line appended to ``path`` through ``fmt``'s line decoder to ``on_events``, until cancelled.

    Starts where ``tail`` stands (default: the end of the file as it is now). ``on_restart`` is called
    before the events of a file that was truncated or replaced. Even with inotify the file is checked
    every ``safety_interval`` seconds (network filesystems do not report changes). Raises
    FollowUnsupported at once when the format cannot be followed.
    """
    if not supports_follow(fmt):
        raise FollowUnsupported(f"the {fmt.name} format cannot be followed (no per-line decoder)")
    tail = tail or FileTail.at_end(path)
    watcher = watcher or FileWatcher(path)
    try:
        while True:
            chunk = tail.read()
            if chunk.restarted and on_restart is not None:
                on_restart()
            if chunk.lines:
                on_events(decode_lines(fmt, chunk.lines, chunk.first_line, path, chunk.offset))
            if not chunk.more:
                await watcher.wait(safety_interval)
    finally:
        watcher.close()
        tail.close()
