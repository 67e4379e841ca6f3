"""A value from a session, made safe once: exact integers, finite times, clamped durations, valid text.

Every decoder reads JSON through ``loads_json`` and gives times and timeouts to the events, whose
constructors pass them through ``time_s`` and ``duration_ms``; nothing downstream checks again.
Text is made valid here (lone surrogates become U+FFFD; the raw view still shows the original bytes)
and inert where it is shown (``inspector.textsafe``), or by ``dumps_json`` for JSON outputs.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterator
from typing import Any

_fast_loads: Callable[[bytes | bytearray | memoryview], Any] | None
try:  # msgspec is a dependency; plain json keeps the module usable without it
    from msgspec.json import Decoder as _Decoder

    _fast_loads = _Decoder().decode
except ImportError:  # pragma: no cover
    _fast_loads = None


def _no_fast_loads(data: bytes | bytearray | memoryview) -> Any:
    raise ValueError("no msgspec")  # loads_noted then reads it


fast_loads: Callable[[bytes | bytearray | memoryview], Any] = _fast_loads or _no_fast_loads
"""msgspec's parse of a record's bytes, for a loop that calls it for each: ``loads_noted``'s fast path
without its call. It raises (ValueError, TypeError or RecursionError) where ``loads_noted`` would go on:
its caller then asks ``loads_noted``."""

# Epoch seconds a clock can show: 1970 to the end of year 9999 (time_t and strftime both cope).
MIN_TIME_S = 0.0
MAX_TIME_S = 253402300799.0
# A timeout or duration longer than a hundred years is not one: clamp it (the raw record keeps it).
MAX_DURATION_MS = 100 * 365 * 24 * 3600 * 1000
# Python refuses to turn longer digit strings into ints (CVE-2020-10735); keep them as their digits.
MAX_INT_DIGITS = 4300
# A hunk's line number past this is not a line of any file the UI can show.
MAX_LINE_NO = 10**9

_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89abcdefABCDEF]")
_SURROGATE_ESCAPE_TEXT = re.compile(r"\\u[dD][89abcdefABCDEF]")
# Text past this size is parsed by ``loads_text`` (see bench/bench_huge_record.py).
HUGE_TEXT = 8 * 1024 * 1024
_SURROGATE = re.compile("[\ud800-\udfff]")


def parse_int(digits: str) -> int | str:
    return int(digits) if len(digits.lstrip("-")) <= MAX_INT_DIGITS else digits


def _reason(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return "nested too deeply to decode"
    if isinstance(exc, json.JSONDecodeError):
        return f"not JSON: {exc.msg} (column {exc.colno})"
    if isinstance(exc, UnicodeDecodeError):
        return f"not valid UTF-8 (byte {exc.start})"
    return f"not JSON: {str(exc)[:160]}"


def loads_json(data: bytes | bytearray | memoryview | str) -> tuple[Any, str | None]:
    """One JSON value, exact and valid: ``(value, None)``, or ``(None, reason)`` when unreadable.

    msgspec, which reads integers of any size Python takes exactly (orjson made floats of those past
    64 bits, and every record had to be searched for one: a sixth of a read); else the stdlib
    parser, with integers too long for Python kept as their digit strings and lone surrogates replaced.
    Bytes that are not UTF-8 are read as U+FFFD (``loads_noted`` also says that they were). A value
    nested past the parser's depth is an error here (the JSON text inside a record, an argument, stays
    text); a record's reader reads it with a stand-in (``loads_noted``).
    """
    value, error, _ = _loads(data, False)
    return value, error


# The stdlib's parsers, made once: ``json.loads`` with a keyword builds a decoder per call (a third of
# what a malformed line cost).
_STRICT = json.JSONDecoder(parse_int=parse_int)
_LAX = json.JSONDecoder(parse_int=parse_int, strict=False)


def _json(text: str, decoder: json.JSONDecoder = _STRICT) -> Any:
    """``json.loads(text, parse_int=parse_int)`` (``strict=False`` with ``_LAX``), its decoder made once."""
    if text.startswith("\ufeff"):  # what json.loads says of it (its decoder alone would not)
        raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    return decoder.decode(text)


def loads_refused(data: bytes | bytearray | memoryview) -> tuple[Any, str | None, str | None]:
    """``loads_noted`` of a record's bytes that msgspec (``fast_loads``) has just refused: the stdlib's
    reading and reason, without asking msgspec again (a malformed line costs one failed parse of each)."""
    return _loads_bytes(bytes(data), True)


def loads_line(data: bytes | bytearray, end: int) -> tuple[Any, str | None, str | None]:
    """``loads_noted`` of a line whose bytes past ``end`` are its line end: msgspec reads the line as it
    is (no copy; a line end is blank to it), and only a line it refuses is cut at ``end`` for the stdlib,
    whose reason then names the line's own column, once."""
    if _fast_loads is not None:
        try:
            return _fast_loads(data), None, None
        except (ValueError, TypeError, RecursionError):
            return _loads_bytes(bytes(data[:end]), True)
    return _loads(data if end == len(data) else bytes(data[:end]), True)


