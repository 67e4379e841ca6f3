"""Noticing that another assistant took the hub's assistant role: a monitor connection beside our own.

The hub keeps one assistant: the last connection that subscribes with ``assistantMode`` and the secret
takes the role, and the one before is told nothing; it still may heartbeat and the hub still accepts
that, but no request reaches it (longregen/alicia ``api/server/ws.go``: SubscribeAssistant,
TypeAssistantHeartbeat). Only a monitor sees the others, so :class:`RoleWatch` keeps one and reads two
signs, each enough:

* a request the hub routes to the assistant (``server → assistant``) that our assistant connection did
  not receive within :data:`GRACE` seconds (the hub gave it to another assistant, or to none);
* another connection subscribing with ``assistantMode`` and then speaking as an assistant (registering
  tools, heartbeating or answering: frames ``assistant → server`` that we did not send). A subscriber
  whose secret was refused speaks as ``client`` and is not taken for a rival.

Our own frames are told apart by their bytes (counted as they are sent); a heartbeat has the same bytes
from every assistant, but counting keeps the number of others right.
"""

from __future__ import annotations

import asyncio
from collections import Counter, deque
from collections.abc import Callable
from typing import Any

import inspector.protocols.alicia.hub as hub
from inspector.sources.base import AnswerRefused, SourceStatus
from inspector.sources.packets import PacketSource
from inspector.sources.tasks import wait_within
from inspector.textsafe import one_line

RECLAIM = "take the role back with R (headless: kill -USR1 the process, or type 'reclaim' and Enter)"
GRACE = 2.0  # seconds for a request the monitor saw to reach our assistant connection too
RIVAL_WINDOW = 10.0  # seconds after a foreign assistant subscription in which it must speak as one


