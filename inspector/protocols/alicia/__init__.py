"""Alicia over LiveKit: MessagePack envelopes of both generations (the format's public face)."""

from __future__ import annotations

from inspector.protocols.alicia.decode import (
    NAME,
    decode_object,
    decode_packet,
    foreign_text,
    parse_time,
    trace_context,
    unpack_noted,
    unpack_packet,
)
from inspector.protocols.alicia.files import decode_line, raw_record, read, redecode
from inspector.protocols.alicia.wire import (
    DEFAULT_TIMEOUT_MS,
    FILL_LIMIT,
    MAX_PACKET_BYTES,
    STANDARD_ERROR_CODES,
    TOOL_USE_REQUEST,
    TOOL_USE_RESULT,
    TYPE_NAMES,
    TemplateTooLarge,
    encode_envelope,
    encode_tool_result,
    envelope,
    error_message_for,
    fill_template,
    tool_result_body,
    type_name,
)
from inspector.protocols.format import Format
from inspector.protocols.sniffers.alicia import sniff, unpack

DESCRIPTION = "Alicia envelopes: MessagePack (binary or hex lines) or JSON lines"

__all__ = [
    "DEFAULT_TIMEOUT_MS",
    "MAX_PACKET_BYTES",
    "NAME",
    "STANDARD_ERROR_CODES",
    "TOOL_USE_REQUEST",
    "TOOL_USE_RESULT",
    "TYPE_NAMES",
    "decode_line",
    "decode_object",
    "decode_packet",
    "foreign_text",
    "unpack_packet",
    "encode_envelope",
    "encode_tool_result",
    "envelope",
    "error_message_for",
    "fill_template",
    "FILL_LIMIT",
    "TemplateTooLarge",
    "parse_time",
    "raw_record",
    "read",
    "redecode",
    "sniff",
    "tool_result_body",
    "trace_context",
    "type_name",
    "unpack",
    "unpack_noted",
    "DESCRIPTION",
]


FORMAT = Format(NAME, DESCRIPTION, sniff, read, redecode, decode_line=decode_line, raw_record=raw_record)
"""This format for the registry (:func:`inspector.protocols.get`)."""
