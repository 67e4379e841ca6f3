"""A loopback LiveKit-compatible room server for trying things locally: NOT a LiveKit server.

It speaks enough of LiveKit's signalling (WebSocket + protobuf) and WebRTC data channels (through aiortc)
for the real ``livekit`` Python SDK to connect, join a room, see who else is there and exchange data
packets, all on this machine. There is no media, no TURN/STUN, no resume, no persistence, no scaling,
and no security beyond checking the token: use a real LiveKit server for anything else.

Needs the ``room`` extra (``pip install 'toolcall-inspector[room]'``). ``RoomServer`` (asyncio) and
``RoomServerThread`` (a background thread, for synchronous callers) are loaded lazily, so importing
this package or ``inspector.room.tokens`` pulls in neither aiortc nor livekit.
"""

from __future__ import annotations

from typing import Any

__all__ = ["RoomServer", "RoomServerThread", "ParticipantView", "mint_token", "verify_token", "TokenError"]

_LAZY = {
    "RoomServer": "inspector.room.server",
    "RoomServerThread": "inspector.room.thread",
    "ParticipantView": "inspector.room.rooms",
    "mint_token": "inspector.room.tokens",
    "verify_token": "inspector.room.tokens",
    "TokenError": "inspector.room.tokens",
}


def __getattr__(name: str) -> Any:
    module_name = _LAZY.get(name)
    if module_name is None:
        raise AttributeError(f"module 'inspector.room' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module_name), name)
