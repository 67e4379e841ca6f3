"""Alicia files: JSON lines of envelopes, hex lines of MessagePack, or a binary MessagePack stream."""

from __future__ import annotations

import binascii
import re
from collections.abc import Iterator

import msgpack

from inspector.model import values
from inspector.model.events import Event, Malformed, RawRef
from inspector.protocols.alicia_decode import NAME, decode_object, decode_packet, reason_of, unpack
from inspector.protocols.raw_record import (
    NOTHING,
    Packet,
    RawRecord,
    hex_packet_record,
    json_document,
    unpack_lenient,
)

_HEX_LINE = re.compile(rb"^(?:(\S+)\s+)?([0-9a-fA-F]+)\s*$")


def sniff(path: str, head: bytes) -> int:
    """Recognise JSON lines of envelopes, hex lines of MessagePack, or a binary MessagePack stream."""
    first = next((line for line in head.splitlines() if line.strip()), b"")
    stripped = first.strip()
    if stripped.startswith(b"{"):
        envelope_like = b'"type"' in stripped and b'"body"' in stripped
        coded = b'"conversationId"' in stripped or b'"trace_id"' in stripped or b'"traceId"' in stripped
        if b'"stanzaId"' in stripped or (envelope_like and coded):
            return 60
        return 0
    match = _HEX_LINE.match(stripped)
    if match and len(match.group(2)) >= 4 and len(match.group(2)) % 2 == 0:
        try:
            obj = unpack(binascii.unhexlify(match.group(2)))
        except Exception:  # noqa: BLE001
            return 0
        return 55 if isinstance(obj, (dict, list)) else 0
    if head[:1] and (0x80 <= head[0] <= 0x9F or head[0] in (0xDC, 0xDD, 0xDE, 0xDF)):
        unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, unicode_errors="replace")
        unpacker.feed(head)
        try:
            obj = next(unpacker)
        except Exception:  # noqa: BLE001
            return 0
        if isinstance(obj, dict) and "type" in obj:
            return 45
    return 0


def read(path: str) -> Iterator[Event]:
    """Read a file of Alicia packets (JSON lines, hex lines, or binary MessagePack)."""
    with open(path, "rb") as fh:
        head = fh.read(4096)
    first = next((line for line in head.splitlines() if line.strip()), b"").strip()
    if first.startswith(b"{") or _HEX_LINE.match(first):
        yield from _read_lines(path)
    else:
        yield from _read_binary(path)


def _read_lines(path: str) -> Iterator[Event]:
    offset = 0
    with open(path, "rb") as fh:
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
    with open(path, "rb") as fh:
        data = fh.read()
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, unicode_errors="replace")
    unpacker.feed(data)
    number = 0
    position = 0
    while True:
        number += 1
        try:
            obj = unpacker.unpack()
        except msgpack.OutOfData:
            if position < len(data):
                yield Malformed(
                    where=f"packet {number}", reason="truncated MessagePack at end of file", source=path
                )
            return
        except Exception as exc:  # noqa: BLE001
            yield Malformed(
                where=f"packet {number}", reason=f"not MessagePack: {reason_of(exc)}", source=path
            )
            return
        end = unpacker.tell()
        raw = RawRef(
            source=path, where=f"packet {number}", offset=position, length=end - position, protocol=NAME
        )
        position = end
        yield from decode_object(obj, where=raw.where, source=path, raw=raw)


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
