"""The signalling side of the loopback room server: HTTP checks, the WebSocket per participant, pings,
and the Python API (RoomServer) that tests and the demo use."""

from __future__ import annotations

import asyncio
import base64
import gzip
import logging
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

from livekit.protocol import models, rtc
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from inspector.room.net import has_non_loopback_interface, ice_addresses, leave, now_ms, respond, url_host
from inspector.room.peer import PeerSession, restrict_ice_hosts
from inspector.room.rooms import PING_TIMEOUT, Participant, ParticipantView, Registry
from inspector.room.tokens import (
    DEV_API_KEY,
    DEV_API_SECRET,
    Grant,
    TokenError,
    bearer_token,
    mint_token,
    verify_token,
)
from inspector.textsafe import clean

log = logging.getLogger("inspector.room")
REASON = models.DisconnectReason


@dataclass
class JoinParams:
    """What the upgrade request asked for, checked before the WebSocket is accepted."""

    grant: Grant
    path: str  # "v1" or "v0"
    offer: rtc.SessionDescription | None
    client_protocol: int


class RequestRefused(Exception):
    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status


class RoomServer:
    """A LiveKit-compatible room server for data packets on one machine. Not a LiveKit server.

    ``async with RoomServer(port=0) as server:`` then connect SDK participants to ``server.url`` with
    tokens from ``server.mint_token(identity, room)``.
    """

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 7880,
        api_key: str = DEV_API_KEY,
        api_secret: str = DEV_API_SECRET,
        *,
        single_pc: bool = True,
        on_event: Callable[[str], None] | None = None,
    ) -> None:
        self.host = host
        self.port = port
        self.api_key = api_key
        self.api_secret = api_secret
        self.single_pc = single_pc  # False answers /rtc/v1 with 404, so SDKs fall back to /rtc
        self._on_event = on_event or (lambda line: log.info("%s", line))
        self.registry = Registry(self._event)
        self._server: Server | None = None
        self._pending: weakref.WeakKeyDictionary[ServerConnection, JoinParams] = weakref.WeakKeyDictionary()
        self._sockets: dict[Participant, ServerConnection] = {}
        self._banned: set[str] = set()
        self._watchdog: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    # ---- lifecycle ---------------------------------------------------------------------------------------

    async def start(self) -> RoomServer:
        restrict_ice_hosts(ice_addresses(self.host))
        self._server = await serve(
            self._connection,
            self.host,
            self.port,
            process_request=self._http,
            compression=None,
            max_size=4 * 1024 * 1024,
            server_header="inspector-room",
        )
        self.port = self._server.sockets[0].getsockname()[1]
        self._watchdog = asyncio.create_task(self._watch_pings())
        if not has_non_loopback_interface():
            self._event(f"warning: {LOOPBACK_ONLY}")
        return self

    async def stop(self) -> None:
        """Tell everyone the server is shutting down, then close every connection."""
        if self._watchdog is not None:
            self._watchdog.cancel()
        for task in list(self._tasks):
            task.cancel()
        for participant in list(self._sockets):
            participant.post(leave(REASON.SERVER_SHUTDOWN))
            await self._end(participant, REASON.SERVER_SHUTDOWN, "server shutdown", graceful=True)
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None

    async def __aenter__(self) -> RoomServer:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def url(self) -> str:
        return f"ws://{url_host(self.host)}:{self.port}"

    # ---- the Python API ----------------------------------------------------------------------------------

    def mint_token(self, identity: str, room: str, **options: Any) -> str:
        """A join token signed with this server's key (options: name, hidden, can_publish_data, ttl, ...)."""
        return mint_token(self.api_key, self.api_secret, identity, room, **options)

    def participants(self, room: str) -> list[ParticipantView]:
        """Everyone in ``room`` right now, hidden participants included."""
        found = self.registry.rooms.get(room)
        return [p.view() for p in found.members.values()] if found else []

    def rooms(self) -> list[str]:
        return sorted(self.registry.rooms)

    async def drop(self, identity: str, room: str | None = None, *, rejoin: bool = True) -> bool:
        """Cut a participant off abruptly (no leave message), as a lost network would.

        The others see it disconnect. The SDK will try to come back; with ``rejoin=False`` its
        token is refused from now on (until ``allow(identity)``), so it gives up and reports
        the disconnection.
        """
        participant = self.registry.find(identity, room)
        if participant is None:
            return False
        if not rejoin:
            self._banned.add(identity)
        await self._end(
            participant, REASON.UNKNOWN_REASON, "connection dropped by the server", graceful=False
        )
        return True

    async def remove(self, identity: str, room: str | None = None) -> bool:
        """Remove a participant politely, as LiveKit's RemoveParticipant does (leave, no reconnect)."""
        participant = self.registry.find(identity, room)
        if participant is None:
            return False
        participant.post(leave(REASON.PARTICIPANT_REMOVED))
        await self._end(participant, REASON.PARTICIPANT_REMOVED, "removed by the server", graceful=True)
        return True

    def allow(self, identity: str) -> None:
        self._banned.discard(identity)

    # ---- HTTP: checks before the upgrade -----------------------------------------------------------------

    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        parts = urlsplit(request.path)
        path = parts.path.rstrip("/")
        try:
            if path in ("", "/"):
                return respond(200, "OK")
            if path in ("/rtc/validate", "/rtc/v1/validate"):
                self._check_token(request.headers)
                return respond(200, "success")
            if path == "/rtc/v1" and self.single_pc:
                self._pending[connection] = self._join_v1(request.headers, parse_qs(parts.query))
                return None
            if path == "/rtc":
                self._pending[connection] = self._join_v0(request.headers, parse_qs(parts.query))
                return None
            return respond(404, "not found")
        except RequestRefused as exc:
            self._event(f"refused {path}: {exc} (HTTP {exc.status})")
            return respond(exc.status, str(exc))

    def _check_token(self, headers: Headers) -> Grant:
        try:
            grant = verify_token(bearer_token(headers.get("Authorization")), self.api_key, self.api_secret)
        except TokenError as exc:
            raise RequestRefused(401, str(exc)) from None
        if grant.identity in self._banned:
            raise RequestRefused(
                401, f"participant {grant.identity!r} was removed from the room by the server"
            )
        return grant

    def _join_v1(self, headers: Headers, query: dict[str, list[str]]) -> JoinParams:
        grant = self._check_token(headers)
        encoded = (query.get("join_request") or [""])[0]
        if not encoded:
            raise RequestRefused(400, "missing join_request")
        try:
            wrapped = rtc.WrappedJoinRequest.FromString(
                base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4))
            )
            raw = wrapped.join_request
            if wrapped.compression == rtc.WrappedJoinRequest.Compression.GZIP:
                raw = gzip.decompress(raw)
            join = rtc.JoinRequest.FromString(raw)
        except Exception as exc:  # noqa: BLE001 - any malformed request is a 400 with the reason
            raise RequestRefused(400, f"malformed join_request: {exc}") from None
        if join.reconnect:
            raise RequestRefused(409, "this room server keeps no sessions to resume; join again")
        if not join.HasField("publisher_offer") or not join.publisher_offer.sdp:
            raise RequestRefused(400, "join_request carries no publisher offer")
        return JoinParams(grant, "v1", join.publisher_offer, join.client_info.client_protocol)

    def _join_v0(self, headers: Headers, query: dict[str, list[str]]) -> JoinParams:
        grant = self._check_token(headers)
        if (query.get("reconnect") or ["0"])[0] == "1":
            raise RequestRefused(409, "this room server keeps no sessions to resume; join again")
        try:
            client_protocol = int((query.get("client_protocol") or ["0"])[0])
        except ValueError:
            client_protocol = 0
        return JoinParams(grant, "v0", None, client_protocol)

    # ---- the signalling connection -----------------------------------------------------------------------

    async def _connection(self, ws: ServerConnection) -> None:
        params = self._pending.pop(ws, None)
        if params is None:
            await ws.close(1008, "no join")
            return
        participant = self._admit(ws, params)
        writer = asyncio.create_task(self._write(ws, participant))
        try:
            if params.offer is not None:
                await self._answer(participant, params.offer)
            async for message in ws:
                if isinstance(message, bytes):
                    await self._on_request(participant, message)
        except ConnectionClosed:
            pass
        except Exception:  # noqa: BLE001 - one broken session must not take the server down
            log.exception("session of %s failed", clean(participant.identity, keep_newlines=False))
        finally:
            await self._end(participant, REASON.CLIENT_INITIATED, "connection closed", graceful=False)
            writer.cancel()

    def _admit(self, ws: ServerConnection, params: JoinParams) -> Participant:
        previous = self.registry.find(params.grant.identity, params.grant.room)
        if previous is not None:  # same identity again: the newest connection wins, as on LiveKit
            previous.post(leave(REASON.DUPLICATE_IDENTITY))
            self.registry.remove(previous, REASON.DUPLICATE_IDENTITY, "replaced by a new connection")
            self._spawn(self._close(previous, graceful=True))
        participant = Participant(
            params.grant, self.registry.room(params.grant.room), params.path, params.client_protocol
        )
        participant.peer = PeerSession(
            f"{params.grant.identity}@{params.grant.room}",
            on_packet=lambda label, data: self.registry.route(participant, label, data),
            on_failed=lambda: self._spawn(
                self._end(participant, REASON.CONNECTION_TIMEOUT, "peer connection failed", graceful=False)
            ),
        )
        self._sockets[participant] = ws
        self.registry.admit(participant)
        return participant

    async def _answer(self, participant: Participant, offer: rtc.SessionDescription) -> None:
        assert participant.peer is not None
        sdp = await participant.peer.answer(offer.sdp)
        participant.post(
            rtc.SignalResponse(answer=rtc.SessionDescription(type="answer", sdp=sdp, id=offer.id))
        )
        self._spawn(self._check_connected(participant))

    async def _check_connected(self, participant: Participant, after: float = 10.0) -> None:
        """Say why, when a participant's peer connection is not up a while after the answer."""
        await asyncio.sleep(after)
        if participant.gone or participant.peer is None or participant.peer.state == "connected":
            return
        hint = (
            LOOPBACK_ONLY
            if not has_non_loopback_interface()
            else "check that nothing blocks UDP on this host"
        )
        self._event(
            f"slow  {participant.room.name}: {participant.identity}'s peer connection is still "
            f"{participant.peer.state} {after:.0f} s after the answer; {hint}"
        )

    async def _on_request(self, participant: Participant, message: bytes) -> None:
        participant.last_seen = time.monotonic()
        try:
            request = rtc.SignalRequest.FromString(message)
        except Exception:  # noqa: BLE001 - a garbled frame is skipped, the session goes on
            log.info(
                "%s sent a frame that is not a SignalRequest; ignored",
                clean(participant.identity, keep_newlines=False),
            )
            return
        which = request.WhichOneof("message")
        if which == "ping_req":
            pong = rtc.Pong(last_ping_timestamp=request.ping_req.timestamp, timestamp=now_ms())
            participant.post(rtc.SignalResponse(pong_resp=pong))
        elif which == "ping":
            participant.post(rtc.SignalResponse(pong=now_ms()))
        elif which == "trickle" and participant.peer is not None:
            await participant.peer.add_candidate(request.trickle.candidateInit)
        elif which == "offer":
            try:
                await self._answer(participant, request.offer)
            except Exception as exc:  # noqa: BLE001 - e.g. a renegotiation aiortc cannot follow
                self._event(
                    f"offer from {participant.identity} not answered: {str(exc)[:200] or type(exc).__name__}"
                )
        elif which == "leave":
            await self._end(participant, REASON.CLIENT_INITIATED, "left", graceful=True)
        elif which == "add_track":
            self._event(
                f"track from {participant.identity} not accepted: this room server carries data only "
                "(the SDK's publish_track will time out)"
            )

    async def _write(self, ws: ServerConnection, participant: Participant) -> None:
        """Send the participant's outbox in order; a None ends it (after what came before it)."""
        try:
            while True:
                response = await participant.outbox.get()
                if response is None:
                    return
                await ws.send(response.SerializeToString())
        except ConnectionClosed:
            return

    async def _end(
        self, participant: Participant, reason: models.DisconnectReason, how: str, *, graceful: bool
    ) -> None:
        """Remove the participant and close its connections; idempotent."""
        if self.registry.remove(participant, reason, how):
            await self._close(participant, graceful=graceful)

    async def _close(self, participant: Participant, *, graceful: bool) -> None:
        ws = self._sockets.pop(participant, None)
        if ws is not None:
            if graceful:
                await self._drain(participant)
                await ws.close()
            else:
                ws.transport.abort()
        if participant.peer is not None:
            await participant.peer.close()

    async def _drain(self, participant: Participant, timeout: float = 1.0) -> None:
        deadline = time.monotonic() + timeout
        while not participant.outbox.empty() and time.monotonic() < deadline:
            await asyncio.sleep(0.01)

    async def _watch_pings(self) -> None:
        """Drop participants that have gone silent for longer than the ping timeout."""
        while True:
            await asyncio.sleep(1.0)
            now = time.monotonic()
            for participant in list(self._sockets):
                if now - participant.last_seen > PING_TIMEOUT:
                    await self._end(participant, REASON.CONNECTION_TIMEOUT, "ping timeout", graceful=False)

    def _spawn(self, coro) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _event(self, line: str) -> None:
        try:
            # identities, room names and reasons come from tokens and peers: inert before any log
            self._on_event(clean(line, keep_newlines=False))
        except Exception:  # noqa: BLE001 - a failing log sink must not break the room
            log.exception("room event handler failed")


LOOPBACK_ONLY = (
    "this machine has only the loopback interface up: libwebrtc (in the LiveKit SDKs) offers "
    "no loopback ICE candidates, so SDK participants will time out connecting (bring up another "
    "interface with an address)"
)
