"""What recognises an Alicia file (JSON lines of envelopes, hex lines of MessagePack, or a binary
MessagePack stream), apart from its reader, so that detecting a file's format imports no decoder."""

from __future__ import annotations

import binascii
import re
from typing import Any

_MAP_STARTS = frozenset(range(0x80, 0x90)) | {0xDE, 0xDF}
_ARRAY_STARTS = frozenset(range(0x90, 0xA0)) | {0xDC, 0xDD}
_HEX_LINE = re.compile(rb"^(?:(\S+)\s+)?([0-9a-fA-F]+)\s*$")


def sniff(path: str, head: bytes) -> int:
    """Recognise JSON lines of envelopes, hex lines of MessagePack, or a binary MessagePack stream.

    Any of the first lines of a text file may decide (a first line cut short, or not a record, hides
    nothing); a head that starts like MessagePack is judged by its first line, then as a stream."""
    binary = bool(head[:1]) and head[0] in _MAP_STARTS | _ARRAY_STARTS
    lines = _text_lines(head, 1 if binary else 20)
    for index, line in enumerate(lines):
        score = _line_score(line, head if index == 0 and len(lines) == 1 else b"")
        if score:
            return score
    if head[:1] and head[0] in _MAP_STARTS | _ARRAY_STARTS:
        import msgpack  # only a head that starts like MessagePack needs it

        unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, unicode_errors="replace")
        unpacker.feed(head)
        try:
            obj = next(unpacker)
        except (
            msgpack.OutOfData,
            StopIteration,
        ):  # one packet cut short (or longer than the head): its start decides
            return 40 if _envelope_start(head) else 0
        except Exception:  # noqa: BLE001
            return 0
        if isinstance(obj, dict) and "type" in obj:
            return 45
    return 0


def _text_lines(head: bytes, count: int = 20) -> list[bytes]:
    """The first ``count`` non-blank lines of a head, stripped."""
    found = []
    for line in head.split(b"\n", count * 4)[: count * 4]:  # blank lines may come between
        if line.strip():
            found.append(line.strip())
            if len(found) == count:
                break
    return found


def _line_score(stripped: bytes, whole: bytes) -> int:
    """How surely one line is an Alicia envelope (JSON) or packet (hex); ``whole``: the head, when this
    line is all of it (a hex line longer than the head is judged by its start)."""
    if stripped.startswith(b"{"):
        if b'"body"' not in stripped and b'"stanzaId"' not in stripped:
            return 0
        envelope_like = b'"type"' in stripped and b'"body"' in stripped
        coded = b'"conversationId"' in stripped or b'"trace_id"' in stripped or b'"traceId"' in stripped
        return 60 if b'"stanzaId"' in stripped or (envelope_like and coded) else 0
    match = _HEX_LINE.match(stripped)
    if match and len(match.group(2)) >= 4:
        digits = match.group(2)
        if len(digits) % 2 == 0:
            try:
                obj = unpack(binascii.unhexlify(digits))
            except Exception:  # noqa: BLE001
                obj = None
            if isinstance(obj, (dict, list)):
                return 55
        if whole and len(stripped) == len(whole.strip()):  # one hex line longer than the head
            return 50 if _envelope_start(binascii.unhexlify(digits[: len(digits) // 2 * 2])) else 0
    return 0


def _envelope_start(data: bytes) -> bool:
    """The bytes begin like an Alicia envelope: a map (or array of maps) with a ``type`` key early on."""
    return bool(data[:1]) and data[0] in _MAP_STARTS | _ARRAY_STARTS and b"\xa4type" in data[:4096]


def unpack(data: bytes, unicode_errors: str = "replace") -> Any:
    """Decode MessagePack bytes (one object, or several concatenated: returned as a list).
    ``unicode_errors="strict"`` raises UnicodeDecodeError on a string that is not UTF-8."""
    import msgpack  # imported when a packet is decoded, not when a file is only sniffed

    try:
        return msgpack.unpackb(data, raw=False, strict_map_key=False, unicode_errors=unicode_errors)
    except msgpack.ExtraData as extra:
        objects = [extra.unpacked]
        unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, unicode_errors=unicode_errors)
        unpacker.feed(extra.extra)
        objects.extend(unpacker)
        return objects
