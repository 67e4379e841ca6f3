"""What a format detector looks at: the JSON values at the head of a file (no spans, no errors kept)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any, BinaryIO

from inspector.model import values
from inspector.protocols.common.jsonfile import _BOM, _DECODER, _scan_array, _skip


def head_records(head: bytes, lines: int, wanted: re.Pattern[bytes] | None = None) -> Iterator[Any]:
    """The JSON values of the first ``lines`` lines of a head (blank lines and unreadable ones skipped;
    the last line may be cut by the head's end and is then skipped too); with ``wanted``, only the
    lines it finds something in are parsed (a sniffer's cheap test first)."""
    for line in head.split(b"\n", lines)[:lines]:
        if not line.strip() or (wanted is not None and wanted.search(line) is None):
            continue
        try:
            yield json.loads(line.lstrip(_BOM))
        except (ValueError, RecursionError):
            continue


def head_values(head: bytes, wanted: re.Pattern[bytes], lines: int = 20) -> Iterator[Any]:
    """The first JSON value of a head (an array's first item), then the values of those of its first
    ``lines`` lines ``wanted`` finds something in: what a sniffer looks through, so that one first
    line never decides alone, while a head without the format's keys costs one parse."""
    try:
        yield first_value(head)
    except Exception:  # noqa: BLE001 - sniffing must never stop detection of other formats
        pass
    yield from head_records(head, lines, wanted)


# a JSON string, escapes included (the unrolled form: a run of plain bytes between escapes)
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
SHORT_STRING = 256  # the bytes of a string kept by ``shortened``


def shortened(line: bytes, keep: int = SHORT_STRING) -> bytes:
    """``line`` with each JSON string longer than ``keep`` bytes cut to about ``keep`` (never inside an
    escape or a UTF-8 character): a record of any length becomes a small one of the same keys and shape,
    which a sniffer reads as cheaply as any head."""

    def cut(match: re.Match[bytes]) -> bytes:
        text = match.group()
        return text if len(text) <= keep + 2 else _cut_string(text[1 : keep + 1])

    return _STRING.sub(cut, line)


def _cut_string(body: bytes) -> bytes:
    """A string's first bytes as a whole JSON string: an escape near the end dropped whole, and so is a
    UTF-8 character cut short."""
    escape = body.rfind(b"\\", max(0, len(body) - 6))
    while escape > 0 and body[escape - 1 : escape] == b"\\":  # a run of backslashes: its first
        escape -= 1
    if escape >= 0:
        body = body[:escape]  # an escape near the end may be cut: drop it whole
    while body and body[-1] & 0xC0 == 0x80:  # a UTF-8 character's continuation bytes
        body = body[:-1]
    if body and body[-1] >= 0xC0:  # its lead byte
        body = body[:-1]
    return b'"' + body + b'"'


def first_value(head: bytes) -> Any:
    """The first JSON value of a file's head (the first item when it is an array), or None."""
    if head.startswith(_BOM):
        head = head[len(_BOM) :]
    text = head.decode("utf-8", "replace")
    for line in text.splitlines():
        if line.strip():
            value, error = values.loads_json(line)
            if error is not None:
                value = _first_of_document(text)
            if isinstance(value, list):
                return value[0] if value else None
            return value
    return None


def _first_of_document(text: str) -> Any:
    at = _skip(text, 0)
    if text.startswith("[", at):
        for _start, _end, value, error in _scan_array(text, at):
            return None if error else value
        return None
    try:
        return _DECODER.raw_decode(text, at)[0]
    except (ValueError, RecursionError):
        return None


_QUOTE = 0x22
_BACKSLASH = 0x5C
_TAIL = 16 * 1024  # what is kept of a first record's end once the shortened head is full
_BLOCK = 1024 * 1024


def _count(data: bytes, byte: bytes) -> int:
    return data.count(byte) if byte in data else 0  # ``in`` is a memchr: cheap where there is none


class _Shortener:
    """Shortens a stream of JSON text block by block (``feed``): each string longer than ``keep`` bytes is
    cut as ``shortened`` cuts it, everything else is kept as it is, up to ``size`` bytes; past that only
    the last ``_TAIL`` bytes are kept, until the first record ends (a document's closing keys show). A
    string's bytes are found with ``bytes.find`` (no regular expression walks a long string) and only its
    first ``keep`` bytes are kept: memory stays bounded whatever a record's length."""

    def __init__(self, size: int, keep: int) -> None:
        self.size, self.keep = size, keep
        self.out = bytearray()
        self.tail = bytearray()
        self.tailing = False
        self.flushed = False  # the first record's end was joined to the head: later records follow it
        self.cut = False  # a string was shortened (what is handed over differs from the bytes read)
        self.depth = 0  # brackets open outside strings
        self.records = 0  # line ends met outside strings and brackets
        self.first_end: int | None = None  # the file offset after the first record's line end
        self.base = 0  # the file offset of what is being fed
        self.in_string = False
        self.escaped = False  # a continued string's first byte is escaped (odd backslashes before it)
        self.kept = bytearray()  # the current string's first bytes
        self.length = 0  # the current string's length so far

    def _emit(self, data: bytes | bytearray) -> None:
        if not self.tailing:
            room = self.size - len(self.out)
            self.out += data[:room]
            if len(data) <= room:
                return
            self.tailing = True
            data = data[room:]
        self.tail += data[-_TAIL:]
        if len(self.tail) > 2 * _TAIL:
            del self.tail[:-_TAIL]

    def _outside(self, segment: bytes, where: int) -> None:
        self._emit(segment)
        opens = _count(segment, b"{") + _count(segment, b"[")
        closes = _count(segment, b"}") + _count(segment, b"]")
        if self.depth - closes > 0 or b"\n" not in segment:  # no line end here can be a record's
            self.depth = max(0, self.depth + opens - closes)
            return
        pieces = segment.split(b"\n")
        for index, piece in enumerate(pieces):
            change = piece.count(b"{") + piece.count(b"[") - piece.count(b"}") - piece.count(b"]")
            self.depth = max(0, self.depth + change)
            where += len(piece) + 1
            if index < len(pieces) - 1 and self.depth == 0:
                self.records += 1
                if self.first_end is None:
                    self.first_end = where
        if self.tailing and self.records and not self.flushed:
            # the first record ended past the head: its end joins it, a line apart, and the records after
            # it follow, within a quarter more (a JSON Lines file whose first record alone is huge)
            self.out += b"\n" + self.tail
            self.tail.clear()
            self.tailing, self.flushed = False, True
            self.size = len(self.out) + self.size // 4

    def _close_string(self) -> None:
        if self.length <= self.keep:
            self._emit(b'"' + bytes(self.kept) + b'"')
        else:
            self.cut = True
            self._emit(_cut_string(bytes(self.kept[: self.keep])))
        self.in_string, self.escaped, self.length = False, False, 0
        self.kept.clear()

    def _string_part(self, data: bytes, start: int, end: int) -> None:
        if len(self.kept) < self.keep:
            self.kept += data[start : min(end, start + self.keep - len(self.kept))]
        self.length += end - start

    def done(self, records: int) -> bool:
        """Enough was read: ``records`` records, or the head is full past the first record's end."""
        return self.records >= records or (self.tailing and self.flushed)

    def feed(self, data: bytes, records: int, base: int) -> None:
        at, self.base = 0, base
        while at < len(data) and not self.done(records):
            if not self.in_string:
                quote = data.find(b'"', at)
                self._outside(data[at : len(data) if quote < 0 else quote], base + at)
                if quote < 0:
                    return
                self.in_string, at = True, quote + 1
                continue
            start, search = at, at
            while True:
                quote = data.find(b'"', search)
                if quote < 0:
                    self._string_part(data, start, len(data))
                    run = len(data) - start - len(data[start:].rstrip(b"\\"))
                    whole = run == len(data) - start
                    self.escaped = (run + (self.escaped if whole else 0)) % 2 == 1
                    return
                back = quote
                while back > start and data[back - 1] == _BACKSLASH:
                    back -= 1
                run = quote - back + (1 if back == start and self.escaped else 0)
                if run % 2 == 0:
                    break
                search = quote + 1
            self._string_part(data, start, quote)
            self._close_string()
            at = quote + 1

    def finish(self) -> bytes:
        if self.in_string:
            self._close_string()
        return bytes(self.out) + (b"\n" + bytes(self.tail) if self.tailing else b"")


def shortened_head(
    fh: BinaryIO,
    start: bytes,
    *,
    size: int = 256 * 1024,
    scan: int = 1024 * 1024 * 1024,
    records: int = 20,
    keep: int = SHORT_STRING,
    offset: int = 0,
) -> tuple[bytes, bool, int | None]:
    """The start of a file with its long JSON strings shortened, read on from ``start`` (its first bytes,
    already read) in bounded blocks: up to ``records`` records or ``size`` bytes of shortened text, and
    always through the first record's end (a document's last keys may decide its format: of it, the
    first ``size`` bytes and the last ``_TAIL`` are kept, a line apart, then the records after it
    within a quarter more), never past ``scan`` bytes read.
    ``offset``: where ``start`` is in the file. Returns the text, whether a string was shortened, and
    the file offset after the first record's line end (None when none came within the read). Memory stays within ``size`` and a block
    whatever the file holds (one 1 GB line, no line end at all, NULs), time within one pass of ``scan``.
    """
    short = _Shortener(size, keep)
    short.feed(start, records, offset)
    scanned = len(start)
    while not short.done(records) and scanned < scan:
        block = fh.read(min(_BLOCK, scan - scanned))
        if not block:
            break
        scanned += len(block)
        nul = block.find(b"\0")
        short.feed(block if nul < 0 else block[:nul], records, offset + scanned - len(block))
        if nul >= 0:
            break  # no JSON text holds a NUL byte (a string writes \u0000): binary, or zeros past a crash
    return short.finish(), short.cut, short.first_end
