"""JSON containers read member by member, so a value nested deeper than the parser follows costs only itself.

``json`` gives up on a value nested past the recursion limit without saying where it ends; these
helpers find its end without recursion, so the items and members around it are still read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

from inspector.model import values


class _Decoder:
    """``raw_decode`` exact as ``values.parse_int`` keeps integers, at the speed of the C scanner's own
    integers: a hook called for every integer costs a Python call each (a tenth of a document's read),
    so the hook decodes again only a value holding an integer past Python's digit limit, the one case
    where plain ``int`` fails (a ValueError that is not a JSONDecodeError)."""

    _plain = json.JSONDecoder()
    _exact = json.JSONDecoder(parse_int=values.parse_int)
    _lenient = json.JSONDecoder(parse_int=values.parse_int, strict=False)

    def raw_decode(self, text: str, pos: int = 0) -> tuple[Any, int]:
        """A control character raw inside a string is read as written (``values.has_control`` says
        where the reader notes it)."""
        try:
            return self._plain.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            if not exc.msg.startswith("Invalid control character"):
                raise
            return self._lenient.raw_decode(text, pos)
        except ValueError:
            return self._exact.raw_decode(text, pos)


DECODER = _Decoder()
"""The exact decoder of the JSON formats (shared with _jsonfile)."""
_WS = re.compile(r"[ \t\n\r]*")
# the tokens that change the depth, with strings taken whole (a bracket inside one is text)
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)
TOO_DEEP: Any = object()
"""A member's value that was nested too deeply to decode (its span is still known)."""
SPLIT: Any = object()
"""A member's array that ``scan_object`` left to its ``arrays`` reader."""


def skip(text: str, pos: int) -> int:
    match = _WS.match(text, pos)
    return match.end() if match else pos


def value_end(text: str, pos: int) -> int:
    """The position after the array or object opening at ``pos``, or -1 when it never closes."""
    if not text.startswith(("[", "{"), pos):
        return -1
    depth = 0
    for token in _TOKENS.finditer(text, pos):
        mark = token.group(0)
        if mark in "[{":
            depth += 1
        elif mark in "]}":
            depth -= 1
            if depth == 0:
                return token.end()
    return -1


def scan_object(
    text: str, at: int, arrays: Callable[[str, int], int] | None = None
) -> Iterator[tuple[str, int, int, Any]]:
    """``(key, start, end, value)`` for each member of the object opening at ``at``; a value nested too
    deeply is :data:`TOO_DEEP` (raises ``ValueError`` where the object is not JSON). With ``arrays``, a
    member whose value is an array is not decoded here: ``arrays(key, start)`` reads it (item by item)
    and gives the position after it, or -1 when it breaks; its value is :data:`SPLIT`."""
    at = skip(text, at + 1)
    while not text.startswith("}", at):
        key, at = DECODER.raw_decode(text, at)
        at = skip(text, at)
        if not text.startswith(":", at):
            raise ValueError("expected ':'")
        start = skip(text, at + 1)
        if arrays is not None and text.startswith("[", start):
            value, end = SPLIT, arrays(str(key), start)
            if end < 0:
                raise ValueError("an array member does not close")
        else:
            try:
                value, end = DECODER.raw_decode(text, start)
            except RecursionError:
                value, end = TOO_DEEP, value_end(text, start)
                if end < 0:
                    raise ValueError("a member nested too deeply never closes") from None
        yield str(key), start, end, value
        at = skip(text, end)
        if text.startswith(",", at):
            at = skip(text, at + 1)
        elif not text.startswith("}", at):
            raise ValueError("expected ',' or '}'")


def shallow_object(text: str, at: int) -> tuple[dict[str, Any], int]:
    """An object too deep to decode whole: its members that decode, an array member too deep as ``[]``
    (its items are read one by one where the reader splits it), and the position after it."""
    members = {
        key: ([] if text.startswith("[", start) else None) if value is TOO_DEEP else value
        for key, start, _, value in scan_object(text, at)
    }
    return members, value_end(text, at)