def loads_noted(data: bytes | bytearray | memoryview | str) -> tuple[Any, str | None, str | None]:
    """A record (a line, an item, a body): ``loads_json``, and a note of what was wrong with it that did
    not stop its read: ``(value, None, note)``, bytes not UTF-8 read as U+FFFD, control characters raw in
    its strings, NUL bytes around it, values nested past MAX_DEPTH shown as a stand-in. Its reader
    turns the note into a ``Malformed`` event beside the record's own events (``events.noted``)."""
    if _fast_loads is not None and not isinstance(data, str):  # a record's bytes (nearly every one): _loads'
        # fast path without its call
        try:
            return _fast_loads(data), None, None
        except (ValueError, TypeError, RecursionError):
            return _loads_bytes(bytes(data), True)  # as _loads goes on after msgspec refused
    return _loads(data, True)


def _loads(data: bytes | bytearray | memoryview | str, record: bool) -> tuple[Any, str | None, str | None]:
    if isinstance(data, str) and len(data) > HUGE_TEXT:
        return (*loads_text(data, record), None)
    # no copy of the bytes on the fast path: a 200 MB line costs its bytes and its parsed value only
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if _fast_loads is not None:
        try:
            return _fast_loads(raw), None, None
        except (ValueError, TypeError, RecursionError):
            pass  # the stdlib parser says why, and reads what msgspec refuses (lone surrogates, NaN,
            # an integer past Python's digit limit, a float past the largest, bytes that are not UTF-8)
    return _loads_bytes(bytes(raw), record)


def utf8_note(byte: int) -> str:
    """What a reader says of a record whose bytes were not all UTF-8 (and that it read all the same);
    ``byte``: the first bad one's offset in the record."""
    return f"held invalid UTF-8 (byte {byte}): read with U+FFFD in place of each bad byte"


def text_noted(data: bytes | bytearray | memoryview | str) -> tuple[str, str | None]:
    """``data`` as text, and the note of ``utf8_note`` when it was not all UTF-8: one U+FFFD for each
    byte that is not, as every reader of a file, a frame or a packet puts it."""
    text, bad = _text_bad(data)
    return text, None if bad is None else utf8_note(bad)


def _text_bad(data: bytes | bytearray | memoryview | str) -> tuple[str, int | None]:
    """``text_noted``, with the offset of the first bad byte in place of the note."""
    if isinstance(data, str):
        return data, None
    try:
        return str(data, "utf-8"), None
    except UnicodeDecodeError as exc:
        return _SURROGATE.sub("\ufffd", str(data, "utf-8", "surrogateescape")), exc.start


def loads_text(text: str, record: bool = False) -> tuple[Any, str | None]:
    """A huge record given as text: the stdlib parser builds the value with no working copy (orjson
    holds one more copy of a long string while it parses: 3x a 200 MB record instead of 2x).
    ``record``: a record read again, as ``loads_noted`` reads it (its note said by the first read)."""
    try:
        value = _json(text)
    except (ValueError, RecursionError) as exc:
        lenient = (
            _lenient(text) if isinstance(exc, json.JSONDecodeError) else _shallow(text) if record else None
        )
        if lenient is None:
            return None, _reason(exc)
        value = lenient[0]  # as loads_noted reads it (its note said by the read that found it)
    if _SURROGATE_ESCAPE_TEXT.search(text) is not None:
        value = valid(value)
    return value, None


