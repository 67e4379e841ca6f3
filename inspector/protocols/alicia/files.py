"""Alicia files: JSON lines of envelopes, hex lines of MessagePack, or a binary MessagePack stream."""

from __future__ import annotations

import binascii
from collections.abc import Iterator

import msgpack

import inspector.protocols.common.msgdepth as _msgdepth
from inspector.model import values
from inspector.model.events import Event, Malformed, RawRef, noted
from inspector.protocols.alicia.decode import NAME, decode_object, decode_packet, reason_of
from inspector.protocols.raw_record import (
    NOTHING,
    Packet,
    RawRecord,
    hex_packet_record,
    json_document,
    unpack_lenient,
)
from inspector.protocols.sniffers.alicia import (
    _ARRAY_STARTS,
    _HEX_LINE,
    _MAP_STARTS,
    _text_lines,
)
from inspector.userpath import open_binary


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
            raw = RawRef(source=path, where=number, offset=offset, length=length, protocol=NAME)
            offset += length
            if line.strip():
                yield from decode_line(line, raw)


def decode_line(line: bytes, raw: RawRef) -> list[Event]:
    """Decode one line: a JSON envelope, or hex MessagePack optionally after a label."""
    stripped = line.strip()
    where = raw.where
    if stripped.lstrip(b"\x00").startswith((b"{", b"[")):  # NULs a crash left before it: said by loads_noted
        obj, error, note = values.loads_noted(stripped)
        if error is not None:
            return [Malformed(where=where, reason=error, source=raw.source, raw=raw)]
        return noted(note, raw, where, decode_object(obj, where=where, source=raw.source, raw=raw))
    bare = stripped.strip(b" \t\r\n\x00")
    nuls = stripped.count(b"\x00") - bare.count(b"\x00")
    match = _HEX_LINE.match(bare)
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
    if nuls:
        said = f"had {nuls} NUL byte{'s' if nuls > 1 else ''} around it (as a crash leaves in a file)"
        events.insert(0, Malformed(where=where, reason=said, source=raw.source, raw=raw))
    return events


def _read_binary(path: str) -> Iterator[Event]:
    with open_binary(path) as fh:
        data = fh.read()
    number = 0
    position = 0
    while position < len(data):
        number += 1
        try:
            obj, size, note = _unpack_at(data, position)
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
        end = position + size
        raw = RawRef(
            source=path, where=f"packet {number}", offset=position, length=end - position, protocol=NAME
        )
        position = end
        yield from noted(note, raw, raw.where, decode_object(obj, where=raw.where, source=path, raw=raw))


def _unpack_at(data: bytes, position: int) -> tuple[object, int, str | None]:
    """The packet at ``position``, its size, and a note when a string of it was not UTF-8 (read with
    U+FFFD for each bad byte, as a live packet's are) or a value of it was nested past the unpacker's
    depth (read with a stand-in past ``values.MAX_DEPTH``, as a live packet's is)."""
    try:
        return _unpack_utf8_noted(data, position)
    except msgpack.StackError:
        found = _msgdepth.shallow(data, position)
        if found is None:
            raise
    shallow, end, deepest = found
    obj, _, note = _unpack_utf8_noted(shallow, 0)
    return obj, end - position, "; ".join(filter(None, [values.deep_note(deepest), note]))


def _unpack_utf8_noted(data: bytes, position: int) -> tuple[object, int, str | None]:
    try:
        obj, size = _unpack_one(data, position, "strict")
        return obj, size, None
    except UnicodeDecodeError as exc:
        obj, size = _unpack_one(data, position, "surrogateescape")
        at = data.find(exc.object, position) if isinstance(exc.object, bytes) else -1
        return values.valid(obj), size, values.utf8_note(at - position + exc.start if at >= 0 else exc.start)


FIRST_FEED = 1 << 12
"""Bytes an unpacker is first given of what follows a packet's start (doubled while the packet needs
more): given the whole rest of the file, it copied it for each packet (30,000 small packets: seconds,
growing with the square of the count)."""


def _unpack_one(data: bytes, position: int, unicode_errors: str) -> tuple[object, int]:
    """The packet at ``position`` and its size; raises as the unpacker does (OutOfData: cut short)."""
    unpacker = _unpacker(data, position, unicode_errors)
    view, fed, chunk = memoryview(data), position, FIRST_FEED
    while True:
        end = min(len(data), fed + chunk)
        unpacker.feed(view[fed:end])
        fed, chunk = end, chunk * 2
        try:
            return unpacker.unpack(), unpacker.tell()
        except msgpack.OutOfData:
            if fed >= len(data):
                raise


def _unpacker(data: bytes, position: int, unicode_errors: str = "replace") -> msgpack.Unpacker:
    """An unpacker for the packet at ``position``, fed by the caller. No declared length may exceed
    what the file holds (a 4 GB str32 in a small file is refused at once)."""
    limit = max(len(data) - position, 1)
    unpacker = msgpack.Unpacker(
        raw=False,
        strict_map_key=False,
        unicode_errors=unicode_errors,
        max_buffer_size=limit,
        max_str_len=limit,
        max_bin_len=limit,
        max_array_len=limit,
        max_map_len=limit,
        max_ext_len=limit,
    )
    return unpacker


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
                    obj, _ = _unpack_one(data, begin, "replace")
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
