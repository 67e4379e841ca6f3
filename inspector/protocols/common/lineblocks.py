"""A file read as blocks of whole lines in one reused buffer: the hot path of every JSON Lines reader.

Claude Code transcripts, Codex rollouts and the JSON Lines formats (Gemini, RAP, LM-Kit, OTLP) are read
through :func:`line_blocks`: the bytes go into one buffer kept for the whole file (a fresh block each
time, joined to the rest of the line the last one ended in, cost a page fault on every 4 KB of fresh
memory), each block is handed over as the lines it holds whole, and what follows its last newline is
moved to the buffer's start for the next. The reader cuts its lines itself (``bytes.find`` in C, no
object per line here). A line longer than the buffer is read whole into a buffer of its own exact
size (one copy of a 200 MB record: doubling a buffer or joining pieces holds two or three at once).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import BinaryIO

POOL_KEPT = 2
"""Buffers a pool keeps for the next read (a session file and the subagent file read after it)."""
_SCRATCH = 1 << 16
"""A long line's end is looked for in reads of this size (1 MB reads copied up to 1 MB past the end
of each line of a few hundred kilobytes; a quarter of a transcript's bytes may be in such lines)."""


def line_blocks(
    fh: BinaryIO, size: int, pool: list[bytearray] | None = None
) -> Iterator[tuple[int, bytearray, int, bool]]:
    """``(offset, buffer, end, own)``: the file from where ``fh`` stands, as blocks of whole lines.

    ``buffer[:end]`` holds the lines found at ``offset`` of the file, each ending with a newline but
    the file's last when it has none. The buffer is the one kept for the whole read (``own`` False):
    its bytes are good until the next block is asked for, and it is never resized (a view of it may
    be held meanwhile). A line longer than ``size`` bytes, its newline included, comes alone in a
    buffer of its exact length (``own`` True), the reader's to keep or to empty (:func:`take_text`).

    ``size`` is the buffer's length. Without ``pool`` it is no larger than the file (its size when the
    read starts, plus one byte: a small file clears no megabytes), grown to ``size`` when the file has
    grown past it meanwhile. With ``pool`` (a list the caller keeps), a buffer of ``size`` is taken
    from it and given back at the end (``POOL_KEPT`` at most), for reads of file after file.
    """
    if pool is not None:
        buffer = pool.pop() if pool and len(pool[-1]) == size else bytearray(size)
    else:
        buffer = bytearray(max(1, min(size, _left(fh, size) + 1)))
    offset = have = 0  # where the buffer's start is in the file; the bytes of a line carried over there
    view = memoryview(buffer)
    try:
        while True:
            if have == len(buffer):  # one line fills the buffer
                if have < size:  # the file grew since its read started: a buffer of full size
                    view.release()
                    grown = bytearray(size)
                    grown[:have] = buffer
                    buffer, view = grown, memoryview(grown)
                else:  # a line longer than the buffer: read whole into its own
                    line = _whole_line(fh, view)
                    have, length = 0, len(line)
                    yield offset, line, length, True
                    del line  # the reader may have emptied it: its length was taken before
                    offset += length
                    continue
            count = fh.readinto(view[have:])  # type: ignore[attr-defined]
            if not count:
                if have:
                    yield offset, buffer, have, False  # the file's last line, without a newline
                return
            filled = have + count
            end = buffer.rfind(b"\n", have, filled) + 1  # the line carried over holds no newline
            if not end:  # that line goes on past this read
                have = filled
                continue
            yield offset, buffer, end, False
            have = filled - end
            view[:have] = view[end:filled]  # a move within the buffer (memmove), never a resize
            offset += end
    finally:
        view.release()
        if pool is not None and len(buffer) == size and len(pool) < POOL_KEPT:
            pool.append(buffer)


def _left(fh: BinaryIO, size: int) -> int:
    """The bytes of the file past where ``fh`` stands (``size`` when that cannot be told)."""
    try:
        return os.fstat(fh.fileno()).st_size - fh.tell()
    except (OSError, ValueError, AttributeError):  # not a file of the system's
        return size


def _whole_line(fh: BinaryIO, carried: memoryview) -> bytearray:
    """The line whose first bytes are ``carried`` (the whole buffer), read into a buffer of its exact
    length: ahead to its newline (or the file's end) in small reads into one scratch buffer, then back."""
    at = fh.tell()
    length = have = len(carried)
    scratch = bytearray(_SCRATCH)
    while count := fh.readinto(scratch):  # type: ignore[attr-defined]
        newline = scratch.find(b"\n", 0, count)
        if newline >= 0:
            length += newline + 1
            break
        length += count
    fh.seek(at)
    line = bytearray(length)
    with memoryview(line) as view:
        view[:have] = carried
        while have < length:  # the file may have been cut short meanwhile
            count = fh.readinto(view[have:])  # type: ignore[attr-defined]
            if not count:
                break
            have += count
    if have < length:
        del line[have:]
    return line


def take_text(buffer: bytearray, start: int, stop: int) -> str | None:
    """The text of ``buffer[start:stop]``, a long line in a buffer of its own, the buffer then emptied
    (a parse of the text then holds text and value, not the bytes too); None, the bytes kept, when
    they are not UTF-8. No view of the buffer may be held."""
    with memoryview(buffer) as view:
        try:
            text = str(view[start:stop], "utf-8")
        except UnicodeDecodeError:
            return None
    buffer.clear()
    return text
