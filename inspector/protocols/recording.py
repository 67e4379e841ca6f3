"""The inspector's own recordings: JSONL, a versioned header, then one line per packet sent or received.

Line 1: ``{"format": "inspector-recording", "version": 1, "created": ISO, ...}``.
Then per packet: ``{"t": epoch seconds, "dir": "in"|"out", "participant", "topic", "reliable",
"raw": base64 bytes, "decoded": the MessagePack decoded as JSON (for people and jq)}``, plus
``"answered_by"`` on answers the inspector sent. ``"dir": "event"`` lines carry room events
(``kind``, ``text``) such as participants joining. Written append-only and flushed per message.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import json
import os
import re
import time
from collections.abc import Iterator
from datetime import datetime, timezone
from typing import Any

import orjson

from inspector.model import values
from inspector.model.events import Event, Malformed, Message, RawRef, Result, noted
from inspector.protocols import FormatError, alicia
from inspector.protocols.alicia.hub_reading import HubReading
from inspector.protocols.format import Format
from inspector.protocols.raw_record import NOTHING, Packet, RawRecord, default, json_document, unpack_lenient
from inspector.protocols.sniffers.recording import FORMAT_ID as FORMAT_ID
from inspector.protocols.sniffers.recording import sniff
from inspector.userpath import open_append, open_binary

NAME = "recording"
DESCRIPTION = "inspector recording (.jsonl with a versioned header)"
VERSION = 1


class RecordingVersionError(FormatError):
    """The recording was written by a newer inspector."""


# -- writing -------------------------------------------------------------------------------
def _jsonable(value: Any, depth: int = 0) -> Any:
    if depth > 64:
        return "…"
    if isinstance(value, bytes):
        return {"$bytes": base64.b64encode(value).decode("ascii")}
    if isinstance(value, dict):
        return {str(k): _jsonable(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v, depth + 1) for v in value]
    if isinstance(value, float) and value != value:
        return None
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return repr(value)


_ORJSON_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_APPEND_NEWLINE


def _default(value: Any) -> Any:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return {"$bytes": base64.b64encode(bytes(value)).decode("ascii")}
    return repr(value)


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=_default)


def _encode_line(obj: dict[str, Any]) -> bytes:
    """One JSON line: orjson (a packet per few microseconds), and a careful conversion of odd payloads
    (lone surrogates, keys that are not text, very deep nesting) when it refuses."""
    try:
        return orjson.dumps(obj, default=_default, option=_ORJSON_OPTIONS)
    except (TypeError, ValueError, orjson.JSONEncodeError):
        pass
    try:
        text = _ENCODER.encode(obj)
    except (TypeError, ValueError, RecursionError):
        text = _ENCODER.encode(_jsonable(obj))
    return text.encode("utf-8", "replace") + b"\n"


def default_recording_path(room: str, when: float | None = None) -> str:
    """``<user data dir>/recordings/<room>-<YYYYmmdd-HHMMSS>.jsonl``."""
    import platformdirs

    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(when or time.time()))
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", room or "room")[:80] or "room"
    folder = os.path.join(platformdirs.user_data_dir("inspector"), "recordings")
    return os.path.join(folder, f"{safe}-{stamp}.jsonl")


class RecordingWriter:
    """Append packets to a recording, one flushed line each, so a crash loses at most one message."""

    def __init__(self, path: str, header_extra: dict[str, Any] | None = None) -> None:
        self.path = path
        folder = os.path.dirname(os.path.abspath(path))
        os.makedirs(folder, exist_ok=True)
        self._fh = open_append(path)
        self.count = 0
        if self._fh.tell() == 0:
            header = {
                "format": FORMAT_ID,
                "version": VERSION,
                "created": datetime.now(timezone.utc).isoformat(),
                **(header_extra or {}),
            }
            self._line(header)

    def _line(self, obj: dict[str, Any]) -> None:
        self._fh.write(_encode_line(obj))
        self._fh.flush()

    def write(
        self,
        direction: str,
        data: bytes,
        *,
        ts: float | None = None,
        participant: str = "",
        topic: str | None = None,
        reliable: bool = True,
        answered_by: str | None = None,
        decoded: Any = None,
    ) -> None:
        """Append one packet received (``in``) or sent (``out``).

        ``decoded`` is the packet already unpacked, when the caller has it (saves a second decode).
        """
        if decoded is None:
            try:
                decoded = alicia.unpack_noted(data)[0]  # U+FFFD for each byte not UTF-8, as read
            except Exception:  # noqa: BLE001 - the raw bytes are kept either way
                decoded = None
        line: dict[str, Any] = {
            "t": time.time() if ts is None else ts,
            "dir": direction,
            "participant": participant,
            "topic": topic or "",
            "reliable": reliable,
            "raw": base64.b64encode(data).decode("ascii"),
            "decoded": decoded,
        }
        if answered_by:
            line["answered_by"] = answered_by
        self._line(line)
        self.count += 1

    def event(self, kind: str, text: str = "", *, ts: float | None = None, **extra: Any) -> None:
        """Append a room event (participant joined, connection state...)."""
        self._line(
            {
                "t": time.time() if ts is None else ts,
                "dir": "event",
                "kind": kind,
                "text": text,
                **_jsonable(extra),
            }
        )

    def close(self) -> None:
        if not self._fh.closed:
            self._fh.close()

    def __enter__(self) -> RecordingWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- reading -------------------------------------------------------------------------------
def check_header(line: bytes, path: str) -> dict[str, Any]:
    """Parse and check the header line; raises RecordingVersionError or ValueError."""
    header = json.loads(line)
    if not isinstance(header, dict) or header.get("format") != FORMAT_ID:
        raise FormatError(f"{path}: not an inspector recording (bad header)")
    version = header.get("version")
    if not isinstance(version, int) or version < 1:
        raise FormatError(f"{path}: recording header has no valid version")
    if version > VERSION:
        raise RecordingVersionError(
            f"{path}: recording format version {version} is newer than this inspector reads "
            f"(version {VERSION}); upgrade inspector to open it"
        )
    return header


def read(path: str) -> Iterator[Event]:
    """The events of a recording; a hub's are read together as the live source read them
    (:mod:`inspector.protocols.alicia.hub_reading`: countdowns, phone calls, delivery, echoes)."""
    header: dict[str, Any] = {}
    events = _read(path, header)
    first = next(events, None)
    if first is None:
        return
    if header.get("source") == "alicia-hub":
        timeout = header.get("tool_timeout_ms")
        reading = HubReading(tool_timeout_ms=timeout if isinstance(timeout, int) and timeout > 0 else 30000)
        yield from reading.feed_all(itertools.chain([first], events))
        return
    yield first
    yield from events


def _read(path: str, header: dict[str, Any]) -> Iterator[Event]:
    offset = 0
    with open_binary(path) as fh:
        header_line = fh.readline()
        if not header_line.strip() and not fh.read(1):
            return  # an empty recording: a session that has not written its header yet
        try:
            header.update(check_header(header_line, path))
        except (ValueError, RecursionError) as exc:
            if isinstance(exc, FormatError):
                raise
            raise FormatError(f"{path}: the recording header is not valid JSON") from None
        offset = len(header_line)
        number = 1
        for line in fh:
            number += 1
            raw = RawRef(source=path, where=number, offset=offset, length=len(line), protocol=NAME)
            offset += len(line)
            if not line.strip():
                continue
            if not line.endswith(b"\n"):
                events = decode_line(line, raw)
                if any(isinstance(e, Malformed) for e in events):
                    yield Malformed(
                        where=raw.where,
                        reason="torn last line: the recording was cut while this message was being written",
                        source=path,
                        raw=raw,
                    )
                    continue
                yield from events
                continue
            yield from decode_line(line, raw)


def decode_line(line: bytes, raw: RawRef) -> list[Event]:
    """Decode one recorded line into the events of its packet (or a room event)."""
    end = len(line)
    while end and line[end - 1] in b"\r\n":
        end -= 1
    record, error, note = values.loads_line(line, end)  # a reason names a column of the line, not its end
    if error is not None:
        return [Malformed(where=raw.where, reason=error, source=raw.source, raw=raw)]
    events = _decode_record(record, raw)
    return events if note is None else noted(note, raw, raw.where, events)


def _decode_record(record: Any, raw: RawRef) -> list[Event]:
    where = raw.where
    if not isinstance(record, dict):
        return [Malformed(where=where, reason="recorded line is not an object", source=raw.source, raw=raw)]
    if record.get("format") == FORMAT_ID:
        return []  # the header, met again when a followed recording is read from the top
    ts = values.time_s(record.get("t"))
    direction = record.get("dir")
    if direction == "event":
        kind = _text(record.get("kind")) or "event"
        text = _text(record.get("text"))
        extra: dict[str, Any] = {"dir": "event"}
        if record.get("unseen") == "before":  # the session began listening here: what came before is unseen
            extra["unseen"] = "before"
        return [Message(kind=kind, text=text, ts=ts, raw=raw, extra=extra)]
    if direction == "relay":
        return []  # a hub passing on bytes already recorded as received (sources/alicia_hub.py)
    participant = _text(record.get("participant"))
    topic = _text(record.get("topic")) or None
    reliable = record.get("reliable") is not False
    encoded = record.get("raw")
    if isinstance(encoded, str):
        try:
            data = base64.b64decode(encoded, validate=True)
        except (ValueError, TypeError):
            return [Malformed(where=where, reason="'raw' is not base64", source=raw.source, raw=raw)]
        events = alicia.decode_packet(
            data,
            where=where,
            ts=ts,
            sender=participant,
            topic=topic,
            reliable=reliable,
            source=raw.source,
            raw=raw,
        )
    elif "decoded" in record:
        events = alicia.decode_object(
            record["decoded"],
            where=where,
            source=raw.source,
            raw=raw,
            ts=ts,
            sender=participant,
            topic=topic,
            reliable=reliable,
        )
    else:
        return [
            Malformed(
                where=where,
                reason="recorded line has neither 'raw' nor 'decoded'",
                source=raw.source,
                raw=raw,
            )
        ]
    answered_by = record.get("answered_by")
    for event in events:
        if isinstance(event, Result):
            if isinstance(answered_by, str):
                event.answered_by = answered_by
            event.extra["dir"] = direction
    return events


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def redecode(raw: RawRef) -> list[Event]:
    return decode_line(raw.read(), raw)


def raw_record(data: bytes) -> RawRecord:
    """A recording line as JSON, with its packet (base64 ``raw``) decoded unless the line has ``decoded``."""
    document = json_document(data)
    if isinstance(document, dict) and isinstance(document.get("raw"), str):
        try:
            packet = base64.b64decode(document["raw"], validate=True)
        except (binascii.Error, ValueError):
            return RawRecord(document=document)
        show = "decoded" not in document
        value = unpack_lenient(packet) if show else NOTHING
        return RawRecord(document=document, packet=Packet(packet, value, show_value=show))
    return default(data)


FORMAT = Format(NAME, DESCRIPTION, sniff, read, redecode, decode_line=decode_line, raw_record=raw_record)
"""This format for the registry (:func:`inspector.protocols.get`)."""
