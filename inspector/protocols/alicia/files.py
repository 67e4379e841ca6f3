"""Alicia files: JSON lines of envelopes, hex lines of MessagePack, or a binary MessagePack stream."""

from __future__ import annotations

import binascii
import re
from collections.abc import Iterator

import msgpack

from inspector.model import values
from inspector.model.events import Event, Malformed, RawRef
from inspector.protocols.alicia.decode import NAME, decode_object, decode_packet, reason_of, unpack
from inspector.protocols.raw_record import (
    NOTHING,
    Packet,
    RawRecord,
    hex_packet_record,
    json_document,
    unpack_lenient,
)
from inspector.userpath import open_binary

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


def read(path: str) -> Iterator[Event]:
    """Read a file of Alicia packets (JSON lines, hex lines, or binary MessagePack)."""
    with open_binary(path) as fh:
        head = fh.read(4096)
    lines = _text_lines(head)
    binary = head[:1] and head[0] in _MAP_STARTS | _ARRAY_STARTS  # never the first byte of UTF-8 text
    if not binary and any(line.startswith(b"{") or _HEX_LINE.match(line) for line in lines):
        yield from _read_lines(path)
    else:
        yield from _read_binary(path)


def _read_lines(path: str) -> Iterator[Event]:
    offset = 0
    with open_binary(path) as fh:
        for number, line in enumerate(fh, start=1):
            length = len(line)
            raw = RawRef(source=path, where=f"line {number}", offset=offset, length=length, protocol=NAME)
            offset += length
            if line.strip():
                yield from decode_line(line, raw)


def decode_line(line: bytes, raw: RawRef) -> list[Event]:
    """Decode one line: a JSON envelope, or hex MessagePack optionally after a label."""
    stripped = line.strip()
    where = raw.where
    if stripped.startswith((b"{", b"[")):
        obj, error = values.loads_json(stripped)
        if error is not None:
            return [Malformed(where=where, reason=error, source=raw.source, raw=raw)]
        return decode_object(obj, where=where, source=raw.source, raw=raw)
    match = _HEX_LINE.match(stripped)
    if not match:
        return [
            Malformed(
                where=where, reason="neither a JSON envelope nor hex MessagePack", source=raw.source, raw=raw
            )
        ]
    label = match.group(1).decode("utf-8", "replace") if match.group(1) else ""
    try:
        data = binascii.unhexlify(match.group(2))
    except (binascii.Error, ValueError) as exc:
        return [Malformed(where=where, reason=f"bad hex: {reason_of(exc)}", source=raw.source, raw=raw)]
    events = decode_packet(data, where=f"{where} {label}".strip(), source=raw.source, raw=raw)
    return events


def _read_binary(path: str) -> Iterator[Event]:
    with open_binary(path) as fh:
        data = fh.read()
    number = 0
    position = 0
    while position < len(data):
        number += 1
        unpacker = _unpacker(data, position)
        try:
            obj = unpacker.unpack()
        except Exception as exc:  # noqa: BLE001 - OutOfData, a declared length past the data, a bad byte
            truncated = isinstance(exc, msgpack.OutOfData)
            resume = _next_envelope(data, position + 1)
            what = "truncated MessagePack" if truncated else f"not MessagePack: {reason_of(exc)}"
            where = f"packet {number}"
            raw = RawRef(source=path, where=where, offset=position, length=resume - position, protocol=NAME)
            if resume < len(data):
                what += f"; {resume - position} bytes skipped to the next envelope"
            elif truncated:
                what = "truncated MessagePack at end of file"
            yield Malformed(where=where, reason=what, source=path, raw=raw)
            position = resume
            continue
        end = position + unpacker.tell()
        raw = RawRef(
            source=path, where=f"packet {number}", offset=position, length=end - position, protocol=NAME
        )
        position = end
        yield from decode_object(obj, where=raw.where, source=path, raw=raw)


def _unpacker(data: bytes, position: int) -> msgpack.Unpacker:
    # No declared length may exceed what the file holds (a 4 GB str32 in a small file is refused at once).
    limit = max(len(data) - position, 1)
    unpacker = msgpack.Unpacker(
        raw=False,
        strict_map_key=False,
        unicode_errors="replace",
        max_buffer_size=limit,
        max_str_len=limit,
        max_bin_len=limit,
        max_array_len=limit,
        max_map_len=limit,
        max_ext_len=limit,
    )
    unpacker.feed(memoryview(data)[position:])
    return unpacker


_MAP_STARTS = frozenset(range(0x80, 0x90)) | {0xDE, 0xDF}


def _next_envelope(data: bytes, start: int) -> int:
    """Where the next whole envelope (a map with a ``type``) begins after a bad packet, else the end."""
    at = start
    while True:
        at = data.find(b"\xa4type", at)
        if at < 0:
            return len(data)
        for begin in range(
            at - 1, max(start, at - 64) - 1, -1
        ):  # the map holding that key starts shortly before
            if data[begin] in _MAP_STARTS:
                try:
                    obj = _unpacker(data, begin).unpack()
                except Exception:  # noqa: BLE001
                    continue
                if isinstance(obj, dict) and "type" in obj:
                    return begin
        at += 1


def redecode(raw: RawRef) -> list[Event]:
    """Decode one stored packet or line again."""
    data = raw.read()
    if raw.data is not None or raw.where.startswith("packet"):
        return decode_packet(data, where=raw.where, source=raw.source, raw=raw)
    return decode_line(data, raw)


def raw_record(data: bytes) -> RawRecord:
    """A hex line as its packet; a JSON line as JSON; anything else as a binary MessagePack packet."""
    hex_record = hex_packet_record(data)
    if hex_record is not None:
        return hex_record
    document = json_document(data)
    if document is not NOTHING:
        return RawRecord(document=document)
    return RawRecord(packet=Packet(data, unpack_lenient(data)))
