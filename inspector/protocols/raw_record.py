"""A stored record as a person reads it: each format's ``raw_record`` hook, and the default for the rest.

A format may offer ``raw_record(data: bytes) -> RawRecord``: what its records are made of (a
MessagePack packet, hex lines, a JSON line carrying a base64 packet). Formats without one get
:func:`default`: JSON, else UTF-8 text, else MessagePack, else bytes. The raw view renders the result.
"""

from __future__ import annotations

import binascii
import json
import re
from dataclasses import dataclass
from typing import Any

from inspector import protocols

MAX_PARSE_CHARS = 2_000_000
"""A JSON record longer than this is shown as text, not parsed."""

_HEX_LINE = re.compile(rb"^(?:(\S+)\s+)?([0-9a-fA-F]+)\s*$")


class _Nothing:
    def __repr__(self) -> str:
        return "NOTHING"


NOTHING: Any = _Nothing()
"""No value (distinct from a decoded ``None``)."""


@dataclass(frozen=True)
class Packet:
    """MessagePack bytes inside a record; ``value`` is NOTHING when they do not decode."""

    data: bytes
    value: Any = NOTHING
    show_value: bool = True  # False when the record shows the decoded form itself


@dataclass(frozen=True)
class RawRecord:
    """The parts to show: a note, a JSON document or text, a packet; ``unknown`` means bytes only."""

    note: str = ""
    document: Any = NOTHING
    text: str | None = None
    packet: Packet | None = None
    unknown: bool = False


def describe(data: bytes, protocol: str) -> RawRecord:
    """How the record ``data`` of format ``protocol`` reads ("" when the format is not known)."""
    if not protocol:
        return hex_packet_record(data) or default(data)
    try:
        fmt = protocols.get(protocol)
    except (protocols.UnknownFormat, ImportError):
        return default(data)
    return fmt.raw_record(data) if fmt.raw_record is not None else default(data)


def default(data: bytes) -> RawRecord:
    """JSON, else UTF-8 text, else MessagePack, else unknown bytes."""
    document = json_document(data)
    if document is not NOTHING:
        return RawRecord(document=document)
    try:
        return RawRecord(text=data.decode("utf-8"))
    except UnicodeDecodeError:
        pass
    value = unpack_lenient(data)
    if value is not NOTHING:
        return RawRecord(packet=Packet(data, value))
    return RawRecord(note="neither JSON, MessagePack nor UTF-8 text", unknown=True)


def hex_packet_record(data: bytes) -> RawRecord | None:
    """A hex line (``[label] 82a4...``) as its packet, or None."""
    match = _HEX_LINE.match(data.strip())
    if not match or len(match.group(2)) % 2:
        return None
    try:
        packet = binascii.unhexlify(match.group(2))
    except (binascii.Error, ValueError):
        return None
    return RawRecord(note="hex-encoded MessagePack", packet=Packet(packet, unpack_lenient(packet)))


def json_document(data: bytes) -> Any:
    """The JSON object or array in ``data``, or NOTHING."""
    stripped = data.strip()
    if stripped[:1] not in (b"{", b"[") or len(stripped) > MAX_PARSE_CHARS:
        return NOTHING
    try:
        return json.loads(stripped)
    except (ValueError, RecursionError):
        return NOTHING


def unpack_lenient(data: bytes) -> Any:
    """Every MessagePack object in ``data`` (one, or a list when several follow each other), or NOTHING."""
    import msgpack

    try:
        return msgpack.unpackb(data, raw=False, strict_map_key=False, unicode_errors="replace")
    except msgpack.ExtraData as extra:
        objects = [extra.unpacked]
        unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, unicode_errors="replace")
        unpacker.feed(extra.extra)
        try:
            objects.extend(unpacker)
        except Exception:  # noqa: BLE001 - a bad tail: show what decoded
            objects.append("… undecodable bytes after this")
        return objects
    except Exception:  # noqa: BLE001 - any decoder failure means "not MessagePack"
        return NOTHING
