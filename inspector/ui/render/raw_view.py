"""The original record of an event: JSON pretty-printed, MessagePack decoded with a hex dump beside it."""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text

from inspector.model.events import RawRef
from inspector.ui.render.json_view import MAX_PARSE_CHARS, render_json
from inspector.ui.render.parts import fields_line, heading, muted
from inspector.ui.render.safe import DEFAULT_LIMITS, Limits, cut_marker, human_size, safe_text
from inspector.ui.render.theme import RenderTheme

_HEX_LINE = re.compile(rb"^(?:(\S+)\s+)?([0-9a-fA-F]+)\s*$")
MAX_HEX_BYTES = 64 * 1024
"""Bytes shown in a hex dump before a marker."""


def render_raw(
    raw: RawRef | Sequence[RawRef] | None,
    *,
    theme: RenderTheme | None = None,
    width: int = 100,
    limits: Limits = DEFAULT_LIMITS,
    labels: Sequence[str] | None = None,
) -> RenderableType:
    """One or several original records, each under a heading saying where it came from.

    ``labels`` (one per record, e.g. "request", "result") title the headings; the default is "record".

    JSON is pretty-printed; MessagePack (binary packets, hex lines, a recording's base64 ``raw``)
    is shown decoded and as a hex dump (offset, hex, ASCII); anything else as text or hex.
    """
    theme = theme or RenderTheme.dark()
    refs = [raw] if isinstance(raw, RawRef) else list(raw or [])
    if not refs:
        return muted("(no raw record kept for this item)", theme)
    parts: list[RenderableType] = []
    for index, ref in enumerate(refs):
        if index:
            parts.append(Text(""))
        label = labels[index] if labels is not None and index < len(labels) else "record"
        parts.append(_where(ref, label, theme))
        parts.extend(_body(ref, theme, width, limits))
    return Group(*parts)


def _where(ref: RawRef, label: str, theme: RenderTheme) -> Text:
    span = None
    if ref.offset >= 0:
        span = f"bytes {ref.offset:,}–{ref.offset + ref.length:,}"
    text = heading(label, theme)
    text.append("  ")
    text.append_text(
        fields_line(
            [("", ref.where), ("file", ref.source or None), ("", span), ("format", ref.protocol or None)],
            theme,
        )
    )
    return text


def _body(ref: RawRef, theme: RenderTheme, width: int, limits: Limits) -> list[RenderableType]:
    try:
        data = ref.read()
    except OSError as exc:
        return [
            Text(f"cannot read the record: {exc.strerror or type(exc).__name__}", Style(color=theme.failed))
        ]
    if not data:
        return [muted("(empty record)", theme)]
    packet = _hex_packet(data) if ref.protocol in ("alicia", "") else None
    if packet is not None:
        return [muted("hex-encoded MessagePack", theme), *_msgpack_parts(packet, theme, width, limits)]
    parsed = _json(data)
    if parsed is not _NOT:
        parts: list[RenderableType] = [render_json(parsed, theme, limits)]
        packet = _recorded_packet(parsed)
        if packet is not None:
            parts += _msgpack_parts(packet, theme, width, limits, decoded="decoded" not in parsed)
        return parts
    if ref.protocol == "alicia":
        return _msgpack_parts(data, theme, width, limits)
    try:
        return [safe_text(data.decode("utf-8"), limits=limits)]
    except UnicodeDecodeError:
        pass
    decoded = _msgpack(data)
    if decoded is not _NOT:
        return _msgpack_parts(data, theme, width, limits, value=decoded)
    return [muted("neither JSON, MessagePack nor UTF-8 text", theme), hex_dump(data, theme, width, limits)]


def _hex_packet(data: bytes) -> bytes | None:
    """The bytes of a hex line (``[label] 82a4...``), or None."""
    match = _HEX_LINE.match(data.strip())
    if not match or len(match.group(2)) % 2:
        return None
    try:
        return binascii.unhexlify(match.group(2))
    except (binascii.Error, ValueError):
        return None


_NOT: Any = object()


def _json(data: bytes) -> Any:
    stripped = data.strip()
    if stripped[:1] not in (b"{", b"[") or len(stripped) > MAX_PARSE_CHARS:
        return _NOT
    try:
        return json.loads(stripped)
    except (ValueError, RecursionError):
        return _NOT


def _recorded_packet(record: Any) -> bytes | None:
    """The packet bytes of an inspector recording line (base64 in ``raw``)."""
    if not isinstance(record, dict) or not isinstance(record.get("raw"), str):
        return None
    try:
        return base64.b64decode(record["raw"], validate=True)
    except (binascii.Error, ValueError):
        return None


def _msgpack(data: bytes) -> Any:
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
        return _NOT


def _msgpack_parts(
    packet: bytes, theme: RenderTheme, width: int, limits: Limits, *, decoded: bool = True, value: Any = _NOT
) -> list[RenderableType]:
    parts: list[RenderableType] = []
    if decoded:
        value = _msgpack(packet) if value is _NOT else value
        if value is _NOT:
            parts += [heading("MessagePack", theme), Text("could not be decoded", Style(color=theme.failed))]
        else:
            parts += [heading("MessagePack, decoded", theme), render_json(value, theme, limits)]
    parts += [heading("bytes", theme, human_size(len(packet))), hex_dump(packet, theme, width, limits)]
    return parts


def hex_dump(data: bytes, theme: RenderTheme, width: int = 100, limits: Limits = DEFAULT_LIMITS) -> Text:
    """``offset  hex bytes  |ascii|`` lines, 16 bytes a line (8 when narrower than 78 cells)."""
    per_line = 16 if width >= 78 else 8
    shown = data[: min(MAX_HEX_BYTES, limits.lines * per_line)]
    offset_style = Style(color=theme.line_number)
    ascii_style = Style(color=theme.json_string)
    text = Text()
    for start in range(0, len(shown), per_line):
        chunk = shown[start : start + per_line]
        if start:
            text.append("\n")
        text.append(f"{start:08x}  ", offset_style)
        hex_part = " ".join(f"{byte:02x}" for byte in chunk)
        if per_line == 16 and len(chunk) > 8:
            hex_part = hex_part[:23] + " " + hex_part[23:]
        text.append(hex_part.ljust(per_line * 3 + (1 if per_line == 16 else 0) - 1))
        text.append("  |", offset_style)
        text.append("".join(chr(b) if 0x20 <= b < 0x7F else "." for b in chunk), ascii_style)
        text.append("|", offset_style)
    if len(data) > len(shown):
        text.append("\n")
        text.append_text(cut_marker(len(data) - len(shown), "bytes"))
    return text
