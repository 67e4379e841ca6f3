"""The two servers the live suite runs on: our loopback room (``inspector.room``) and the real LiveKit
server (``livekit-server`` from ``../shared/real-servers``, started by ``../shared/livekit-real/start.sh``).

Both offer what the scenarios use: ``url``, ``api_key``, ``api_secret``, ``mint_token(identity, room,
**grants)``, ``participants(room)`` (hidden ones included; the real one asks RoomService), ``remove`` and
``drop`` (the real server can only remove: RemoveParticipant). The pytest side starts one real server per
session (per xdist worker: its own free ports) and hands it to the scenario child processes through
``INSPECTOR_TEST_LIVEKIT``; scenarios that stop and start a server (rejoin) start their own.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
import socket
import subprocess
import tempfile
import urllib.request
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
LIVEKIT_REAL = ROOT.parent / "shared" / "livekit-real"
ENV = "INSPECTOR_TEST_LIVEKIT"
"""Set in a scenario's environment when it runs on the real server: the server's settings as JSON."""


def real_missing() -> str | None:
    """Why the real server cannot run here, or None."""
    start = LIVEKIT_REAL / "start.sh"
    if not start.exists():
        return f"the real LiveKit server is not here ({start} is missing: ../shared sits beside the clone)"
    return None


def _ephemeral_low() -> int:
    """The lowest port the system hands out by itself (to a connect's socket, or a bind to port 0)."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range", encoding="ascii") as fh:
            return int(fh.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def unused_ports(kinds: tuple[int, ...], *, reuse: bool = False) -> list[socket.socket]:
    """Sockets of ``kinds`` bound on every address to free ports below the system's ephemeral range.

    A port the system handed out (bind to 0) goes back to its pool when closed, and a server started on it
    a moment later can find it taken by any client's connect on the machine (a CI run saw 'listen tcp
    :37949: bind: address already in use'): below that range only another test's pick can take it."""
    top = _ephemeral_low()
    bottom = max(1024, top - 20000)
    picker = random.SystemRandom()
    for _ in range(500):
        socks: list[socket.socket] = []
        try:
            for kind in kinds:
                sock = socket.socket(socket.AF_INET, kind)
                socks.append(sock)
                if reuse:
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                sock.bind(("0.0.0.0", picker.randrange(bottom, top) if top - bottom >= 1000 else 0))
            return socks
        except OSError:
            for sock in socks:
                sock.close()
    raise RuntimeError(f"no free ports between {bottom} and {top}")


def free_port() -> int:
    """One TCP port free right now, outside the range the system hands out by itself."""
    [sock] = unused_ports((socket.SOCK_STREAM,))
    with sock:
        return int(sock.getsockname()[1])


_KINDS = (socket.SOCK_STREAM, socket.SOCK_STREAM, socket.SOCK_DGRAM)


def free_ports() -> tuple[int, int, int]:
    """Three ports free right now: HTTP/signalling and ICE over TCP, and one for ICE over UDP."""
    socks = unused_ports(_KINDS)
    port, tcp, udp = (sock.getsockname()[1] for sock in socks)
    for sock in socks:
        sock.close()
    return port, tcp, udp


class HeldPorts:
    """Three ports (as ``free_ports``) kept bound, not listening, while no server of the scenario is on them.

    A scenario that stops its server and starts it again on the same ports would otherwise leave them free
    for a while, for another test's pick to take (xdist runs several at once). A client's connect to a port
    bound but not listening is refused, as to a port no one serves."""

    def __init__(self) -> None:
        self._socks = unused_ports(_KINDS, reuse=True)  # reuse: a server just gone leaves TIME_WAITs
        port, tcp, udp = (sock.getsockname()[1] for sock in self._socks)
        self.ports = (port, tcp, udp)

    def release(self) -> None:
        for sock in self._socks:
            sock.close()
        self._socks = []

    def hold(self) -> None:
        """Bind the ports again (best effort: one taken meanwhile is left to the next start to say)."""
        for kind, port in zip(_KINDS, self.ports, strict=True):
            sock = socket.socket(socket.AF_INET, kind)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind(("0.0.0.0", port))
            except OSError:
                sock.close()
                continue
            self._socks.append(sock)


@dataclass(frozen=True)
class Listed:
    """One participant as RoomService lists it."""

    identity: str
    hidden: bool
    can_publish_data: bool


_WRAPPER = """#!/bin/sh
# written by tests/live/servers.py: the key and secret come from TEST_KEYS (not argv), and the server ends
# with the process that started it (pid {owner}), even one killed before it could call stop.sh
for last; do :; done  # start.sh passes --config PATH last: what names this server in /proc
( while kill -0 {owner} 2>/dev/null && [ -e /proc/$$ ]; do sleep 2; done
  grep -qaF "$last" /proc/$$/cmdline 2>/dev/null && kill $$ ) </dev/null >/dev/null 2>&1 &
LIVEKIT_KEYS="$TEST_KEYS" exec "{binary}" "$@"
"""


class RealServer:
    """One ``livekit-server`` (dev mode, 127.0.0.1) run by start.sh on its own ports with its own key and
    secret (a wrapper hands them to the binary in LIVEKIT_KEYS, which then refuses the dev key)."""

    kind = "real"

    def __init__(
        self,
        *,
        ports: tuple[int, int, int] | None = None,
        api_key: str = "inspector-test",
        api_secret: str | None = None,
        work: str | None = None,
    ) -> None:
        self.ports = ports or free_ports()
        self.api_key = api_key
        self.api_secret = api_secret or "lk-test-" + secrets.token_hex(20)
        self.work = work or os.path.join(os.environ.get("TMPDIR", "/tmp"), "inspector-livekit-real")
        self.version = ""
        self._rooms: dict[str, str] = {}  # identity -> the room its last token was for (drop, remove)

    # -- lifecycle ---------------------------------------------------------------------
    @property
    def port(self) -> int:
        return self.ports[0]

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def _env(self) -> dict[str, str]:
        port, tcp, udp = self.ports
        return {
            **os.environ,
            "LIVEKIT_REAL_WORK": self.work,
            "LIVEKIT_PORT": str(port),
            "LIVEKIT_RTC_TCP_PORT": str(tcp),
            "LIVEKIT_RTC_UDP_PORT": str(udp),
        }

    def start(self) -> RealServer:
        """Unpack (once) and start the server; raises RuntimeError with its log's tail if it does not."""
        env = self._env()
        unpack = LIVEKIT_REAL.parent / "real-servers" / "unpack.sh"
        # one unpacked binary for every session and xdist worker (unpack.sh replaces it only by a rename)
        shared = os.path.join(tempfile.gettempdir(), "inspector-livekit-bin")
        bindir = subprocess.run(
            [str(unpack), shared, "livekit-server"], env=env, capture_output=True, text=True, timeout=120
        )
        if bindir.returncode != 0:
            raise RuntimeError(f"unpack.sh failed: {bindir.stderr.strip()}")
        binary = os.path.join(bindir.stdout.strip(), "livekit-server")
        wrapper = os.path.join(self.work, f"keys-{self.port}.sh")
        os.makedirs(self.work, exist_ok=True)
        with open(wrapper, "w", encoding="utf-8") as fh:
            fh.write(_WRAPPER.format(owner=os.getpid(), binary=binary))
        os.chmod(wrapper, 0o700)
        env.update(LIVEKIT_SERVER=wrapper, TEST_KEYS=f"{self.api_key}: {self.api_secret}")
        done = subprocess.run(
            [str(LIVEKIT_REAL / "start.sh")], env=env, capture_output=True, text=True, timeout=60
        )
        if done.returncode != 0:
            raise RuntimeError(f"start.sh failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
        version = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=30)
        self.version = version.stdout.split()[-1] if version.stdout.split() else ""
        return self

    def stop(self) -> None:
        subprocess.run(
            [str(LIVEKIT_REAL / "stop.sh")], env=self._env(), capture_output=True, text=True, timeout=60
        )

    async def __aenter__(self) -> RealServer:
        return await asyncio.to_thread(self.start)

    async def __aexit__(self, *exc: object) -> None:
        await asyncio.to_thread(self.stop)

    def spec(self) -> str:
        """The settings a scenario child needs, for ``INSPECTOR_TEST_LIVEKIT``."""
        return json.dumps(
            {
                "ports": self.ports,
                "api_key": self.api_key,
                "api_secret": self.api_secret,
                "work": self.work,
                "version": self.version,
            }
        )

    @classmethod
    def from_spec(cls, spec: str) -> RealServer:
        data = json.loads(spec)
        server = cls(
            ports=tuple(data["ports"]),  # type: ignore[arg-type]
            api_key=data["api_key"],
            api_secret=data["api_secret"],
            work=data["work"],
        )
        server.version = data.get("version", "")
        return server

    # -- what the scenarios use ----------------------------------------------------------
    def mint_token(self, identity: str, room: str, **options: Any) -> str:
        from inspector.room.tokens import mint_token

        self._rooms[identity] = room
        return mint_token(self.api_key, self.api_secret, identity, room, **options)

    def _twirp(self, method: str, body: dict[str, Any], room: str, **grants: bool) -> dict[str, Any]:
        admin = _admin_token(self.api_key, self.api_secret, room, **grants)
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}/twirp/livekit.RoomService/{method}",
            data=json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {admin}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as reply:
                return json.loads(reply.read() or b"{}")
        except urllib.error.HTTPError as exc:
            if exc.code == 404:  # no such room (yet, or any more)
                return {}
            raise

    def participants(self, room: str) -> list[Listed]:
        """Everyone in ``room`` as RoomService lists them (hidden participants included)."""
        found = self._twirp("ListParticipants", {"room": room}, room).get("participants", [])
        listed = []
        for p in found:
            grants = p.get("permission", {})  # protobuf JSON: field names as the .proto spells them
            publish = grants.get("can_publish_data", grants.get("canPublishData"))
            listed.append(Listed(p.get("identity", ""), bool(grants.get("hidden")), bool(publish)))
        return listed

    async def delete_room(self, room: str) -> None:
        """DeleteRoom: everyone in it is told the room was deleted (a RoomService call needs roomCreate)."""
        await asyncio.to_thread(self._twirp, "DeleteRoom", {"room": room}, room, roomCreate=True)

    async def remove(self, identity: str, room: str | None = None) -> bool:
        room = room or self._rooms.get(identity, "")
        await asyncio.to_thread(self._twirp, "RemoveParticipant", {"room": room, "identity": identity}, room)
        return True

    async def drop(self, identity: str, room: str | None = None, *, rejoin: bool = True) -> bool:
        """The real server cannot cut a connection as a lost network would: it removes the participant."""
        return await self.remove(identity, room)


def _admin_token(key: str, secret: str, room: str, **grants: bool) -> str:
    """A RoomService token for ``room`` (roomAdmin, and ``grants``), as a server SDK signs one."""
    import time

    import jwt

    now = int(time.time())
    video = {"roomAdmin": True, "room": room, **grants}
    claims = {"iss": key, "sub": "test-admin", "nbf": now, "exp": now + 600, "video": video}
    return jwt.encode(claims, secret, algorithm="HS256")


_SPEC = os.environ.pop(ENV, "")  # read once and taken out: the processes a scenario starts must not see it


def on_real_server() -> RealServer | None:
    """The session's real server when this scenario runs on it (else None: the loopback room)."""
    return RealServer.from_spec(_SPEC) if _SPEC else None


@asynccontextmanager
async def serve(*, api_secret: str | None = None) -> AsyncIterator[Any]:
    """The server a scenario runs on: the session's real one, or a loopback room of its own."""
    real = on_real_server()
    if real is not None:
        yield real  # started and stopped by the pytest session
        return
    from inspector.room import RoomServer

    options = {"api_secret": api_secret} if api_secret else {}
    async with RoomServer(port=0, **options) as server:
        yield server


@asynccontextmanager
async def serve_on(held: HeldPorts, *, api_key: str, api_secret: str) -> AsyncIterator[Any]:
    """A server of the scenario's own on ``held``'s ports (the first is the URL's), real when the scenario
    runs on the real server: for stopping and starting it. The ports are held again once it is gone."""
    held.release()
    try:
        async with _serve_on(held.ports, api_key=api_key, api_secret=api_secret) as server:
            yield server
    finally:
        held.hold()


@asynccontextmanager
async def _serve_on(ports: tuple[int, int, int], *, api_key: str, api_secret: str) -> AsyncIterator[Any]:
    if on_real_server() is not None:
        real = on_real_server()
        assert real is not None
        async with RealServer(ports=ports, api_key=api_key, api_secret=api_secret, work=real.work) as server:
            yield server
        return
    from inspector.room import RoomServer

    async with RoomServer(port=ports[0], api_key=api_key, api_secret=api_secret) as server:
        yield server


def which() -> str:
    """``real`` or ``loopback``: which server this scenario runs on."""
    return "real" if _SPEC else "loopback"
