"""Follow a growing session file: read only appended lines, wake on inotify (or a slow stat poll), decode per line.

The pieces, each usable alone:

- ``FileTail(path)``: ``read()`` returns the complete lines appended since the last read (a partial last
  line waits for its newline); truncation or replacement of the file (size below the offset, or a new
  inode) restarts from the top with ``restarted=True``.
- ``FileWatcher(path)``: ``await watcher.wait(timeout)`` returns when the file may have changed. Linux
  uses inotify through ctypes (no thread, no CPU while idle); elsewhere it polls ``os.stat`` every
  ``poll_interval`` seconds.
- ``decode_lines(fmt, lines, first_line, path, offset)``: turns lines into events with the format's
  ``decode_line`` hook; raises FollowUnsupported when the format has none.
- ``follow(path, fmt, on_events)``: the three together, until cancelled.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import BinaryIO

from inspector.model.events import Event, Malformed, RawRef
from inspector.protocols.format import Format
from inspector.sources.watch import FileWatcher
from inspector.userpath import open_binary, open_sized

READ_LIMIT = 4 * 1024 * 1024
"""At most this many bytes are read per ``FileTail.read()`` (a slice: the UI gets its turn between two);
``more`` says when there is more."""

LINE_LIMIT = 256 * 1024 * 1024
"""A line longer than this is not kept: its bytes are dropped as they come and it becomes one malformed
record (a 1 GB line with no newline must not take gigabytes of memory while it is being followed)."""


class FollowUnsupported(Exception):
    """The file's format has no per-line decoder, so it cannot be followed."""


@dataclass(frozen=True, slots=True)
class TooLong:
    """A line past LINE_LIMIT, dropped: only its length is kept (so the offsets after it stay right)."""

    length: int


@dataclass
class TailRead:
    """What one ``FileTail.read()`` found: ``lines[i]`` is line ``first_line + i`` at a known offset.

    ``problem`` says why the path cannot be read now (gone, a FIFO, a folder...); the tail keeps trying.
    """

    lines: list[bytes | TooLong] = field(default_factory=list)
    first_line: int = 1
    offset: int = 0
    restarted: bool = False
    missing: bool = False
    more: bool = False
    problem: str = ""


