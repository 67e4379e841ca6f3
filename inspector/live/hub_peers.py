"""Peers of the hub for tests and the demo: a scripted agent, a client, and a bridge asking the assistant.

:class:`HubBridge` behaves as longregen/alicia's ``mcp/assistant/bridge.go`` does (our reading): it joins
as a monitor, refuses to ask when the assistant's last heartbeat is older than 30 s, sends a
ToolUseRequest (``execution: "client"``, a fresh ``id``, conversation ``__assistant__``), and waits up
to 30 s for the ToolUseResult whose ``requestId`` is that id, ignoring every other result.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

import inspector.protocols.alicia.hub as hub
from inspector.sources.tasks import cancel_and_wait, wait_within

ASSISTANT_CONVERSATION = "__assistant__"  # bridge.go's AssistantClientID


class PeerError(Exception):
    """A peer's request that failed; ``str()`` says why as bridge.go would."""


async def join(url: str, role: str = "", *, secret: str = "", conversation: str = "") -> ClientConnection:
    """Connect, subscribe and wait for the ack; raises PeerError with the hub's reason when refused."""
    headers = {"Authorization": f"Bearer {secret}"} if secret else None
    conn = await connect(url, additional_headers=headers, max_size=None)
    await conn.send(hub.subscribe(role, conversation))
    first = await asyncio.wait_for(conn.recv(decode=False), 5)
    ack = hub.read_ack(first, hub.SUBSCRIBE_ACK) if isinstance(first, bytes) else None
    if ack is None or not ack.success:
        await conn.close()
        raise PeerError(f"subscribe failed: {ack.error if ack else 'no ack'}")
    return conn


