"""Read JSON and JSON Lines files as records with exact byte spans (shared by the JSON formats)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

import inspector.protocols.common.jsondeep as _jsondeep
from inspector.model import values
from inspector.protocols.common.lineblocks import line_blocks, take_text
from inspector.userpath import open_binary

# exact: an integer too long for Python stays its digits (model/values.py), never a ValueError
_DECODER = _jsondeep.DECODER
_decode = values.fast_loads  # msgspec: what loads_json tries first; what it refuses goes through it


_WS = re.compile(r"[ \t\n\r]*")
_WS_BYTES = re.compile(rb"[ \t\n\r]*")
_BOM = b"\xef\xbb\xbf"
_ESCAPED = "surrogateescape"  # keeps one character per undecodable byte, so spans stay exact
# A lone surrogate in a decoded value can only come from a \uD800-\uDFFF escape (raw bytes that are not
# UTF-8 make the chunk an error): without one in its text, an item needs no walk through its strings.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF]")


@dataclass(slots=True)
class Chunk:
    """One JSON value of a file (a line, an array item or a container's member) or why it failed."""

    where: str
    offset: int
    length: int
    line: int
    value: Any = None
    error: str | None = None
    note: str | None = None
    """Read all the same, but said: its bytes were not all UTF-8 (``values.loads_noted``)."""


_DEEP = "nested too deeply to decode"


def _reason(exc: BaseException, first_line: int | None = None) -> str:
    """Why a value could not be read; ``first_line`` numbers the lines of a multi-line text."""
    if isinstance(exc, RecursionError):
        return _DEEP
    if isinstance(exc, json.JSONDecodeError):
        if first_line is not None:
            return f"not JSON: {exc.msg} (line {first_line + exc.lineno - 1}, column {exc.colno})"
        return f"not JSON: {exc.msg} (column {exc.colno})"
    if isinstance(exc, UnicodeDecodeError):
        return f"not valid UTF-8 (byte {exc.start})"
    return f"not JSON: {exc}"


def loads(data: bytes | bytearray | memoryview | str) -> tuple[Any, str | None]:
    """Decode one JSON value: ``(value, None)``, or ``(None, reason)`` when it cannot be read."""
    return values.loads_json(data)


def _skip(text: str, pos: int) -> int:
    match = _WS.match(text, pos)
    return match.end() if match else pos


class _Positions:
    """Turn increasing character positions of a text into byte offsets and line numbers."""

    def __init__(self, text: str, base_offset: int, base_line: int) -> None:
        self.text = text
        self.ascii = text.isascii()
        self.first_line = base_line
        self.multiline = "\n" in text
        self.controls = values.has_control(text)
        self._char, self._byte, self._line = 0, base_offset, base_line

    def at(self, pos: int) -> tuple[int, int]:
        if pos < self._char:  # never expected; restart rather than give wrong numbers
            raise ValueError("positions must not go back")
        piece = self.text[self._char : pos]
        self._byte += len(piece) if self.ascii else len(piece.encode("utf-8", _ESCAPED))
        self._line += piece.count("\n")
        self._char = pos
        return self._byte, self._line


def _scan_array(
    text: str, pos: int, first_line: int | None = None, closed: list[int] | None = None
) -> Iterator[tuple[int, int, Any, str | None]]:
    """Yield ``(start, end, value, error)`` for the items of the array opening at ``pos``.

    When the array closes, the position after its ``]`` is appended to ``closed``.
    """
    pos = _skip(text, pos + 1)
    if text.startswith("]", pos):
        if closed is not None:
            closed.append(pos + 1)
        return
    while True:
        try:
            value, end = _DECODER.raw_decode(text, pos)
            error = None
        except (ValueError, RecursionError) as exc:  # too deep: that item alone, when its end is found
            value, error = None, _reason(exc, first_line)
            end = _jsondeep.value_end(text, pos) if isinstance(exc, RecursionError) else -1
        yield pos, end, value, error
        if end < 0:
            return
        pos = _skip(text, end)
        if text.startswith(",", pos):
            pos = _skip(text, pos + 1)
        elif text.startswith("]", pos):
            if closed is not None:
                closed.append(pos + 1)
            return
        else:
            yield pos, -1, None, "not JSON: expected ',' or ']' after an array item"
            return


def _item_chunk(
    data: bytes, base: int, pos: _Positions, span: tuple[int, int], label: str, value: Any, error: str | None
) -> Chunk:
    """A chunk for ``text[start:end]``; ``data`` holds the bytes from absolute offset ``base``."""
    start, end = span
    offset, line = pos.at(start)
    where = f"line {line} {label}".strip()
    if end < 0:
        return Chunk(where, offset, _line_length(data, offset - base), line, error=error)
    end_offset, _ = pos.at(end)
    deep = None
    if error == _DEEP:  # read with a stand-in for what is past values.MAX_DEPTH, as a line is
        value, failed, deep = values.loads_noted(pos.text[start:end])
        error = error if failed is not None else None
    if error is not None:
        return Chunk(where, offset, end_offset - offset, line, error=error)
    if _SURROGATE_ESCAPE.search(pos.text, start, end) is not None:
        value = values.valid(value)
    chunk = Chunk(where, offset, end_offset - offset, line, value, note=deep)
    if pos.controls and values.has_control(pos.text, start, end):
        chunk.note = values.CONTROL_NOTE if chunk.note is None else f"{chunk.note}; {values.CONTROL_NOTE}"
    if not pos.ascii:
        try:
            data[offset - base : end_offset - base].decode("utf-8")
        except UnicodeDecodeError as exc:  # its bad bytes are lone surrogates in the value: U+FFFD
            note = values.utf8_note(exc.start)
            chunk.value, chunk.note = (
                values.valid(value),
                note if chunk.note is None else f"{note}; {chunk.note}",
            )
    return chunk


def _line_length(data: bytes, start: int) -> int:
    end = data.find(b"\n", start)
    return (len(data) if end < 0 else end) - start


def _split_array(
    text: str,
    data: bytes,
    base: int,
    pos: _Positions,
    at: int,
    label: Callable[[int], str],
    closed: list[int] | None = None,
) -> Iterator[Chunk]:
    """Chunks for the items of the array at ``at``; the last one carries the error if it breaks."""
    first_line = pos.first_line if pos.multiline else None
    for number, (start, end, value, error) in enumerate(_scan_array(text, at, first_line, closed), 1):
        yield _item_chunk(data, base, pos, (start, end), label(number), value, error)


def _item_label(number: int) -> str:
    return f"item {number}"


def read_chunks(path: str) -> Iterator[Chunk]:
    """The JSON values of a JSON Lines file or JSON document; arrays at the top are split into items.

    A file whose first line is a JSON value by itself is read line by line (a bad line becomes an
    error chunk and the next line is read); otherwise the file is one JSON document (or several, one
    after another), and reading stops at the first place it cannot be decoded. A file of one line
    nested too deeply to decode whole is a document too: its items and members are read one by one.
    """
    with open_binary(path) as fh:
        first = _first_line(fh)
        if first is None:
            return
        offset, raw = first
        fh.seek(0)
        reason = loads(raw)[1]
        if reason is None:
            yield from _block_lines(fh)
            return
        data = fh.read()
    if _spans_lines(raw) or (reason == _DEEP and not data[offset + len(raw) :].strip()):
        yield from _document(data, offset)
    else:
        yield from _lines(_split_lines(data))


LONG_LINE = 1 << 20
"""A JSON Lines file is read in blocks of this size (common/lineblocks.py); a longer line comes alone,
in a buffer of its exact size (the huge record's path: parsed from its text past ``HUGE_TEXT``)."""


def _block_lines(fh: BinaryIO) -> Iterator[Chunk]:
    """The chunks of a JSON Lines file, as ``_lines`` gives them for its lines, read in blocks.

    A block's newlines are found in C and a line that is a JSON value other than an array (nearly every
    line) is decoded by msgspec from a view of the buffer (no copy of the line), its chunk made here;
    any other line (blank, not JSON, an array, the first line: a byte-order mark, the last line without
    a newline) goes through ``_line_chunks`` with its newline, as it did; a line of ``LONG_LINE`` bytes
    or more, read into a buffer of its own, goes there whole (its buffer emptied past ``HUGE_TEXT``).
    """
    number = 0
    for offset, buffer, size, own in line_blocks(fh, LONG_LINE):
        if own:
            number += 1
            yield from _line_of(buffer, offset, number)
            continue
        find = buffer.find
        pos = 0
        with memoryview(buffer) as view:
            while (newline := find(b"\n", pos, size)) >= 0:
                number += 1
                if number > 1:  # a line of the buffer is shorter than LONG_LINE
                    try:
                        value = _decode(view[pos:newline])
                    except (ValueError, TypeError, RecursionError):
                        pass  # _line_chunks says why, or reads what msgspec refuses
                    else:
                        if type(value) is not list:
                            end = newline
                            while end > pos and buffer[end - 1] == 13:  # carriage returns before it
                                end -= 1
                            yield Chunk(f"line {number}", offset + pos, end - pos, number, value)
                            pos = newline + 1
                            continue
                yield from _line_of(bytes(view[pos : newline + 1]), offset + pos, number)
                pos = newline + 1
            if pos < size:  # the last line, with no newline
                number += 1
                yield from _line_of(bytes(view[pos:size]), offset + pos, number)


def _line_of(raw: bytes | bytearray, offset: int, number: int) -> Iterator[Chunk]:
    """The chunks of one line at ``offset`` (``_lines`` for one line: the first one's byte-order mark)."""
    if number == 1 and raw.startswith(_BOM):
        offset, raw = offset + len(_BOM), raw[len(_BOM) :]
    return _line_chunks(raw, offset, number)


def _split_lines(data: bytes) -> Iterator[bytes]:
    start = 0
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end + 1
        yield data[start:end]
        start = end


def _first_line(fh: BinaryIO) -> tuple[int, bytes] | None:
    offset = 0
    for number, raw in enumerate(fh):
        if number == 0 and raw.startswith(_BOM):
            offset, raw = len(_BOM), raw[len(_BOM) :]
        if raw.strip():
            return offset, raw
        offset += len(raw)
    return None


def _spans_lines(raw: bytes) -> bool:
    """True when the first line opens a value that its end leaves unfinished (a multi-line document)."""
    text = raw.decode("utf-8", _ESCAPED).rstrip()
    start = _skip(text, 0)
    if not text.startswith(("{", "["), start):
        return False
    try:
        _DECODER.raw_decode(text, start)
    except json.JSONDecodeError as exc:
        return exc.pos >= len(text)
    except (ValueError, RecursionError):
        return False
    return False


def _lines(lines: Iterable[bytes | bytearray]) -> Iterator[Chunk]:
    offset = 0
    for number, raw in enumerate(lines, 1):
        start = offset
        offset += len(raw)
        if number == 1 and raw.startswith(_BOM):
            start, raw = start + len(_BOM), raw[len(_BOM) :]
        yield from _line_chunks(raw, start, number)


_LINE_WHERE = re.compile(r"line (\d+)")


def line_chunks(line: bytes, offset: int, where: str) -> Iterator[Chunk]:
    """The chunks of one JSON Lines line found at ``offset`` (for following a growing file).

    ``where`` names the line ("line 12"); a UTF-8 byte-order mark at the start is skipped.
    """
    match = _LINE_WHERE.match(where)
    number = int(match.group(1)) if match else 1
    if line.startswith(_BOM):
        line, offset = line[len(_BOM) :], offset + len(_BOM)
    return _line_chunks(line, offset, number)


def _line_chunks(raw: bytes | bytearray, offset: int, number: int) -> Iterator[Chunk]:
    end = len(raw)
    while end and raw[end - 1] in b"\r\n":
        end -= 1
    if not end or (raw[:64].isspace() and not raw[:end].strip()):  # blank (a full strip only then)
        return
    text = _take_huge(raw, end)
    note = None
    if text is not None:  # the line's bytes are gone: parse its text (2x the record, not 3x)
        value, error = values.loads_text(text)
    else:  # the line's end is blank to msgspec: no cut (a failure is told on the cut line)
        value, error, note = values.loads_line(raw, end)
    if error is not None:
        yield Chunk(f"line {number}", offset, end, number, error=error)
    elif isinstance(value, list):  # its items are read again one by one, each saying its own bad bytes
        data = bytes(raw[:end]) if text is None else text.encode("utf-8")
        text = data.decode("utf-8", _ESCAPED)
        pos = _Positions(text, offset, number)
        yield from _split_array(text, data, offset, pos, _skip(text, 0), _item_label)
    else:
        yield Chunk(f"line {number}", offset, end, number, value, note=note)


def _take_huge(raw: bytes | bytearray, end: int) -> str | None:
    """A huge line read into its own buffer (``line_blocks``) as text, the buffer emptied; else None.

    orjson holds one more copy of a long string while it parses it; the text and the stdlib parser
    hold two copies in all (see bench/bench_huge_record.py).
    """
    if not isinstance(raw, bytearray) or end <= values.HUGE_TEXT:
        return None
    return take_text(raw, 0, end)


def _one_object(data: bytes, offset: int) -> Chunk | None:
    """The chunk of a document that is one object and nothing after it, the common case, read by
    ``loads`` (msgspec) from the bytes, with no text of the whole file; None for any other document.
    ``loads`` only succeeds on valid UTF-8 and replaces lone surrogates, as the item path does."""
    start = _WS_BYTES.match(data, offset).end()  # type: ignore[union-attr]
    end = len(data)
    while end > start and data[end - 1] in b" \t\n\r":
        end -= 1
        if len(data) - end > 4096:  # a long tail of blanks: the general path
            return None
    if not data.startswith(b"{", start):
        return None
    with memoryview(data) as view:
        value, error, note = values.loads_noted(view[start:end])
    if error is not None or not isinstance(value, dict):
        return None
    line = 1 + data.count(b"\n", 0, start)
    return Chunk(f"line {line}", start, end - start, line, value, note=note)


def _document(data: bytes, offset: int) -> Iterator[Chunk]:
    whole = _one_object(data, offset)
    if whole is not None:
        yield whole
        return
    text = data[offset:].decode("utf-8", _ESCAPED)
    pos = _Positions(text, offset, 1 + data[:offset].count(b"\n"))
    at = _skip(text, 0)
    while at < len(text):
        if text.startswith("[", at):
            closed: list[int] = []
            broken = False
            for chunk in _split_array(text, data, 0, pos, at, _item_label, closed):
                broken = chunk.error is not None
                yield chunk
            if not closed:
                if not broken:  # never expected: an array that neither closes nor fails
                    yield _item_chunk(data, 0, pos, (at, -1), "", None, "not JSON: the array does not close")
                return
            end = closed[0]
        else:
            try:
                value, end = _DECODER.raw_decode(text, at)
                error = None
            except (ValueError, RecursionError) as exc:
                value, end, error = None, -1, _reason(exc, pos.first_line)
                if isinstance(exc, RecursionError) and text.startswith("{", at):
                    value, end, error = _shallow(text, at, error)
            yield _item_chunk(data, 0, pos, (at, end), "", value, error)
            if end < 0:
                return
        at = _skip(text, end)


def member_chunks(data: bytes, chunk: Chunk) -> Iterator[tuple[str, Chunk]]:
    """The object members of ``chunk`` (whose bytes are ``data``) that hold objects or arrays.

    Yields ``(key, item)`` for a member whose value is an object, and for every item of a member
    whose value is an array, each with its own span.
    """
    text = data.decode("utf-8", _ESCAPED)
    pos = _Positions(text, chunk.offset, chunk.line)
    at = _skip(text, 0)
    if not text.startswith("{", at):
        return
    found: list[tuple[str, Chunk]] = []

    def items(key: str, start: int) -> int:  # an array member, split as it is read: decoded once
        closed: list[int] = []
        for item in _split_array(text, data, chunk.offset, pos, start, _member_label(key), closed):
            found.append((key, item))
        return closed[0] if closed else -1

    try:  # nothing of an object that is not JSON somewhere (as when it was decoded whole first)
        for key, start, end, value in _jsondeep.scan_object(text, at, items):
            if isinstance(value, dict):
                found.append((key, _item_chunk(data, chunk.offset, pos, (start, end), key, value, None)))
    except (ValueError, RecursionError):
        return
    yield from found


def _member_label(key: str) -> Callable[[int], str]:
    return lambda number: f"{key}[{number - 1}]"


def _shallow(text: str, at: int, error: str) -> tuple[Any, int, str | None]:
    """A document object too deep to decode whole, read member by member (or the error as it was)."""
    try:
        value, end = _jsondeep.shallow_object(text, at)
    except (ValueError, RecursionError):
        return None, -1, error
    return (value, end, None) if end > 0 else (None, -1, error)
