"""A live LiveKit room through the real ``livekit`` SDK: packets in, answers out, room events as messages.

The SDK runs on a loop of its own thread (:mod:`inspector.sources.sdk_thread`); its callbacks only copy
what they need and hand it to the loop that runs :meth:`LiveKitSource.start`, where the store is touched.
Per packet the work there is one decode, one recording line and one store update (see
``bench/bench_ingest.py``).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from inspector.answer import wire_size
from inspector.model import Call, CallStore
from inspector.protocols.recording import RecordingWriter
from inspector.sources.base import AnswerRefused, LiveConnectError, SourceStatus
from inspector.sources.packets import PacketSource, requester
from inspector.sources.sdk_thread import Inbox, LoopThread
from inspector.sources.unnamed import Held, SenderWait
from inspector.textsafe import one_line

_REASONS = {
    "UNKNOWN_REASON": "the connection was lost",
    "CLIENT_INITIATED": "left the room",
    "DUPLICATE_IDENTITY": "another participant joined with the same identity",
    "SERVER_SHUTDOWN": "the server shut down",
    "PARTICIPANT_REMOVED": "removed from the room by the server",
    "ROOM_DELETED": "the room was deleted",
    "STATE_MISMATCH": "the server lost track of this participant",
    "JOIN_FAILURE": "the join failed",
    "SIGNAL_CLOSE": "the signalling connection closed",
    "ROOM_CLOSED": "the room was closed",
    "CONNECTION_TIMEOUT": "the connection timed out",
    "MEDIA_FAILURE": "the media connection failed",
}


def safe_url(url: str) -> str:
    """The URL without user info, query or fragment (where secrets could hide)."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host += f":{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def disconnect_reason_text(reason: Any) -> str:
    """Words for an SDK ``DisconnectReason`` value."""
    try:
        from livekit import rtc

        name = rtc.DisconnectReason.Name(reason)
    except (ValueError, ImportError, TypeError):
        return f"disconnected (reason {reason})"
    return _REASONS.get(name, name.lower().replace("_", " "))


JOIN_WAIT_S = 5.0
"""How long stop() waits for a join under way before leaving."""


class LiveKitSource(PacketSource):
    """Joins one LiveKit room with a token; every data packet goes through the Alicia decoder.

    ``answering`` must match what the token grants (``canPublishData``): it sets :attr:`can_answer`.
    ``explain(url, exc) -> str`` turns a connection failure into a readable sentence and the optional
    ``async preflight(url) -> str | None`` checks the network path first (see ``inspector.live.errors``).
    """

    name = "livekit"
    is_live = True
    addresses_answers = True  # an answer goes to the requester alone (LiveKit destination identities)
    needs_connection = True

    @property
    def label(self) -> str:
        return f"live {self.state.room}".strip()

    def __init__(
        self,
        url: str,
        token: str,
        store: CallStore,
        writer: RecordingWriter | None = None,
        *,
        room: str = "",
        identity: str = "",
        answering: bool = False,
        connect_timeout: float | None = None,
        explain: Any = None,
        preflight: Any = None,
    ) -> None:
        super().__init__(store, writer, identity=identity, answering=answering)
        self.url = url
        self.display_url = safe_url(url)
        self._token = token
        self._connect_timeout = connect_timeout
        self._explain = explain
        self._preflight = preflight
        self._room: Any = None  # touched only on the SDK's loop
        self._sdk: LoopThread | None = None
        self._inbox: Inbox | None = None
        self._stopping = False
        self.lost: asyncio.Event | None = None  # set when the room is lost (created in start())
        self._present: set[str] = set()  # who has been announced in the list (joined or seen by data)
        self._sessions: dict[str, str] = {}  # identity -> the participant sid its latest packet came from
        self._joining: asyncio.Future[Any] | None = None  # the join under way, for stop() to wait on
        self._waiting: SenderWait | None = None  # packets that came before their sender was named
        self.give_up_after: float | None = None  # run(): keep trying for ever unless told otherwise
        self.arrived = 0  # data packets the SDK handed over (counted on its thread)
        self._refused = 0  # of them, those handed over after the inbox closed (counted on the SDK's thread)
        self._dropped = 0  # those still in the inbox when it closed (counted on the app's loop)
        self._set_state(room=room)

    @property
    def unwritten(self) -> int:
        """Data packets the SDK handed over that were never recorded nor shown (they came while leaving)."""
        return self._refused + self._dropped

    # -- lifecycle ---------------------------------------------------------------------
    async def start(self) -> None:
        """Connect and start listening; raises :class:`LiveConnectError` with a readable reason."""
        from livekit import rtc

        self.lost = asyncio.Event()
        self._stopping = False
        self._set_state(status=SourceStatus.CONNECTING, detail=f"joining {self.display_url}")
        self.room_event("connection", f"connecting to {self.display_url}")
        if self._preflight is not None:
            problem = await self._preflight(self.url)
            if problem:
                self._fail(problem)
        if self._sdk is None:
            self._sdk = LoopThread()
        self._close_inbox()  # a room left before: what it said is shown, what it says now is not
        self._present = set()  # who is announced in this join (the inbox may announce while it goes on)
        inbox = self._inbox = Inbox(asyncio.get_running_loop())
        inbox.on_error = self._handover_failed
        self._waiting = SenderWait(asyncio.get_running_loop(), self._released)
        options = rtc.RoomOptions(auto_subscribe=False, connect_timeout=self._connect_timeout)
        failure = None
        try:
            joining = self._joining = asyncio.ensure_future(self._sdk.run(self._join(options, inbox)))
            name, identity, others = await joining
        except Exception as exc:  # noqa: BLE001 - the SDK's ConnectError and anything the FFI raises
            failure = (
                self._explain(self.display_url, exc) if self._explain else str(getattr(exc, "message", exc))
            )
        if failure is not None:
            await self._drop_room()
            self._fail(failure)
        if self._stopping:  # stop() came while joining: it waited for the join, then left
            return
        # the inbox drains on its own while the join goes on: someone who joined meanwhile may be
        # announced already (and missing from ``others``, taken earlier): kept, never announced twice
        inbox.flush()  # what the SDK said while joining comes before "connected"
        announced = set(self._present)
        self._present.update(others)
        name = name or self.state.room
        identity = identity or self.state.identity
        self._set_state(
            status=SourceStatus.CONNECTED,
            detail="",
            room=name,
            identity=identity,
            participants=tuple(sorted(self._present)),
            attempt=0,
        )
        self.room_event("connection", f"connected to room {name} as {identity}", identity=identity)
        for other in (o for o in others if o not in announced):
            self.room_event(  # unseen: what it sent before this moment (a room keeps no history)
                "participant",
                f"{other} is in the room",
                sender=other,
                identity=other,
                change="present",
                unseen="before",
            )

    async def run(self, stop: asyncio.Event) -> None:
        """Join, and join again with backoff whenever the room goes away, until ``stop`` (or ``give_up_after``
        seconds out of reach in a row; a refused token or a bad URL ends it at once)."""
        from inspector.sources.rejoin import stay_joined

        await stay_joined(self, stop, give_up_after=self.give_up_after)

    async def _join(self, options: Any, inbox: Inbox) -> tuple[str, str, tuple[str, ...]]:
        """On the SDK's loop: a room, its callbacks wired to ``inbox``, joined; its name, our identity
        and who else is there."""
        from livekit import rtc

        room = rtc.Room(loop=asyncio.get_running_loop())
        self._room = room
        self._wire(room, inbox)
        await room.connect(self.url, self._token, options)
        others = tuple(sorted(p.identity for p in room.remote_participants.values()))
        return room.name or "", room.local_participant.identity or "", others

    async def _drop_room(self) -> None:
        """Leave the room the SDK holds, if any (on its loop; a failure to leave is not reported)."""
        sdk, room = self._sdk, self._room
        self._room = None
        if sdk is None or room is None:
            return
        try:
            await sdk.run(room.disconnect())
        except Exception:  # noqa: BLE001 - it is gone already, or leaving must not fail the exit
            pass

    async def stop(self) -> None:
        """Leave the room (idempotent). A join under way is let finish first (a few seconds at most): the
        SDK ignores a disconnect before it is connected, and the server would keep the participant it then
        made for about 20 s after the process ended."""
        self._stopping = True
        joining = self._joining
        if joining is not None and not joining.done():
            try:
                await asyncio.wait_for(asyncio.shield(joining), JOIN_WAIT_S)
            except Exception:  # noqa: BLE001 - a failed or slow join: nothing more to wait for
                pass
        try:
            await self._drop_room()
            if self._sdk is not None:  # first, so no packet the SDK hands over comes after the inbox closed
                self._sdk.close()
                self._sdk = None
        finally:  # even when a quit's wait gives up on leaving: what came is written before the end
            self._close_inbox()
        if self.state.status not in (SourceStatus.DISCONNECTED, SourceStatus.FAILED):
            self._set_state(status=SourceStatus.DISCONNECTED, detail="left the room")

    def _close_inbox(self) -> None:
        inbox, self._inbox = self._inbox, None
        if inbox is not None:
            inbox.flush()
            # what the SDK put between the flush and the close (its thread still runs when a quit's wait
            # gave up on leaving) is not written: counted, to be said
            self._dropped += sum(1 for call, _ in inbox.close() if call == self._on_data)
        waiting, self._waiting = self._waiting, None
        if waiting is not None:
            waiting.close()  # what still waits for its sender is shown, without one

    async def leave_quietly(self) -> None:
        """Drop a lost room before joining again (the state is left as it is)."""
        await self._drop_room()

    def note_final(self, reason: str) -> None:
        """The room was lost for a reason another try would undo: said once, and not joined again."""
        self.room_event("connection", one_line(self.redact(reason), 400))

    def note_retry(self, attempt: int, delay: float, reason: str) -> None:
        """Say that the room is out of reach and when the next try is (state and list)."""
        self._stopping = False
        words = self.redact(reason)
        self._set_state(
            status=SourceStatus.RECONNECTING, detail=words, participants=(), attempt=attempt, retry_in=delay
        )
        self.room_event("connection", f"reconnecting: {words}; attempt {attempt}, next try in {delay:.1f} s")

    def _fail(self, reason: str) -> None:
        reason = self.redact(reason)
        self._set_state(status=SourceStatus.FAILED, detail=reason)
        self.room_event("connection", f"could not join: {reason}")
        raise LiveConnectError(reason)

    def redact(self, text: str) -> str:
        """``text`` with the token (and anything else secret given to the source) blanked out."""
        if self._token and self._token in text:
            text = text.replace(self._token, "<token>")
        return text

    # -- SDK callbacks: on the SDK's thread they copy what they need into the inbox --------------
    def _wire(self, room: Any, inbox: Inbox) -> None:
        put = inbox.put

        def data(packet: Any) -> None:
            participant = packet.participant
            sender = participant.identity if participant is not None else ""
            if sender:  # its session: a dict's item set, whole under the interpreter's lock
                self._sessions[sender] = str(getattr(participant, "sid", "") or "")
            self.arrived += 1  # on the SDK's thread only
            taken = put(
                self._on_data, bytes(packet.data), sender, packet.topic or None, packet.kind == 1, time.time()
            )
            if not taken:  # the source was stopped: the app's loop is gone or no longer reads
                self._refused += 1

        def joined(participant: Any) -> None:
            at = participant.joined_at
            put(self._on_joined, participant.identity, at.timestamp() if at is not None else None)

        def left(participant: Any) -> None:
            put(self._on_left, participant.identity, getattr(participant, "disconnect_reason", None))

        def reconnecting() -> None:
            put(self._on_reconnecting)

        def reconnected() -> None:
            put(self._on_reconnected)

        def disconnected(reason: Any) -> None:
            put(self._on_disconnected, reason)

        room.on("data_received", data)
        room.on("participant_connected", joined)
        room.on("participant_disconnected", left)
        room.on("reconnecting", reconnecting)
        room.on("reconnected", reconnected)
        room.on("disconnected", disconnected)

    def _handover_failed(self, exc: BaseException) -> None:
        self.room_event("connection", f"an event could not be handled: {type(exc).__name__}: {exc}")

    # -- the same events on the app's loop ------------------------------------------------------
    def _on_data(
        self, data: bytes, sender: str, topic: str | None, reliable: bool, arrival: float | None = None
    ) -> None:
        if not sender and self._waiting is not None:  # the room has not named its sender yet
            self._waiting.hold(Held(arrival or time.time(), data, topic, reliable))
            return
        self._take(data, sender, topic, reliable, None)

    def _take(self, data: bytes, sender: str, topic: str | None, reliable: bool, ts: float | None) -> None:
        if sender and sender not in self._present and sender != self.state.identity:
            self._announce(sender, ts)  # who it is comes before what it says
        try:
            self.receive(data, participant=sender, topic=topic, reliable=reliable, ts=ts)
        except Exception as exc:  # noqa: BLE001 - never let one packet stop the ones after it
            self.room_event("connection", f"a packet could not be handled: {type(exc).__name__}: {exc}")

    def _released(self, packets: list[tuple[Held, str]], announced: tuple[str, ...]) -> None:
        """Packets that waited for their sender: shown now, each with its arrival time."""
        if any(not sender for _, sender in packets):
            who = f" ({' or '.join(announced)} joined meanwhile)" if len(announced) > 1 else ""
            count = sum(1 for _, sender in packets if not sender)
            self.room_event(
                "connection",
                f"{count} packet(s) came from a participant the room never named{who}: their requests "
                "cannot be answered",
            )
        for packet, sender in packets:
            self._take(packet.data, sender, packet.topic, packet.reliable, packet.arrival)

    def _on_joined(self, identity: str, joined_at: float | None = None) -> None:
        if identity in self._present:  # announced already (it was in the room when we joined)
            self._set_state(participants=tuple(sorted({*self.state.participants, identity})))
        else:
            now = time.time()
            self._announce(identity, min(joined_at, now) if joined_at else None)
        if self._waiting is not None:
            self._waiting.announced(identity, joined_at)

    def _announce(self, identity: str, ts: float | None) -> None:
        self._present.add(identity)
        self._set_state(participants=tuple(sorted({*self.state.participants, identity})))
        self.room_event(
            "participant", f"{identity} joined", sender=identity, identity=identity, change="joined", ts=ts
        )

    def _on_left(self, identity: str, reason: Any) -> None:
        self._present.discard(identity)
        self._set_state(participants=tuple(p for p in self.state.participants if p != identity))
        words = f" ({disconnect_reason_text(reason)})" if reason else ""
        self.room_event(
            "participant", f"{identity} left{words}", sender=identity, identity=identity, change="left"
        )

    def _on_reconnecting(self) -> None:
        self._set_state(status=SourceStatus.RECONNECTING, detail="connection lost, trying to resume")
        self.room_event("connection", "connection lost: reconnecting")

    def _on_reconnected(self) -> None:
        self._set_state(status=SourceStatus.CONNECTED, detail="")
        self.room_event("connection", "reconnected")

    def _on_disconnected(self, reason: Any) -> None:
        if self.state.status in (SourceStatus.DISCONNECTED, SourceStatus.FAILED):
            return
        words = disconnect_reason_text(reason)
        self._set_state(status=SourceStatus.DISCONNECTED, detail=words, participants=())
        self._present = set()
        self.room_event("connection", f"disconnected: {words}")
        if self.lost is not None and not self._stopping:
            self.lost.set()

    # -- sending -----------------------------------------------------------------------
    def answer_key(self, call: Call) -> str | None:
        """The room's server is part of the key (one room name on two servers is two rooms), and the
        requester's session in the room (its participant sid, which every inspector in the room sees
        alike): an agent's script run again, joining anew with the same identity, room, conversation and
        request ids, asks anew, and is answered."""
        key = super().answer_key(call)
        if key is None:
            return None
        return f"{self.display_url}\x1f{key}\x1f{self._sessions.get(requester(call) or '', '')}"

    def requester_gone(self, call: Call) -> str | None:
        """An answer goes to the requesting participant alone: once it has left the room, the server
        drops a packet addressed to it, so the answer would reach nobody (and the publish still succeeds)."""
        who = requester(call)
        if who is None or self.state.status is not SourceStatus.CONNECTED or who in self.state.participants:
            return None
        return (
            f"{one_line(who, 60)}, the participant that sent this request, is no longer in the room: the "
            "answer goes to it alone and would reach nobody, so it is not sent"
        )

    def packet_overhead(self, call: Call) -> int:
        topic = call.request.extra.get("topic")
        sender = requester(call)
        return wire_size.packet_overhead(
            identity=self.state.identity,
            topic=topic if isinstance(topic, str) else None,
            destinations=[sender] if sender else [],
        )

    async def _publish(self, data: bytes, *, topic: str | None, destination: str | None = None) -> None:
        room, sdk = self._room, self._sdk
        if room is None or sdk is None or self.state.status is not SourceStatus.CONNECTED:
            raise AnswerRefused(f"not connected ({self.state.status.value}): the answer was not sent")
        to = [destination] if destination else []  # the requesting participant only, not the room
        await sdk.run(
            room.local_participant.publish_data(
                data, reliable=True, topic=topic or "", destination_identities=to
            )
        )
