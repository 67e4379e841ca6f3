"""A Gemini CLI session document (``session-*.json``) split into its messages in one pass, each parsed once.

The CLI writes a session as ``JSON.stringify(conversation, null, 2)``: the header's members, then
``"messages": [`` with one message object after another, each on lines of its own, separated by
``},`` and the same indentation before the next ``{``. That layout gives each message's bytes by plain
searches; each message is then parsed by itself (``values.loads_json``: exact numbers, valid text), and
the header with the messages left out, a unique string in their place.

The split is proven, not trusted: when every span parses whole as one value, and the header parses as an
object whose only ``messages`` member holds just the stand-in, the document is valid JSON and its messages
are exactly those values, in that order (a JSON value ends where its text ends: no split of a message
can parse whole). Anything else (another layout, a bad message, a second ``messages`` key) gives None,
and the document is read by the general path (``jsonfile.read_chunks`` and ``member_chunks``), which
says where it breaks. Both give the same messages, spans and line numbers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from inspector.model import values
from inspector.protocols.common.jsonfile import Chunk
from inspector.userpath import open_binary

_BOM = b"\xef\xbb\xbf"
# the first line of the document: its opening brace alone (what read_chunks reads as a document)
_OPENS = re.compile(rb"\A(?:\xef\xbb\xbf)?(?:[ \t\r]*\n)*[ \t\r]*\{[ \t\r]*\n")
_WS = re.compile(rb"[ \t\n\r]*")
_MESSAGES = re.compile(rb'"messages"[ \t\n\r]*:[ \t\n\r]*\[')
_STAND_IN = "inspector: the messages of this session were here"
_STAND_IN_JSON = b'"' + _STAND_IN.encode() + b'"'
_TRAILING = 4096  # as jsonfile's one-object read: a longer tail of blanks takes the general path
_ENDINGS = 16  # where the last message may end: the closing brackets tried before giving up


@dataclass(slots=True)
class Split:
    """The document's header (its other members; ``messages`` holds the messages' values) and one chunk
    per message, as ``member_chunks`` gives them."""

    header: dict[str, Any]
    items: list[Chunk]


def split(path: str) -> Split | None:
    """The messages of the session document at ``path``, or None when it is not one this reads (a JSON
    Lines log, another layout, anything unreadable: the general path reads those and says why)."""
    with open_binary(path) as fh:
        if _OPENS.match(fh.read(4096)) is None:
            return None
        fh.seek(0)
        data = fh.read()
    try:
        return _split(data)
    except (ValueError, IndexError):  # never expected (spans are checked); the general path decides
        return None


def _split(data: bytes) -> Split | None:
    start = _WS.match(data, len(_BOM) if data.startswith(_BOM) else 0).end()  # type: ignore[union-attr]
    end = len(data)
    while end > start and data[end - 1] in b" \t\n\r":
        end -= 1
    if len(data) - end > _TRAILING:
        return None
    found = _MESSAGES.search(data, start, end)
    if found is None:
        return None
    first = _WS.match(data, found.end()).end()  # type: ignore[union-attr]
    if data[first : first + 1] != b"{":
        return None  # no message, or not objects: the general path (short)
    separator = b"}," + data[found.end() : first] + b"{"
    starts = [first]
    at = data.find(separator, first, end)
    while at >= 0:
        starts.append(at + len(separator) - 1)
        at = data.find(separator, starts[-1], end)
    last = _last_message(data, found.start(), starts, end)
    if last is None:
        return None
    value_end, last_value = last
    header = _header(data[start : found.end()], data[value_end:end])
    if header is None:
        return None
    view = memoryview(data)
    items: list[Chunk] = []
    count, decode = data.count, values.fast_loads
    line = 1 + count(b"\n", 0, first)
    found_values: list[Any] = []
    begin = first
    back = len(separator) - 2  # a message ends back this far from where the next one begins
    final = len(starts) - 1
    for number in range(final):  # every message but the last, parsed in _last_message already
        after = starts[number + 1]
        stop = after - back
        value: Any
        try:  # loads_noted's fast path, without its call and its tuple
            value = decode(view[begin:stop])
        except (ValueError, TypeError, RecursionError):
            value, error, note = values.loads_noted(view[begin:stop])
            if error is not None or note is not None:  # bytes not UTF-8: the general path says where
                return None
        items.append(Chunk(f"line {line} messages[{number}]", begin, stop - begin, line, value))
        found_values.append(value)
        line += count(b"\n", begin, after)
        begin = after
    items.append(Chunk(f"line {line} messages[{final}]", begin, value_end - begin, line, last_value))
    found_values.append(last_value)
    header["messages"] = found_values
    return Split(header, items)


def _last_message(data: bytes, key: int, starts: list[int], end: int) -> tuple[int, Any] | None:
    """Where the last message ends and its value, ``starts`` cut to the messages before it.

    The array's ``]`` is on a line indented as the ``"messages"`` key's (how the CLI writes it): the
    first such line after the first message closes it (separators found after it belong to another
    array). Else (a message holds such a line) the last message is the one after the last separator,
    ended by the next such line, or the document's last ``]``."""
    indent = data[data.rfind(b"\n", 0, key) + 1 : key]
    closing = b"\n" + indent + b"]" if not indent.strip() else b""
    at = data.find(closing, starts[0], end) if closing else -1
    if at >= 0:
        kept = [start for start in starts if start < at]
        found = _ending(data, kept[-1], [at + len(closing) - 1])
        if found is not None:
            del starts[len(kept) :]
            return found
    closings: list[int] = []
    at = data.find(closing, starts[-1], end) if closing else -1
    while at >= 0 and len(closings) < _ENDINGS:
        closings.append(at + len(closing) - 1)
        at = data.find(closing, at + 1, end)
    last = data.rfind(b"]", starts[-1], end)
    if last >= 0 and last not in closings:
        closings.append(last)
    return _ending(data, starts[-1], closings)


def _ending(data: bytes, begin: int, closings: list[int]) -> tuple[int, Any] | None:
    """The first of ``closings`` before which the text from ``begin`` is one JSON object, and its value."""
    view = memoryview(data)
    for closing in closings:
        stop = closing
        while stop > begin and data[stop - 1] in b" \t\n\r":
            stop -= 1
        if data[stop - 1 : stop] != b"}":
            continue
        value, error, note = values.loads_noted(view[begin:stop])
        if error is None and note is None:
            return stop, value
    return None


def _header(before: bytes, after: bytes) -> dict[str, Any] | None:
    """The document with the messages replaced by the stand-in, parsed; None unless it is an object
    whose one ``messages`` member (written once, no escape could spell another) is ``[stand-in]``."""
    if _STAND_IN_JSON in before or _STAND_IN_JSON in after or b"\\u" in before or b"\\u" in after:
        return None
    if before.count(b'"messages"') + after.count(b'"messages"') != 1:
        return None
    value, error, note = values.loads_noted(before + _STAND_IN_JSON + after)
    if (
        error is not None
        or note is not None
        or type(value) is not dict
        or value.get("messages") != [_STAND_IN]
    ):
        return None
    return value