class FileTail:
    """Reads the complete lines appended to ``path`` since the last read.

    ``offset`` is where the next unread line starts and ``line_no`` how many lines came before it, so a
    tail can continue after a whole-file read (see ``at_end``). Bytes of an unfinished last line are
    kept until its newline arrives (past LINE_LIMIT they are dropped and the line is a ``TooLong``).
    When the file shrinks below the offset or the path names another file (an atomic rewrite, log
    rotation), the rest of the old file is read first, then reading restarts at the top of the new
    one and ``restarted`` is set: the consumer reads it into a fresh store. A path that is gone or is
    not a regular file (opened as :mod:`inspector.userpath` opens, never blocking) is reported with
    ``missing`` and ``problem``, and tried again at the next read.
    """

    def __init__(
        self, path: str, offset: int = 0, line_no: int = 0, ident: tuple[int, int] | None = None
    ) -> None:
        self.path = path
        self.offset = offset
        self.line_no = line_no
        self._partial = bytearray()
        self._skipping = 0  # bytes of a too-long line dropped so far
        self._fh: BinaryIO | None = None
        self._ident = ident  # (device, inode) of the file being read
        self._rewind = False

    @classmethod
    def at_end(cls, path: str) -> FileTail:
        """A tail positioned after the last complete line of ``path`` as it is now (to follow after a load)."""
        offset = lines = 0
        with open_binary(path) as fh:
            ident = _ident(os.fstat(fh.fileno()))
            position = 0
            while chunk := fh.read(1 << 20):
                count = chunk.count(b"\n")
                if count:
                    lines += count
                    offset = position + chunk.rindex(b"\n") + 1
                position += len(chunk)
        return cls(path, offset, lines, ident)

    @staticmethod
    def unfinished_line(path: str, start: int) -> int:
        """Where the file's last line begins when it is not finished (no newline ends the file) and
        begins at or after ``start``; -1 otherwise (read backwards from the end, a block at a time)."""
        with open_binary(path) as fh:
            end = fh.seek(0, os.SEEK_END)
            if end <= start:
                return -1
            fh.seek(end - 1)
            if fh.read(1) == b"\n":
                return -1
            at = end
            while at > start:
                size = min(1 << 20, at - start)
                fh.seek(at - size)
                newline = fh.read(size).rfind(b"\n")
                if newline >= 0:
                    return at - size + newline + 1
                at -= size
            return start

    @classmethod
    def at_offset(cls, path: str, offset: int) -> FileTail:
        """A tail that starts at byte ``offset`` (where a load stopped), numbering lines from there."""
        lines = 0
        with open_binary(path) as fh:
            ident = _ident(os.fstat(fh.fileno()))
            left = offset
            while left > 0 and (chunk := fh.read(min(left, 1 << 20))):
                lines += chunk.count(b"\n")
                left -= len(chunk)
        return cls(path, offset, lines, ident)

    def rewind(self) -> None:
        """Read the file again from its top at the next read (another file was rewritten: the store
        is a fresh one and this file's lines go into it again)."""
        self._rewind = True

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def _open(self) -> str:
        """Open the path; "" when done, else why it cannot be read now. A file other than the one read
        before means reading restarts from its top (``_restart`` is left to the caller)."""
        try:
            fh, _ = open_sized(self.path)
        except OSError as exc:
            return exc.strerror or str(exc)
        self._fh = fh
        return ""

    def _now_names(self) -> tuple[int, int] | None:
        """(device, inode) the path names now (None when it names nothing readable)."""
        try:
            return _ident(os.stat(self.path))
        except (OSError, ValueError):
            return None

    def _restart(self) -> None:
        """Back to the top of the file (the one open stays open)."""
        self.offset = 0
        self.line_no = 0
        self._partial = bytearray()
        self._skipping = 0

    def _gone(self, problem: str, restarted: bool = False) -> TailRead:
        return TailRead(
            first_line=self.line_no + 1,
            offset=self.offset,
            restarted=restarted,
            missing=True,
            problem=problem,
        )

    def read(self, limit: int = READ_LIMIT) -> TailRead:
        """The complete lines appended since the last read (never raises, never blocks)."""
        restarted = False
        if self._rewind:
            self._rewind = False
            self._restart()
        if self._fh is None:
            problem = self._open()
            if problem:
                return self._gone(problem)
            assert self._fh is not None
            ident = _ident(os.fstat(self._fh.fileno()))
            if self._ident is not None and ident != self._ident:
                self._restart()
                restarted = True
            self._ident = ident
        fh = self._fh
        assert fh is not None
        position = self.offset + len(self._partial) + self._skipping
        size = os.fstat(fh.fileno()).st_size
        if size < position:  # truncated in place
            self._restart()
            restarted = True
            position = 0
        try:
            fh.seek(position)
            data = fh.read(limit)
        except OSError as exc:  # a read that fails (EIO): said, and tried again
            self.close()
            return self._gone(exc.strerror or str(exc), restarted)
        if not data and self._now_names() != self._ident:  # replaced or gone: the old file is read out
            self.close()  # the next open compares the file it finds with this one's (device, inode)
            return self._with(self.read(limit), restarted=restarted)
        return self._with(self._take(data, more=len(data) >= limit), restarted=restarted)

    @staticmethod
    def _with(chunk: TailRead, restarted: bool) -> TailRead:
        chunk.restarted = chunk.restarted or restarted
        return chunk

    def _finish(self, head: bytes) -> bytes | TooLong:
        """The line that ``head`` (up to and with its newline) completes."""
        if self._skipping:
            length, self._skipping = self._skipping + len(head), 0
            return TooLong(length)
        if self._partial:
            self._partial += head
            line = bytes(self._partial)
            self._partial = bytearray()
        else:
            line = head
        return TooLong(len(line)) if len(line) > LINE_LIMIT else line

    def _keep(self, rest: bytes) -> None:
        if self._skipping:
            self._skipping += len(rest)
            return
        self._partial += rest
        if len(self._partial) > LINE_LIMIT:
            self._skipping = len(self._partial)
            self._partial = bytearray()

    def _take(self, data: bytes, more: bool) -> TailRead:
        first = data.find(b"\n")
        lines: list[bytes | TooLong] = []
        if first < 0:
            self._keep(data)
        else:
            lines.append(self._finish(data[: first + 1]))
            last = data.rfind(b"\n")
            if last > first:
                lines.extend(piece + b"\n" for piece in data[first + 1 : last].split(b"\n"))
            self._keep(data[last + 1 :])
        chunk = TailRead(lines, first_line=self.line_no + 1, offset=self.offset, more=more)
        self.offset += sum(line.length if isinstance(line, TooLong) else len(line) for line in lines)
        self.line_no += len(lines)
        return chunk


