"""What a format detector looks at: the JSON values at the head of a file (no spans, no errors kept)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

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
        if len(text) <= keep + 2:
            return text
        body = text[1 : keep + 1]
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

    return _STRING.sub(cut, line)


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
