"""The WebRTC side of one participant: an aiortc peer connection that answers the SDK's offer and carries
its data channels, with per-channel queues so nothing sent before a channel opens is lost."""

from __future__ import annotations

import json
import logging
from collections import deque
from collections.abc import Callable

import aioice.ice
from aiortc import RTCConfiguration, RTCDataChannel, RTCPeerConnection, RTCSessionDescription
from aiortc.sdp import candidate_from_sdp

log = logging.getLogger("inspector.room")

RELIABLE = "_reliable"
LOSSY = "_lossy"
QUEUE_LIMIT = 20_000  # packets held per channel while it is not open yet
LOSSY_BUFFER_LIMIT = 4 * 1024 * 1024  # a lossy packet is dropped when this much is already buffered

_ice_hosts: list[str] = []
_original_host_addresses = aioice.ice.get_host_addresses


def _host_addresses(use_ipv4: bool, use_ipv6: bool) -> list[str]:
    """aioice's host candidates, kept to the addresses the room server was told to use."""
    if _ice_hosts:
        return list(_ice_hosts)
    return _original_host_addresses(use_ipv4, use_ipv6)


def restrict_ice_hosts(addresses: list[str]) -> None:
    """Make every aiortc peer connection in this process gather host candidates on ``addresses`` only
    (an empty list restores aioice's choice: every interface but loopback).

    aioice leaves 127.0.0.1 out by default and offers every other interface; a loopback room server
    wants the opposite, so its sockets stay on the address it listens on.
    """
    _ice_hosts[:] = addresses
    aioice.ice.get_host_addresses = _host_addresses


PacketHandler = Callable[[str, bytes], None]


class PeerSession:
    """One aiortc peer connection for one participant (the SDK's publisher connection)."""

    def __init__(self, name: str, on_packet: PacketHandler, on_failed: Callable[[], None]) -> None:
        self.name = name
        self._on_packet = on_packet
        self._on_failed = on_failed
        self._pc = RTCPeerConnection(RTCConfiguration(iceServers=[]))  # no STUN: nothing leaves the host
        self._channels: dict[str, RTCDataChannel] = {}
        self._queues: dict[str, deque[bytes]] = {RELIABLE: deque(), LOSSY: deque()}
        self.dropped = 0  # lossy packets dropped because the receiver could not keep up
        self._closed = False
        self._pc.on("datachannel", self._on_datachannel)
        self._pc.on("connectionstatechange", self._on_state)

    @property
    def state(self) -> str:
        return self._pc.connectionState

    async def answer(self, offer_sdp: str) -> str:
        """Take the SDK's offer; return our answer SDP (host candidates included, no trickle needed)."""
        await self._pc.setRemoteDescription(RTCSessionDescription(sdp=offer_sdp, type="offer"))
        answer = await self._pc.createAnswer()
        await self._pc.setLocalDescription(answer)
        return self._pc.localDescription.sdp

    async def add_candidate(self, candidate_init: str) -> None:
        """Add one trickled candidate (``{candidate, sdpMid, sdpMLineIndex}`` as JSON); bad ones are skipped."""
        try:
            init = json.loads(candidate_init)
            text = str(init.get("candidate") or "")
            if not text:
                return  # end of candidates
            if text.startswith("candidate:"):
                text = text[len("candidate:") :]
            candidate = candidate_from_sdp(text)
            candidate.sdpMid = init.get("sdpMid")
            candidate.sdpMLineIndex = init.get("sdpMLineIndex")
            await self._pc.addIceCandidate(candidate)
        except Exception as exc:  # noqa: BLE001 - one odd candidate must not end the session
            log.debug("%s: ignored ICE candidate %r: %s", self.name, candidate_init[:200], exc)

    def send(self, label: str, data: bytes) -> None:
        """Send on our channel with ``label``, or queue until the SDK has opened it."""
        channel = self._channels.get(label)
        if channel is not None and channel.readyState == "open":
            if label == LOSSY and channel.bufferedAmount > LOSSY_BUFFER_LIMIT:
                self.dropped += 1
                return
            channel.send(data)
            return
        if self._closed:
            return
        queue = self._queues.setdefault(label, deque())
        if len(queue) >= QUEUE_LIMIT:
            queue.popleft()
            self.dropped += 1
        queue.append(data)

    def is_open(self, label: str) -> bool:
        channel = self._channels.get(label)
        return channel is not None and channel.readyState == "open"

    async def close(self) -> None:
        self._closed = True
        for queue in self._queues.values():
            queue.clear()
        await self._pc.close()

    def _on_datachannel(self, channel: RTCDataChannel) -> None:
        label = channel.label
        self._channels[label] = channel

        @channel.on("message")
        def on_message(message: bytes | str) -> None:
            data = message.encode() if isinstance(message, str) else message
            self._on_packet(label, data)

        if channel.readyState == "open":
            self._flush(label)
        else:
            channel.on("open", lambda: self._flush(label))

    def _flush(self, label: str) -> None:
        queue = self._queues.get(label)
        channel = self._channels.get(label)
        if not queue or channel is None:
            return
        while queue and channel.readyState == "open":
            channel.send(queue.popleft())

    def _on_state(self) -> None:
        if self._pc.connectionState == "failed" and not self._closed:
            log.info("%s: peer connection failed", self.name)
            self._on_failed()