def _loads_bytes(raw: bytes, record: bool) -> tuple[Any, str | None, str | None]:
    text, bad = _text_bad(raw)
    notes = [] if bad is None else [utf8_note(bad)]
    try:
        value = _json(text)
    except (ValueError, RecursionError) as exc:
        lenient = (
            _lenient(text) if isinstance(exc, json.JSONDecodeError) else _shallow(text) if record else None
        )
        if lenient is None:
            reason = _reason(exc)
            return None, reason if bad is None else f"not valid UTF-8 (byte {bad}), and {reason}", None
        value, more = lenient
        notes += more
    if _SURROGATE_ESCAPE.search(raw) is not None:
        value = valid(value)
    return value, None, "; ".join(notes) or None


CONTROL_NOTE = "held control characters inside a string, which JSON does not allow: read as written"
_NULS = " \t\r\n\x00"


def _lenient(text: str) -> tuple[Any, list[str]] | None:
    """A record the strict parser refused for what does not hide what it says: NUL bytes around it (the
    zeros a crash leaves in a file, before the next line is written) and control characters raw inside
    its strings (JSON wants them escaped). Its value and what is said of it; None when it is not JSON
    all the same."""
    if "\x00" not in text and not _CONTROL.search(text):
        return None
    notes = []
    stripped = text.strip(_NULS)
    count = text.count("\x00") - stripped.count("\x00")
    if count:
        notes.append(
            f"had {count} NUL byte{'s' if count > 1 else ''} around it (as a crash leaves in a file)"
        )
    try:
        value = _json(stripped)
    except json.JSONDecodeError:
        try:
            value = _json(stripped, _LAX)
        except (ValueError, RecursionError):
            return None
        notes.append(CONTROL_NOTE)
    except (ValueError, RecursionError):
        return None
    return value, notes


MAX_DEPTH = 200
"""Nesting a record's value may have before what is deeper is shown as ``DEEP_STAND_IN``."""
DEEP_STAND_IN = "(nested too deeply to show)"
SHALLOW_LIMIT = 1 << 20
"""A record longer than this that is nested too deeply stays malformed (its scan costs ~1 s a MB)."""
_DEPTH_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


def _shallow(text: str) -> tuple[Any, list[str]] | None:
    """A record nested deeper than the parser follows, its values past MAX_DEPTH levels each replaced by
    ``DEEP_STAND_IN``: the record is read, not lost for one deep value (a batch of spans, a call's
    arguments); None when it is not JSON all the same."""
    if len(text) > SHALLOW_LIMIT:
        return None  # past it, the scan would cost more than the record is worth: malformed, as before
    pieces: list[str] = []
    depth = deepest = 0
    last = cut = -1
    for token in _DEPTH_TOKENS.finditer(text):
        mark = token.group(0)
        if mark[0] == '"':
            continue
        if mark in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if depth == MAX_DEPTH + 1:
                cut = token.start()
        else:
            if depth == MAX_DEPTH + 1 and cut >= 0:
                pieces += [text[last + 1 if last >= 0 else 0 : cut], json.dumps(DEEP_STAND_IN)]
                last, cut = token.end() - 1, -1
            depth -= 1
    if not pieces:
        return None
    pieces.append(text[last + 1 :])
    try:
        value = _json("".join(pieces))
    except (ValueError, RecursionError):
        return None
    return value, [deep_note(deepest)]


def deep_note(deepest: int) -> str:
    """What a reader says of a record (JSON or MessagePack) read with a stand-in past ``MAX_DEPTH``."""
    return f"held a value nested {deepest} levels deep: what is past {MAX_DEPTH} is shown as a stand-in"


_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


def has_control(text: str, start: int = 0, end: int | None = None) -> bool:
    """True when ``text[start:end]`` holds a control character JSON only allows escaped (tab, newline and
    carriage return aside: they are also blanks between values)."""
    return _CONTROL.search(text, start, len(text) if end is None else end) is not None


def valid(value: Any) -> Any:
    """``value`` with every lone surrogate in its strings (and keys) replaced by U+FFFD.

    Containers are fixed in place (they are fresh from a parser), without recursion: nesting as
    deep as the parser allowed never raises here.
    """
    if isinstance(value, str):
        return valid_text(value)
    if not isinstance(value, (dict, list)):
        return value
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            renamed = [k for k in item if isinstance(k, str) and valid_text(k) is not k]
            for key in renamed:
                item[valid_text(key)] = item.pop(key)
            pairs: Any = item.items()
        else:
            pairs = enumerate(item)
        for key, child in list(pairs):
            if isinstance(child, str):
                fixed = valid_text(child)
                if fixed is not child:
                    item[key] = fixed
            elif isinstance(child, (dict, list)):
                stack.append(child)
    return value