class HubBridge:
    """The mcp-assistant bridge's side: ask the hub's assistant for a tool, match its answer by requestId."""

    def __init__(
        self, url: str, *, timeout: float = hub.TOOL_TIMEOUT, stale_after: float = hub.STALE_AFTER
    ) -> None:
        self.url = url
        self.timeout = timeout
        self.stale_after = stale_after
        self.last_heartbeat = 0.0
        self.pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.unmatched: list[dict[str, Any]] = []  # results whose requestId no request of ours had
        self._conn: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> HubBridge:
        self._conn = await join(self.url, "monitor")
        self._reader = asyncio.get_running_loop().create_task(self._read(self._conn))
        return self

    async def close(self) -> None:
        if self._reader is not None:
            await cancel_and_wait([self._reader])
        if self._conn is not None:
            await self._conn.close()

    def assistant_available(self) -> bool:
        return self.last_heartbeat > 0 and time.monotonic() - self.last_heartbeat < self.stale_after

    async def _read(self, conn: ClientConnection) -> None:
        try:
            async for data in conn:
                try:
                    frame = hub.read_monitor_frame(data if isinstance(data, bytes) else data.encode())
                    env = hub.decode(frame.data)
                except hub.FrameError:
                    continue
                if env["type"] == hub.HEARTBEAT:
                    self.last_heartbeat = time.monotonic()
                elif env["type"] == hub.TOOL_USE_RESULT and frame.src == "assistant":
                    self.last_heartbeat = time.monotonic()
                    found = env.get("body")
                    body: dict[str, Any] = found if isinstance(found, dict) else {}
                    waiter = self.pending.get(str(body.get("requestId")))
                    if waiter is None:
                        if frame.dst == "monitor":
                            self.unmatched.append(body)
                    elif not waiter.done():
                        waiter.set_result(body)
        except ConnectionClosed:
            pass
        for waiter in self.pending.values():
            if not waiter.done():
                waiter.set_exception(PeerError("connection lost"))

    async def request(self, tool: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        """Ask for ``tool``; the ToolUseResult body matched by requestId, or PeerError in bridge.go's words."""
        if self._conn is None:
            raise PeerError("bridge connection closed")
        if not self.assistant_available():
            raise PeerError(
                f"assistant device unavailable (no heartbeat for >{self.stale_after:g}s); "
                "phone may be in background or offline"
            )
        request_id = str(uuid.uuid4())
        waiter: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[request_id] = waiter
        # every field of types.go's ToolUseRequest, as the bridge's struct encodes it: no message or
        # conversation in the body (empty strings), arguments nil when the MCP call had none
        body = {
            "id": request_id,
            "messageId": "",
            "conversationId": "",
            "toolName": tool,
            "arguments": arguments,
            "execution": "client",
        }
        try:
            await self._conn.send(hub.encode(hub.TOOL_USE_REQUEST, body, ASSISTANT_CONVERSATION))
            try:
                return await wait_within(waiter, self.timeout)
            except asyncio.TimeoutError:
                raise PeerError(
                    f"tool request timed out after {self.timeout:g}s (assistant device may be offline)"
                ) from None
        finally:
            self.pending.pop(request_id, None)


class HubAgent:
    """An agent connection (with the secret) that sends envelopes into a conversation."""

    def __init__(self, url: str, secret: str = "") -> None:
        self.url = url
        self.secret = secret
        self.conn: ClientConnection | None = None

    async def start(self) -> HubAgent:
        self.conn = await join(self.url, "agent", secret=self.secret)
        return self

    async def send(self, type_: int, body: dict[str, Any], conversation: str) -> None:
        assert self.conn is not None
        await self.conn.send(hub.encode(type_, body, conversation))

    async def play(
        self, script: list[tuple[int, dict[str, Any]]], conversation: str, pause: float = 0
    ) -> None:
        """Send each ``(type, body)`` in order, ``pause`` seconds apart."""
        for type_, body in script:
            await self.send(type_, {"conversationId": conversation, **body}, conversation)
            if pause:
                await asyncio.sleep(pause)

    async def close(self) -> None:
        if self.conn is not None:
            await self.conn.close()


def scripted_conversation(turn: str = "") -> list[tuple[int, dict[str, Any]]]:
    """What an agent sends in one turn: answer start, a server tool and its result, a client tool, a reply."""
    am, t1, t2 = f"am_1{turn}", f"tu_1{turn}", f"tu_2{turn}"
    return [
        (13, {"messageId": am}),
        (
            6,
            {
                "id": t1,
                "messageId": am,
                "toolName": "web_search",
                "arguments": {"q": "weather"},
                "execution": "server",
            },
        ),
        (7, {"id": f"tr_1{turn}", "requestId": t1, "messageId": am, "success": True, "result": {"hits": 3}}),
        (6, {"id": t2, "messageId": am, "toolName": "get_battery", "arguments": {}, "execution": "client"}),
        (3, {"id": am, "content": "It is sunny; your battery is fine."}),
    ]


class HubAssistant:
    """A scripted assistant (what the Android app is): registers tools, heartbeats, answers by table."""

    def __init__(
        self,
        url: str,
        secret: str,
        answers: dict[str, dict[str, Any]],
        *,
        heartbeat_every: float = hub.HEARTBEAT_EVERY,
    ) -> None:
        self.url = url
        self.secret = secret
        self.answers = answers
        self.heartbeat_every = heartbeat_every
        self._tasks: list[asyncio.Task[None]] = []
        self.conn: ClientConnection | None = None

    async def start(self) -> HubAssistant:
        self.conn = await join(self.url, "assistant", secret=self.secret)
        tools = [{"name": name, "description": f"{name} (scripted)"} for name in self.answers]
        await self.conn.send(hub.tools_register(tools))
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._beat(self.conn)), loop.create_task(self._serve(self.conn))]
        return self

    async def _beat(self, conn: ClientConnection) -> None:
        while True:
            await conn.send(hub.heartbeat())
            await asyncio.sleep(self.heartbeat_every)

    async def _serve(self, conn: ClientConnection) -> None:
        async for data in conn:
            try:
                env = hub.decode(data if isinstance(data, bytes) else data.encode())
            except hub.FrameError:
                continue
            body = env.get("body")
            if env["type"] != hub.TOOL_USE_REQUEST or not isinstance(body, dict):
                continue
            await asyncio.sleep(0.4)
            result = self.answers.get(str(body.get("toolName")))
            conv = str(env.get("conversationId") or "")
            answer: dict[str, Any] = {
                "id": str(uuid.uuid4()),
                "requestId": body.get("id"),
                "conversationId": conv,
            }
            if result is None:
                answer.update(success=False, error=f"unknown tool {body.get('toolName')}")
            else:
                answer.update(success=True, result=result)
            await conn.send(hub.encode(hub.TOOL_USE_RESULT, answer, conv))

    async def close(self) -> None:
        await cancel_and_wait(self._tasks)
        if self.conn is not None:
            await self.conn.close()
