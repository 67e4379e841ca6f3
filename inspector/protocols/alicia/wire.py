"""The Alicia wire vocabulary: type numbers, standard error codes and their message templates, and the
encoding of envelopes (a ToolUseResult exactly as the spec describes it, for answering in a room)."""

from __future__ import annotations

from typing import Any

import msgpack

TOOL_USE_REQUEST = 6
TOOL_USE_RESULT = 7
DEFAULT_TIMEOUT_MS = 30000
MAX_PACKET_BYTES = 64000  # the LiveKit SDK's cap on one data packet

TYPE_NAMES: dict[int, str] = {
    1: "ErrorMessage",
    2: "UserMessage",
    3: "AssistantMessage",
    4: "AudioChunk",
    5: "ReasoningStep",
    6: "ToolUseRequest",
    7: "ToolUseResult",
    8: "Acknowledgement",
    9: "Transcription",
    10: "ControlStop",
    11: "ControlVariation",
    12: "Configuration",
    13: "StartAnswer",
    14: "MemoryTrace",
    15: "Commentary",
    16: "AssistantSentence",
    17: "SyncRequest",
    18: "SyncResponse",
    20: "Feedback",
    21: "FeedbackConfirmation",
    22: "UserNote",
    23: "NoteConfirmation",
    24: "MemoryAction",
    25: "MemoryConfirmation",
    26: "ServerInfo",
    27: "SessionStats",
    29: "DimensionPreference",
    30: "EliteSelect",
    31: "EliteOptions",
    # The coded generation (longregen/alicia shared/protocol/types.go): types past 31.
    33: "GenerationRequest",
    34: "ThinkingSummary",
    35: "TitleUpdate",
    40: "Subscribe",
    41: "Unsubscribe",
    42: "SubscribeAck",
    43: "UnsubscribeAck",
    50: "BranchUpdate",
    51: "VoiceJoinRequest",
    52: "VoiceJoinAck",
    53: "VoiceLeaveRequest",
    54: "VoiceLeaveAck",
    55: "VoiceStatus",
    56: "VoiceSpeaking",
    60: "PreferencesUpdate",
    70: "AssistantToolsRegister",
    71: "AssistantToolsAck",
    72: "AssistantHeartbeat",
    80: "GenerationComplete",
    90: "WhatsAppPairRequest",
    91: "WhatsAppQR",
    92: "WhatsAppStatus",
    93: "WhatsAppDebug",
}


def type_name(msg_type: int) -> str:
    """The name of a message type of either generation ("unknown type N" otherwise)."""
    return TYPE_NAMES.get(msg_type, f"unknown type {msg_type}")


STANDARD_ERROR_CODES = ("unknown_tool", "timeout", "execution_error", "invalid_parameters")

_MESSAGE_TEMPLATES = {
    "unknown_tool": "Tool '{toolName}' is not supported by this client",
    "timeout": "Tool execution exceeded timeout of {timeoutMs}ms",
    "invalid_parameters": "Invalid parameters for tool '{toolName}'",
    "execution_error": "Tool '{toolName}' failed during execution",
}


# -- encoding ------------------------------------------------------------------------------
def error_message_for(code: str, tool_name: str = "", timeout_ms: int | None = None) -> str:
    """The spec's message template for a standard error code, filled in ("" for custom codes)."""
    template = _MESSAGE_TEMPLATES.get(code, "")
    return fill_template(template, tool_name, timeout_ms)


FILL_LIMIT = 1 << 20
"""A filled template never grows past this many characters (one packet holds 64 KB): a template of many
``{toolName}`` and a session's 70 KB tool name would otherwise expand to gigabytes before any check."""


class TemplateTooLarge(ValueError):
    """A template that would expand past its bound; nothing was expanded."""


def fill_template(
    template: str, tool_name: str = "", timeout_ms: int | None = None, limit: int = FILL_LIMIT
) -> str:
    """Replace ``{toolName}`` and ``{timeoutMs}`` in a message template; raises TemplateTooLarge (before
    expanding anything) when the result would be longer than ``limit`` characters."""
    timeout = str(DEFAULT_TIMEOUT_MS if timeout_ms is None else timeout_ms)
    names, timeouts = template.count("{toolName}"), template.count("{timeoutMs}")
    size = len(template) + names * (len(tool_name) - 10) + timeouts * (len(timeout) - 11)
    if size > limit:
        raise TemplateTooLarge(f"the template would expand to {size:,} characters (the bound is {limit:,})")
    return template.replace("{toolName}", tool_name).replace("{timeoutMs}", timeout)


def tool_result_body(
    *,
    call_id: str,
    success: bool,
    result: dict[str, Any] | None = None,
    error_code: str | None = None,
    error_message: str | None = None,
    conversation_id: str | None = None,
    message_id: str | None = None,
) -> dict[str, Any]:
    """A ToolUseResult body both readers accept.

    ``id`` and ``requestId`` both name the request: the protocol document's type 7 matches by ``id``,
    the Go server by ``requestId`` (longregen/alicia api/server/ws.go looks the tool use up by it and
    never reads ``id``). ``conversationId`` is in the body as types.go has it. A failure carries the
    document's ``errorCode``/``errorMessage`` and the code's string ``error``.
    """
    body: dict[str, Any] = {"id": call_id, "requestId": call_id}
    if conversation_id is not None:
        body["conversationId"] = conversation_id
    if message_id:
        body["messageId"] = message_id
    body["success"] = bool(success)
    if result is not None:
        body["result"] = result
    if not success:
        body["errorCode"] = error_code or "execution_error"
        if error_message is not None:
            body["errorMessage"] = error_message
        body["error"] = error_message or body["errorCode"]
    return body


def envelope(
    *, type_: int, body: Any, conversation_id: str, stanza_id: int, meta: dict[str, Any] | None = None
) -> dict[str, Any]:
    """An envelope map in the spec's field order."""
    return {
        "stanzaId": stanza_id,
        "conversationId": conversation_id,
        "type": type_,
        "meta": meta or {},
        "body": body,
    }


def encode_envelope(
    *, type_: int, body: Any, conversation_id: str, stanza_id: int, meta: dict[str, Any] | None = None
) -> bytes:
    """MessagePack bytes of one envelope."""
    env = envelope(type_=type_, body=body, conversation_id=conversation_id, stanza_id=stanza_id, meta=meta)
    packed: bytes = msgpack.packb(env, use_bin_type=True)
    return packed


def encode_tool_result(
    *,
    conversation_id: str,
    stanza_id: int,
    call_id: str,
    success: bool,
    result: dict[str, Any] | None = None,
    error_code: str | None = None,
    error_message: str | None = None,
    meta: dict[str, Any] | None = None,
) -> bytes:
    """A ToolUseResult (type 7) envelope, ready for ``publish_data``."""
    body = tool_result_body(
        call_id=call_id,
        success=success,
        result=result,
        error_code=error_code,
        error_message=error_message,
        conversation_id=conversation_id,
    )
    return encode_envelope(
        type_=TOOL_USE_RESULT,
        body=body,
        conversation_id=conversation_id,
        stanza_id=stanza_id,
        meta=meta,
    )
