"""What one answer weighs on the wire: the LiveKit data packet the SDK builds around the payload.

The SDK wraps the payload in a ``DataPacket`` protobuf (kind, sequence, the sender's identity and sid, a
``UserPacket`` with topic and destination identities) and refuses it when that packet exceeds the
negotiated 64,000 bytes ("data packet size (64015 bytes) exceeds the negotiated maximum message size
(64000 bytes)", livekit 1.x's rtc_session). Measured against the real SDK (``tests/live``): the packet is
the payload plus 31 bytes, plus one length-prefixed field each for the identity, the topic (even when
empty) and every destination identity.
"""

from __future__ import annotations

FIXED_OVERHEAD = 31  # field tags, kind, sequence, a LiveKit-shaped participant sid (PA_ + 12), lengths


def _varint_len(value: int) -> int:
    length = 1
    while value >= 0x80:
        value >>= 7
        length += 1
    return length


def _field(text: str) -> int:
    size = len(text.encode("utf-8"))
    return 1 + _varint_len(size) + size


def packet_overhead(
    *, identity: str, topic: str | None, destinations: list[str] | tuple[str, ...] = ()
) -> int:
    """Bytes the SDK adds around a payload of about 64 KB (for small payloads it is at most 2 less)."""
    return FIXED_OVERHEAD + _field(identity) + _field(topic or "") + sum(_field(d) for d in destinations)
