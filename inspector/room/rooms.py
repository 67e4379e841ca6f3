"""Rooms and participants of the loopback server: membership, what others are told, data packet routing.

No network code here: a participant posts signal responses to its outbox and sends packets through its
peer session; the server drives both.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from google.protobuf.message import DecodeError
from livekit.protocol import models, rtc

from inspector.room.peer import LOSSY, RELIABLE, PeerSession
from inspector.room.tokens import Grant

log = logging.getLogger("inspector.room")

SERVER_VERSION = "1.9.0"  # the SDK parses it as semver and wants >= 1.8.0 for RPC
PROTOCOL_VERSION = 16
PING_INTERVAL = 5  # seconds; 0 would abort the SDK's process
PING_TIMEOUT = 15
FORWARDED = frozenset(
    {
        "user",
        "sip_dtmf",
        "transcription",
        "metrics",
        "chat_message",
        "rpc_request",
        "rpc_ack",
        "rpc_response",
        "stream_header",
        "stream_chunk",
        "stream_trailer",
        "encrypted_packet",
    }
)
KINDS = {
    "standard": models.ParticipantInfo.Kind.STANDARD,
    "ingress": models.ParticipantInfo.Kind.INGRESS,
    "egress": models.ParticipantInfo.Kind.EGRESS,
    "sip": models.ParticipantInfo.Kind.SIP,
    "agent": models.ParticipantInfo.Kind.AGENT,
}
ACTIVE = models.ParticipantInfo.State.ACTIVE
DISCONNECTED = models.ParticipantInfo.State.DISCONNECTED


def new_sid(prefix: str) -> str:
    """A LiveKit-shaped id: ``PA_`` for participants (the SDK panics on anything else), ``RM_`` for rooms."""
    return prefix + secrets.token_urlsafe(9).replace("-", "x").replace("_", "y")


@dataclass(frozen=True)
class ParticipantView:
    """A snapshot of one participant, for tests and logs."""

    identity: str
    sid: str
    name: str
    hidden: bool
    path: str
    joined_at: float
    packets_in: int
    packets_out: int
    can_publish_data: bool = True


@dataclass(eq=False)
class Participant:
    """One joined participant: its grant, its outbox of signal responses and its peer session."""

    grant: Grant
    room: Room
    path: str  # "v1" (single peer connection) or "v0" (/rtc)
    client_protocol: int = 0
    sid: str = field(default_factory=lambda: new_sid("PA_"))
    joined_at: float = field(default_factory=time.time)
    version: int = 1
    outbox: asyncio.Queue[rtc.SignalResponse | None] = field(default_factory=asyncio.Queue)
    peer: PeerSession | None = None
    last_seen: float = field(default_factory=time.monotonic)
    packets_in: int = 0
    packets_out: int = 0
    gone: bool = False

    @property
    def identity(self) -> str:
        return self.grant.identity

    def post(self, response: rtc.SignalResponse) -> None:
        if not self.gone:
            self.outbox.put_nowait(response)

    def info(
        self,
        state: models.ParticipantInfo.State = ACTIVE,
        reason: models.DisconnectReason = models.DisconnectReason.UNKNOWN_REASON,
    ) -> models.ParticipantInfo:
        grant = self.grant
        self.version += 1
        return models.ParticipantInfo(
            sid=self.sid,
            identity=grant.identity,
            name=grant.name,
            state=state,
            metadata=grant.metadata,
            joined_at=int(self.joined_at),
            joined_at_ms=int(self.joined_at * 1000),
            version=self.version,
            kind=KINDS.get(grant.kind.lower(), models.ParticipantInfo.Kind.STANDARD),
            attributes=grant.attributes,
            disconnect_reason=reason,
            client_protocol=self.client_protocol,
            permission=models.ParticipantPermission(
                can_subscribe=grant.can_subscribe,
                can_publish=grant.can_publish,
                can_publish_data=grant.can_publish_data,
                hidden=grant.hidden,
                agent=grant.kind.lower() == "agent",
            ),
        )

    def view(self) -> ParticipantView:
        return ParticipantView(
            self.identity,
            self.sid,
            self.grant.name,
            self.grant.hidden,
            self.path,
            self.joined_at,
            self.packets_in,
            self.packets_out,
            self.grant.can_publish_data,
        )


@dataclass(eq=False)
class Room:
    """A room exists while someone is in it."""

    name: str
    sid: str = field(default_factory=lambda: new_sid("RM_"))
    created: float = field(default_factory=time.time)
    members: dict[str, Participant] = field(default_factory=dict)  # by identity

    def proto(self) -> models.Room:
        return models.Room(
            sid=self.sid,
            name=self.name,
            creation_time=int(self.created),
            creation_time_ms=int(self.created * 1000),
            empty_timeout=300,
            departure_timeout=20,
            num_participants=sum(1 for p in self.members.values() if not p.grant.hidden),
        )

    def visible_others(self, me: Participant) -> list[Participant]:
        return [p for p in self.members.values() if p is not me and not p.grant.hidden]


class Registry:
    """Every room of the server; admits and removes participants and routes their data packets."""

    def __init__(self, on_event: Callable[[str], None]) -> None:
        self.rooms: dict[str, Room] = {}
        self._on_event = on_event

    def find(self, identity: str, room: str | None = None) -> Participant | None:
        for r in self.rooms.values():
            if room is not None and r.name != room:
                continue
            if identity in r.members:
                return r.members[identity]
        return None

    def admit(self, participant: Participant) -> None:
        """Make ``participant`` a member: post its JoinResponse first, then tell the others."""
        room = participant.room
        room.members[participant.identity] = participant
        join = rtc.JoinResponse(
            room=room.proto(),
            participant=participant.info(),
            other_participants=[p.info() for p in room.visible_others(participant)],
            server_version=SERVER_VERSION,
            subscriber_primary=False,
            ping_interval=PING_INTERVAL,
            ping_timeout=PING_TIMEOUT,
            server_info=models.ServerInfo(
                edition=models.ServerInfo.Edition.Standard,
                version=SERVER_VERSION,
                protocol=PROTOCOL_VERSION,
                region="loopback",
                node_id="ND_inspector",
            ),
        )
        participant.post(rtc.SignalResponse(join=join))
        if not participant.grant.hidden:
            self._tell_others(participant, participant.info())
        self._on_event(
            f"join  {room.name}: {participant.identity} ({participant.sid}, {participant.path}"
            f"{', hidden' if participant.grant.hidden else ''})"
        )

    def remove(self, participant: Participant, reason: models.DisconnectReason, how: str) -> bool:
        """Take ``participant`` out of its room and tell the others; False when it was gone already."""
        if participant.gone:
            return False
        room = participant.room
        if room.members.get(participant.identity) is participant:
            del room.members[participant.identity]
        if not participant.grant.hidden:
            self._tell_others(participant, participant.info(DISCONNECTED, reason))
        participant.gone = True
        participant.outbox.put_nowait(None)
        if not room.members and self.rooms.get(room.name) is room:
            del self.rooms[room.name]
        self._on_event(
            f"leave {room.name}: {participant.identity} ({how}; "
            f"{participant.packets_in} packets sent, {participant.packets_out} received)"
        )
        return True

    def room(self, name: str) -> Room:
        if name not in self.rooms:
            self.rooms[name] = Room(name)
        return self.rooms[name]

    def _tell_others(self, participant: Participant, info: models.ParticipantInfo) -> None:
        update = rtc.SignalResponse(update=rtc.ParticipantUpdate(participants=[info]))
        for other in participant.room.members.values():
            if other is not participant:
                other.post(update)

    def route(self, sender: Participant, label: str, data: bytes) -> None:
        """Forward one data packet from ``sender`` to the others on the same kind of channel."""
        if sender.gone or label not in (RELIABLE, LOSSY):
            return
        sender.last_seen = time.monotonic()
        if not sender.grant.can_publish_data:
            log.debug("%s may not publish data; packet dropped", sender.identity)
            return
        try:
            packet = models.DataPacket.FromString(data)
        except DecodeError:
            log.info(
                "%s sent a packet that is not a DataPacket (%d bytes); dropped", sender.identity, len(data)
            )
            return
        kind = packet.WhichOneof("value")
        if kind not in FORWARDED:
            return
        sender.packets_in += 1
        packet.participant_identity = sender.identity
        packet.participant_sid = sender.sid
        targets = set(packet.destination_identities)
        if kind == "user":
            packet.user.participant_identity = sender.identity
            packet.user.participant_sid = sender.sid
            targets.update(packet.user.destination_identities)
        out = packet.SerializeToString()
        for member in sender.room.members.values():
            if member is sender or member.peer is None or (targets and member.identity not in targets):
                continue
            member.packets_out += 1
            member.peer.send(label, out)