def _ident(info: os.stat_result) -> tuple[int, int]:
    return info.st_dev, info.st_ino


# -- decoding ----------------------------------------------------------------------------------
def supports_follow(fmt: Format) -> bool:
    """True when the format can decode one line at a time."""
    return fmt.decode_line is not None


def decode_lines(
    fmt: Format, lines: list[bytes | TooLong], start_line_no: int, path: str, offset: int
) -> list[Event]:
    """Decode consecutive lines (the first is number ``start_line_no`` at byte ``offset``) into events.

    Blank lines are skipped; a decoder that raises yields a Malformed event for that line, and so does
    a line past LINE_LIMIT. Raises FollowUnsupported when the format has no ``decode_line``.
    """
    decode = fmt.decode_line
    name = fmt.name
    if decode is None:
        raise FollowUnsupported(f"the {name} format cannot be followed (no per-line decoder)")
    events: list[Event] = []
    for number, line in enumerate(lines, start=start_line_no):
        if isinstance(line, TooLong):
            length = line.length
            raw = RawRef(source=path, where=number, offset=offset, length=length, protocol=name)
            reason = f"a line of {length:,} bytes, past the {LINE_LIMIT >> 20} MB a followed line may hold: skipped"
            events.append(Malformed(where=raw.where, reason=reason, source=path, raw=raw))
            offset += length
            continue
        length = len(line)
        if line.strip():
            raw = RawRef(source=path, where=number, offset=offset, length=length, protocol=name)
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


INGEST_BATCH = 2000
"""Events handed to ``on_events`` at a time; the event loop gets its turn between two batches."""

MISSING_POLL = 1.0
"""How often a followed path that is gone (or is not a regular file) is tried again."""


def _step(tail: FileTail, fmt: Format, path: str) -> tuple[TailRead, list[Event]]:
    chunk = tail.read()
    events = decode_lines(fmt, chunk.lines, chunk.first_line, path, chunk.offset) if chunk.lines else []
    return chunk, events


async def follow(
    path: str,
    fmt: Format,
    on_events: Callable[[list[Event]], None],
    *,
    tail: FileTail | None = None,
    watcher: FileWatcher | None = None,
    on_restart: Callable[[], None] | None = None,
    on_problem: Callable[[str], None] | None = None,
    safety_interval: float = 5.0,
) -> None:
    """Feed every line appended to ``path`` through ``fmt``'s line decoder to ``on_events``, until cancelled.

    Starts where ``tail`` stands (default: the end of the file as it is now). Reading and decoding run in
    a thread, a slice at a time, and the events come in batches: a huge append never holds the event
    loop. ``on_restart`` is called before the events of a file that was truncated or replaced.
    ``on_problem(why)`` is called when the path stops being readable (gone, a folder, a FIFO: it is
    tried again every MISSING_POLL seconds) and with "" when it is readable again. Even with inotify
    the file is checked every ``safety_interval`` seconds (network filesystems do not report changes).
    Raises FollowUnsupported at once when the format cannot be followed.
    """
    if not supports_follow(fmt):
        raise FollowUnsupported(f"the {fmt.name} format cannot be followed (no per-line decoder)")
    if tail is None:  # where the file ends as the call is made (a caller with a big file passes a tail)
        try:
            tail = FileTail.at_end(path)
        except OSError:
            tail = FileTail(path, ident=(-1, -1))  # read from its top when it comes
    watcher = watcher or FileWatcher(path)
    problem = ""
    try:
        while True:
            chunk, events = await asyncio.to_thread(_step, tail, fmt, path)
            if chunk.problem != problem:
                problem = chunk.problem
                if on_problem is not None:
                    on_problem(problem)
            if chunk.restarted and on_restart is not None:
                on_restart()
            for start in range(0, len(events), INGEST_BATCH):
                on_events(events[start : start + INGEST_BATCH])
                await asyncio.sleep(0)
            if chunk.more:
                await asyncio.sleep(0)
            else:
                await watcher.wait(MISSING_POLL if chunk.missing else safety_interval)
    finally:
        watcher.close()
        tail.close()