def valid_text(text: str) -> str:
    """``text`` that encodes as UTF-8: lone surrogates become U+FFFD."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)
    return text


def number(value: Any) -> float | None:
    """A finite float for an int or float (huge ints and NaN/inf give None; bools are not numbers)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        result = float(value)
    except OverflowError:
        return None
    return result if math.isfinite(result) else None


def time_s(value: Any) -> float | None:
    """Epoch seconds a clock can show, or None (NaN, infinities and times past year 9999 are no time)."""
    if type(value) is float and MIN_TIME_S <= value <= MAX_TIME_S:  # the common case (NaN fails here)
        return value
    if value is None:
        return None
    seconds = number(value)
    if seconds is None or not MIN_TIME_S <= seconds <= MAX_TIME_S:
        return None
    return seconds


def duration_ms(value: Any) -> int | None:
    """A timeout or duration in whole milliseconds, within 0 and a hundred years; None if not a number."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, int):
        return min(max(value, 0), MAX_DURATION_MS)
    if math.isnan(value):
        return None
    return int(min(max(value, 0.0), float(MAX_DURATION_MS)))


def line_no(value: Any) -> int | None:
    """A line number or count of a diff hunk, or None when no file has it (negative, huge, not an int)."""
    if isinstance(value, str):
        return digits(value) if value.isascii() and value.isdigit() else None
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if 0 <= value <= MAX_LINE_NO else None


def digits(text: str) -> int | None:
    """The int written by a run of ASCII digits, or None past ``MAX_LINE_NO`` (never a ValueError)."""
    text = text.lstrip("0") or "0"
    if len(text) > 10:
        return None
    return line_no(int(text))


# -- JSON for outputs ------------------------------------------------------------------------
# Inside a JSON string these stay valid but act on a terminal that shows the JSON (C1 controls,
# bidi overrides, invisible formatting, lone surrogates): write them as \u escapes.
_JSON_UNSAFE = re.compile(
    "[\x7f-\x9f\xad\u061c\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff"
    "\ufff9-\ufffb\ud800-\udfff\U000e0000-\U000e007f]"
)


def _json_escape(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _json_default(value: Any) -> Any:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).hex()
    return repr(value)


def dumps_json(value: Any, **options: Any) -> str:
    """JSON text for an output: UTF-8 kept readable, strict JSON (a NaN or an infinity read from a session
    is written as the string "NaN", "Infinity" or "-Infinity", which every JSON reader accepts), and
    nothing in it can act on a terminal."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, default=_json_default, **options)
    except (
        ValueError
    ):  # a non-finite float, or an int past the digit limit that did not come through loads_json
        text = json.dumps(
            _json_compliant(value), ensure_ascii=False, allow_nan=False, default=_json_default, **options
        )
    return inert_json(text)


def inert_json(text: str) -> str:
    """JSON text with what could act on a terminal written as ``\\u`` escapes (ASCII text, the most of
    it, holds nothing of the kind but DEL: told in C, without the search)."""
    if text.isascii() and "\x7f" not in text:
        return text
    return _JSON_UNSAFE.sub(_json_escape, text)


def json_chunks(value: Any) -> Iterator[str]:
    """The text of :func:`dumps_json` (without options) a piece at a time, for a value holding a huge
    string: the one-shot encoder holds the string, its escaped copy and the joined text at once (3x),
    this holds the string and one escaped copy (2x)."""
    encoder = json.JSONEncoder(ensure_ascii=False, allow_nan=False, default=_json_default)
    for chunk in encoder.iterencode(_json_compliant(value)):
        yield inert_json(chunk)


def _json_compliant(value: Any, depth: int = 0) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            str(value)
        except ValueError:
            return "<integer of more than 4300 digits>"
        return value
    if depth > 2000:
        return None
    if isinstance(value, dict):
        return {k: _json_compliant(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_compliant(v, depth + 1) for v in value]
    return value
