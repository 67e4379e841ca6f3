"""The original record of an event: JSON pretty-printed, MessagePack decoded with a hex dump beside it."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text

from inspector.model.events import RawRef
from inspector.protocols.raw_record import NOTHING, Packet, describe
from inspector.ui.render.json_view import render_json
from inspector.ui.render.parts import fields_line, heading, muted
from inspector.ui.render.safe import DEFAULT_LIMITS, Limits, cut_marker, human_size, safe_text
from inspector.ui.render.theme import RenderTheme

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
    record = describe(data, ref.protocol)
    parts: list[RenderableType] = [muted(record.note, theme)] if record.note else []
    if record.document is not NOTHING:
        parts.append(render_json(record.document, theme, limits))
    elif record.text is not None:
        parts.append(safe_text(record.text, limits=limits))
    if record.packet is not None:
        parts += _packet_parts(record.packet, theme, width, limits)
    if record.unknown:
        parts.append(hex_dump(data, theme, width, limits))
    return parts


def _packet_parts(packet: Packet, theme: RenderTheme, width: int, limits: Limits) -> list[RenderableType]:
    parts: list[RenderableType] = []
    if packet.show_value:
        if packet.value is NOTHING:
            parts += [heading("MessagePack", theme), Text("could not be decoded", Style(color=theme.failed))]
        else:
            parts += [heading("MessagePack, decoded", theme), render_json(packet.value, theme, limits)]
    data = packet.data
    parts += [heading("bytes", theme, human_size(len(data))), hex_dump(data, theme, width, limits)]
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
