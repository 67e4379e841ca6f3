"""Frames of Alicia's WebSocket hub (``/api/v1/ws``): envelopes, subscribe/ack, monitor frames, assistant tools.

Facts from longregen/alicia (read, not copied):

* every frame is one binary WebSocket message holding one MessagePack envelope ``{conversationId, type,
  body}`` plus optional ``trace_id``/``span_id``/``trace_flags`` and ``session_id``/``user_id``; no
  ``stanzaId``, no ``meta`` (``shared/protocol/envelope.go``);
* a connection declares its role with Subscribe (type 40, body flags ``monitorMode``, ``assistantMode``,
  ``agentMode``, ``voiceMode``, ``whatsappMode`` or a ``conversationId``) and gets SubscribeAck (type 42,
  ``success``, ``error``); a refused secret is an ack with ``success: false`` and ``error:
  "authentication required"``, and the connection stays open (``api/server/ws.go``);
* a monitor gets every frame the hub receives or sends wrapped as ``{src, dst, data}`` with ``data`` the
  raw envelope bytes (``api/server/ws.go``, ``monitorFrame``);
* the assistant registers tools (type 70 ``{tools: [{name, description, inputSchema}]}``, acked by type
  71 ``{success, toolCount, error}``) and heartbeats (type 72, empty body; the Android app sends one every
  15 s: ``android/.../ws/AssistantWebSocket.kt``) (``shared/protocol/types.go``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgpack

import inspector.protocols.common.msgdepth as _msgdepth
from inspector.model import values

SUBSCRIBE = 40
UNSUBSCRIBE = 41
SUBSCRIBE_ACK = 42
TOOLS_REGISTER = 70
TOOLS_ACK = 71
HEARTBEAT = 72
TOOL_USE_REQUEST = 6
TOOL_USE_RESULT = 7
GENERATION_REQUEST = 33

ROLES = ("client", "agent", "voice", "assistant", "whatsapp", "server", "monitor")
MODES = {
    "monitor": "monitorMode",
    "assistant": "assistantMode",
    "agent": "agentMode",
    "voice": "voiceMode",
    "whatsapp": "whatsappMode",
}
HEARTBEAT_EVERY = 15.0  # seconds, as the Android assistant does
TOOL_TIMEOUT = (
    30.0  # seconds: the bridge's wait for a client tool's answer (mcp/assistant/bridge.go ToolTimeout)
)
STALE_AFTER = (
    30.0  # seconds without a heartbeat before the bridge calls the assistant unavailable (bridge.go)
)


class FrameError(ValueError):
    """A frame that is not what the hub sends; ``str()`` says what is wrong."""


def encode(type_: int, body: Any, conversation_id: str = "", **context: Any) -> bytes:
    """One envelope as the Go hub encodes it (``conversationId`` omitted when empty, as ``omitempty``)."""
    env: dict[str, Any] = {}
    if conversation_id:
        env["conversationId"] = conversation_id
    env["type"] = type_
    env["body"] = body
    for key in ("trace_id", "span_id", "trace_flags", "session_id", "user_id"):
        if context.get(key):
            env[key] = context[key]
    return bytes(msgpack.packb(env, use_bin_type=True))


def _unpack(data: bytes) -> tuple[Any, bool]:
    """The MessagePack value of ``data`` and whether a string of it was not UTF-8 (read with U+FFFD for
    each bad byte, as a packet's are: inspector.protocols.alicia.decode); a value nested past the
    unpacker's depth is read with a stand-in past ``values.MAX_DEPTH``, as a packet's is; raises FrameError."""
    try:
        try:
            return msgpack.unpackb(data, raw=False, strict_map_key=False), False
        except UnicodeDecodeError:
            obj = msgpack.unpackb(data, raw=False, strict_map_key=False, unicode_errors="surrogateescape")
            return values.valid(obj), True
        except msgpack.StackError:
            found = _msgdepth.shallow_all(data)
            if found is None:
                raise
            return _unpack(found[0])
    except Exception as exc:  # noqa: BLE001 - msgpack raises several kinds
        raise FrameError(f"not MessagePack ({type(exc).__name__})") from None


def decode(data: bytes) -> dict[str, Any]:
    """An envelope map (a string that is not UTF-8 read with U+FFFD, as the Go hub reads on); raises
    :class:`FrameError` for anything else."""
    obj, _ = _unpack(data)
    if not isinstance(obj, dict) or not isinstance(obj.get("type"), int):
        raise FrameError("not an envelope (a map with an integer 'type')")
    return obj


def subscribe(role: str = "", conversation_id: str = "") -> bytes:
    """A Subscribe envelope for ``role`` (a key of :data:`MODES`) or for one conversation."""
    body: dict[str, Any] = {}
    if role:
        body[MODES[role]] = True
    if conversation_id:
        body["conversationId"] = conversation_id
    return encode(SUBSCRIBE, body)


def subscribe_ack(
    success: bool, error: str = "", conversation_id: str = "", agent_mode: bool = False
) -> bytes:
    body: dict[str, Any] = {}
    if conversation_id:
        body["conversationId"] = conversation_id
    if agent_mode:
        body["agentMode"] = True
    body["success"] = success
    if error:
        body["error"] = error
    return encode(SUBSCRIBE_ACK, body, conversation_id)


def role_of(body: Any) -> str:
    """The role a Subscribe body asks for, in the server's order of checks; ``""`` for a conversation."""
    if not isinstance(body, dict):
        return ""
    for role in ("agent", "voice", "monitor", "assistant", "whatsapp"):
        if body.get(MODES[role]) is True:
            return role
    return ""


@dataclass(frozen=True)
class Ack:
    """What a SubscribeAck or AssistantToolsAck said."""

    success: bool
    error: str = ""
    count: int = 0


def read_ack(data: bytes, expected: int) -> Ack | None:
    """The ack in ``data`` when it is of type ``expected`` (42 or 71), else None."""
    try:
        env = decode(data)
    except FrameError:
        return None
    if env.get("type") != expected:
        return None
    body = env.get("body")
    if not isinstance(body, dict):
        return Ack(False, "the ack has no body")
    error = body.get("error")
    count = body.get("toolCount")
    return Ack(
        body.get("success") is True,
        error if isinstance(error, str) else "",
        count if isinstance(count, int) and not isinstance(count, bool) else 0,
    )


@dataclass(frozen=True)
class MonitorFrame:
    """One frame a monitor receives: who sent the envelope, to whom, and its raw bytes."""

    src: str
    dst: str
    data: bytes
    note: str | None = None
    """What was wrong with the wrapper's own bytes (its envelope, ``data``, says its own)."""


def monitor_frame(src: str, dst: str, data: bytes) -> bytes:
    """A monitor frame as the hub wraps it (``data`` as MessagePack bin, as Go encodes ``[]byte``)."""
    return bytes(msgpack.packb({"src": src, "dst": dst, "data": bytes(data)}, use_bin_type=True))


def read_monitor_frame(data: bytes) -> MonitorFrame:
    """Unwrap a monitor frame; raises :class:`FrameError` when it is not one."""
    obj, bad = _unpack(data)
    if not isinstance(obj, dict) or "data" not in obj:
        if isinstance(obj, dict) and isinstance(obj.get("type"), int):
            return MonitorFrame("server", "monitor", bytes(data))  # an envelope sent to the monitor itself
        raise FrameError("not a monitor frame (a map with src, dst and data)")
    inner = obj.get("data")
    if isinstance(inner, dict) and isinstance(inner.get("type"), int):
        # the envelope as a nested map rather than bytes (ws.go sends bytes; a relay may re-encode it)
        inner = msgpack.packb(inner, use_bin_type=True)
    if not isinstance(inner, (bytes, bytearray)):
        raise FrameError("the monitor frame's data is not bytes")
    src, dst = obj.get("src"), obj.get("dst")
    return MonitorFrame(
        src if isinstance(src, str) and src else "?",
        dst if isinstance(dst, str) and dst else "?",
        bytes(inner),
        "the monitor frame's src or dst held invalid UTF-8: read with U+FFFD in place of each bad byte"
        if bad
        else None,
    )


def tools_register(tools: list[dict[str, Any]]) -> bytes:
    """AssistantToolsRegister: ``tools`` are maps with ``name``, ``description`` and maybe ``inputSchema``."""
    return encode(TOOLS_REGISTER, {"tools": tools})


def tools_ack(success: bool, count: int, error: str = "") -> bytes:
    body: dict[str, Any] = {"success": success, "toolCount": count}
    if error:
        body["error"] = error
    return encode(TOOLS_ACK, body)


def heartbeat() -> bytes:
    return encode(HEARTBEAT, {})


def answer_envelope(body: dict[str, Any], conversation_id: str) -> dict[str, Any]:
    """A ToolUseResult envelope as the hub's Go decoder reads it (no stanzaId, no meta)."""
    env: dict[str, Any] = {}
    if conversation_id:
        env["conversationId"] = conversation_id
    env["type"] = TOOL_USE_RESULT
    env["body"] = body
    return env