class RoleWatch:
    """A monitor connection that calls ``displaced(reason)`` when another assistant has the role."""

    def __init__(
        self,
        url: str,
        displaced: Callable[[str], None],
        *,
        origin: str | None = None,
        connect_timeout: float = 10.0,
        grace: float = GRACE,
    ) -> None:
        self.url = url
        self.origin = origin
        self.connect_timeout = connect_timeout
        self.grace = grace
        self._displaced = displaced
        self._own: Counter[bytes] = Counter()  # frames we sent that the watch has not seen yet
        self._received: deque[bytes] = deque(maxlen=256)  # what our assistant connection received
        self._rival_at: float | None = None
        self._conn: Any = None
        self._task: asyncio.Task[None] | None = None
        self._timers: set[asyncio.TimerHandle] = set()

    async def start(self) -> None:
        """Join as a monitor (no secret needed) and wait for the hub's ack, so that every frame the hub
        receives from then on (our own subscription first) is seen; raises what the connection raised."""
        from websockets.asyncio.client import connect

        self._conn = await connect(
            self.url,
            origin=self.origin,  # type: ignore[arg-type]
            open_timeout=self.connect_timeout,
            max_size=None,
        )
        await self._conn.send(hub.subscribe("monitor"))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.connect_timeout
        while True:
            data = await wait_within(self._conn.recv(), max(0.01, deadline - loop.time()))
            ack = hub.read_ack(data, hub.SUBSCRIBE_ACK) if isinstance(data, bytes) else None
            if ack is not None:
                break
        if not ack.success:
            raise ConnectionError(f"the hub refused a monitor: {ack.error or 'no reason given'}")
        self._task = loop.create_task(self._read(self._conn))

    async def stop(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                await conn.close()
            except Exception:  # noqa: BLE001 - gone already
                pass

    def reset(self) -> None:
        """Forget the signs seen so far (we just took the role back): a request the hub gave another
        assistant before is no sign any more."""
        self._rival_at = None
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()

    # -- what our assistant connection does -----------------------------------------------------------
    def sent(self, data: bytes) -> None:
        """A frame our assistant connection sent (the watch will see it as ours)."""
        self._own[bytes(data)] += 1

    def got(self, data: bytes) -> None:
        """A frame our assistant connection received."""
        self._received.append(bytes(data))

    # -- what the monitor sees ------------------------------------------------------------------------
    async def _read(self, conn: Any) -> None:
        try:
            async for data in conn:
                if isinstance(data, bytes):
                    self.take(data, asyncio.get_running_loop().time())
        except Exception:  # noqa: BLE001 - the watch is best effort; the assistant connection says more
            return

    def take(self, data: bytes, now: float) -> None:
        """One monitor frame at loop time ``now``."""
        try:
            frame = hub.read_monitor_frame(data)
            envelope = hub.decode(frame.data)
        except hub.FrameError:
            return
        kind = envelope.get("type")
        if frame.dst == "server":
            if self._own[frame.data] > 0:
                self._own[frame.data] -= 1
                return
            if kind == hub.SUBSCRIBE and hub.role_of(envelope.get("body")) == "assistant":
                self._rival_at = now
            elif (
                frame.src == "assistant"
                and self._rival_at is not None
                and now - self._rival_at <= RIVAL_WINDOW
            ):
                self._rival_at = None
                self._displaced("another connection subscribed as the assistant and now speaks as it")
            elif frame.src == "client" and kind == hub.TOOLS_REGISTER:
                self._rival_at = None  # its secret was refused: it registers as a plain client
        elif frame.src == "server" and frame.dst == "assistant" and kind == hub.TOOL_USE_REQUEST:
            loop = asyncio.get_running_loop()
            body = envelope.get("body")
            tool = body.get("toolName") if isinstance(body, dict) else None
            handles: list[asyncio.TimerHandle] = []
            handles.append(loop.call_later(self.grace, lambda: self._check(frame.data, tool, handles[0])))
            self._timers.add(handles[0])

    def _check(self, data: bytes, tool: Any, timer: asyncio.TimerHandle) -> None:
        self._timers.discard(timer)
        if data in self._received:
            return
        what = f"a request for {tool}" if isinstance(tool, str) else "a request"
        self._displaced(
            f"the hub routed {what} to the assistant and this connection did not get it "
            f"within {self.grace:g} s: another assistant has the role (or the hub has none)"
        )


class RoleClaim(PacketSource):
    """The hub assistant's side of the role: the watch, being displaced, and taking the role back.

    :class:`~inspector.sources.alicia_hub.HubSource` is one; it sets what is declared here."""

    role: str
    url: str
    origin: str | None
    connect_timeout: float
    tools: list[dict[str, Any]]
    watch: RoleWatch | None
    displaced: str
    _conn: Any
    _tasks: list[asyncio.Task[None]]
    _heartbeats: asyncio.Task[None] | None

    def redact(self, text: str) -> str:
        raise NotImplementedError

    async def _heartbeat(self, conn: Any) -> None:
        raise NotImplementedError

    async def _send(self, conn: Any, data: bytes) -> None:
        raise NotImplementedError

    def _events(self, events: Any) -> None:
        raise NotImplementedError

    async def _watch_role(self) -> None:
        """Keep a monitor beside the assistant connection to notice another assistant (sources/hub_role)."""
        watch = RoleWatch(self.url, self._displaced, origin=self.origin, connect_timeout=self.connect_timeout)
        try:
            await watch.start()
        except Exception as exc:  # noqa: BLE001 - the assistant works without it; say what is missing
            self.room_event(
                "assistant-role",
                f"cannot watch the hub for another assistant ({one_line(self.redact(str(exc) or type(exc).__name__), 200)}): "
                "if one takes the role, this inspector will not know",
            )
            return
        self.watch = watch

    def _displaced(self, reason: str) -> None:
        if self.displaced or self.role != "assistant":
            return
        self.displaced = reason
        heartbeats, self._heartbeats = self._heartbeats, None
        if heartbeats is not None:
            heartbeats.cancel()
        self._set_state(warning="displaced: another assistant has the role")
        self.room_event("assistant-role", f"displaced: {reason}; no more heartbeats from here; {RECLAIM}")

    async def reclaim(self) -> None:
        """Subscribe as the assistant again and register the tools; heartbeats start again."""
        conn = self._conn
        if self.role != "assistant" or conn is None or self.state.status is not SourceStatus.CONNECTED:
            raise AnswerRefused(f"not connected as the hub's assistant ({self.state.status.value})")
        register = hub.tools_register(self.tools)
        for data in (hub.subscribe("assistant"), register):
            await self._send(conn, data)
        self._events(self.ingest.packet(register, direction="out", participant=self.state.identity))
        self.displaced = ""
        if self.watch is not None:
            self.watch.reset()
        self._set_state(warning="")
        if self._heartbeats is None:
            self._heartbeats = asyncio.get_running_loop().create_task(self._heartbeat(conn))
            self._tasks.append(self._heartbeats)
        self.room_event(
            "assistant-role",
            f"took the assistant role back: subscribed again and registered {len(self.tools)} tool(s)",
        )
