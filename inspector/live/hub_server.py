"""A local stand-in for Alicia's WebSocket hub (``/api/v1/ws``) for tests and ``inspector demo --hub``.

It is **not** Alicia's server: no database, no LLM, no voice or WhatsApp routing. It routes frames the way
longregen/alicia's ``api/server/ws.go`` does (our reading of it, written anew): a Subscribe (40) picks the
connection's role and is answered by a SubscribeAck (42); agent, voice, assistant and WhatsApp roles need
the agent secret (``Authorization: Bearer <secret>`` or ``?agent_secret=``), a monitor does not; a wrong
secret gets ``success: false, error: "authentication required"`` and the connection stays open; every
frame the hub receives (except a monitor's) or sends is copied to the monitors as ``{src, dst, data}``;
the assistant's ToolsRegister (70) is acked with 71, its heartbeats (72) and ToolUseResults (7) go to the
monitors (``dst: "monitor"``), where the mcp-assistant bridge matches results by ``requestId``; a client
ToolUseRequest (``execution: "client"``) from the agent or from a monitor goes to the assistant.

Where the real server stores a UserMessage and then asks the agent for a generation, the stand-in skips
the store and forwards both at once. Like the real server it never drops an assistant for missing
heartbeats; it records the last one (:meth:`HubServer.assistant_fresh`), which is what the bridge checks.
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

import inspector.protocols.alicia.hub as hub

PATH = "/api/v1/ws"
AUTH_REFUSED = "authentication required"  # the words ws.go sends


class HubServer:
    """The stand-in hub; ``await start()`` then connect to :attr:`url`; ``await close()`` to end it."""

    def __init__(
        self,
        secret: str = "",
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        allowed_origins: tuple[str, ...] = ("*",),
        allow_empty_origin: bool = False,
    ) -> None:
        self.secret = secret
        # ws.go's CheckOrigin with api/config/config.go's ALLOWED_ORIGINS (default "*") and
        # ALLOW_EMPTY_ORIGIN (default false): "*" admits every request, else the Origin must be listed
        self.allowed_origins = allowed_origins
        self.allow_empty_origin = allow_empty_origin
        self.host = host
        self.port = port
        self._server: Server | None = None
        self.conversations: dict[str, set[ServerConnection]] = {}
        self.monitors: set[ServerConnection] = set()
        self.agent: ServerConnection | None = None
        self.assistant: ServerConnection | None = None
        self.assistant_tools: list[dict[str, Any]] = []
        self.last_heartbeat = 0.0
        self.connections: set[ServerConnection] = set()
        self.log: list[tuple[str, str, bytes]] = []  # every (src, dst, data) the monitors were sent

    @property
    def url(self) -> str:
        return f"ws://{self.host}:{self.port}{PATH}"

    async def start(self) -> HubServer:
        self._server = await serve(
            self._handle, self.host, self.port, process_request=self._check_path, max_size=None
        )
        sockets = list(self._server.sockets)
        if sockets:
            self.port = sockets[0].getsockname()[1]
        return self

    async def close(self) -> None:
        """Stop listening and drop every connection as a stopping Go server does: no close frame.

        ws.go's handler ends with the connection closed under it (gorilla's ``Close`` shuts the socket
        without a close message), so a client sees the TCP connection end, not a close code.
        """
        server, self._server = self._server, None
        if server is not None:
            server.close(close_connections=False)
            for conn in list(self.connections):
                conn.transport.abort()
            await server.wait_closed()

    def assistant_fresh(self, stale_after: float = hub.STALE_AFTER) -> bool:
        """True when an assistant is connected and heartbeated within ``stale_after`` seconds."""
        return self.assistant is not None and time.monotonic() - self.last_heartbeat < stale_after

    # -- connections -----------------------------------------------------------------------
    def _check_path(self, connection: ServerConnection, request: Request) -> Response | None:
        if urlsplit(request.path).path != PATH:
            return connection.respond(404, f"no WebSocket here: the hub listens on {PATH}\n")
        if "*" not in self.allowed_origins:
            origin = request.headers.get("Origin", "")
            if not (origin in self.allowed_origins if origin else self.allow_empty_origin):
                return connection.respond(
                    403, "websocket: request origin not allowed by Upgrader.CheckOrigin\n"
                )
        return None

    def _authorized(self, connection: ServerConnection) -> bool:
        if not self.secret:
            return True  # ws.go: no configured secret lets everyone in
        request = connection.request
        if request is None:
            return False
        if request.headers.get("Authorization", "") == f"Bearer {self.secret}":
            return True
        query = parse_qs(urlsplit(request.path).query)
        return self.secret in query.get("agent_secret", [])

    async def _handle(self, connection: ServerConnection) -> None:
        role = "client"
        self.connections.add(connection)
        try:
            async for data in connection:
                if isinstance(data, str):
                    data = data.encode()
                if role != "monitor":
                    await self._to_monitors(data, role, "server")
                try:
                    env = hub.decode(data)
                except hub.FrameError:
                    continue  # ws.go logs a decode error and reads on
                role = await self._route(connection, role, env, data)
        except ConnectionClosed:
            pass
        finally:
            self._forget(connection, role)

    def _forget(self, connection: ServerConnection, role: str) -> None:
        self.connections.discard(connection)
        self.monitors.discard(connection)
        for subs in self.conversations.values():
            subs.discard(connection)
        if self.agent is connection:
            self.agent = None
        if self.assistant is connection:
            self.assistant, self.assistant_tools = None, []

    # -- routing (api/server/ws.go's switch, store-less) -----------------------------------
    async def _route(self, conn: ServerConnection, role: str, env: dict[str, Any], data: bytes) -> str:
        kind, conv, body = env.get("type"), env.get("conversationId") or "", env.get("body")
        if kind == hub.SUBSCRIBE:
            return await self._subscribe(conn, role, body)
        if kind == hub.UNSUBSCRIBE and isinstance(body, dict):
            self.conversations.get(str(body.get("conversationId")), set()).discard(conn)
        elif kind == 2 and conv:  # UserMessage: the real server stores it first
            await self.to_conversation(conv, data)
            gen = {"conversationId": conv, "messageId": _body_id(body), "requestType": "send"}
            await self.to_agent(hub.encode(hub.GENERATION_REQUEST, gen, conv))
        elif kind == hub.GENERATION_REQUEST and role not in ("agent", "voice") and conv:
            await self.to_agent(data)
        elif kind == hub.HEARTBEAT and role == "assistant":
            self.last_heartbeat = time.monotonic()
            await self._to_monitors(data, "assistant", "monitor")
        elif kind == hub.TOOLS_REGISTER and role == "assistant":
            self.last_heartbeat = time.monotonic()
            tools = _tools(body)
            if tools is None:
                return role  # ws.go: a body its decoder refuses is logged, and no ack is sent
            self.assistant_tools = tools
            await self._send(conn, hub.tools_ack(True, len(tools)))
        elif kind == hub.TOOL_USE_RESULT:
            if role == "assistant":
                self.last_heartbeat = time.monotonic()
                await self._to_monitors(data, "assistant", "monitor")
            elif role == "agent" and conv:
                await self.to_conversation(conv, data)
        elif kind == hub.TOOL_USE_REQUEST:
            client = isinstance(body, dict) and body.get("execution") == "client"
            if role == "agent" and conv:
                await self.to_conversation(conv, data)
                if client:
                    await self.to_assistant(data)
            elif role == "monitor" and client:
                await self.to_assistant(data)
        elif role == "agent" and conv:
            await self.to_conversation(conv, data)
        return role

    async def _subscribe(self, conn: ServerConnection, role: str, body: Any) -> str:
        wanted = hub.role_of(body)
        if wanted and wanted != "monitor" and not self._authorized(conn):
            await self._send(conn, hub.subscribe_ack(False, AUTH_REFUSED, agent_mode=wanted == "agent"))
            return role
        if wanted == "monitor":
            self.monitors.add(conn)
        elif wanted == "agent":
            self.agent = conn
        elif wanted == "assistant":
            self.assistant, self.last_heartbeat = conn, time.monotonic()
        elif not wanted:
            conv = body.get("conversationId") if isinstance(body, dict) else None
            if not isinstance(conv, str) or not conv:
                return role  # ws.go answers nothing to an empty Subscribe
            self.conversations.setdefault(conv, set()).add(conn)
            await self._send(conn, hub.subscribe_ack(True, conversation_id=conv))
            return role
        await self._send(conn, hub.subscribe_ack(True, agent_mode=wanted == "agent"))
        return wanted

    # -- sending -----------------------------------------------------------------------
    async def _send(self, conn: ServerConnection, data: bytes) -> bool:
        try:
            await conn.send(data)
        except ConnectionClosed:
            return False
        return True

    async def _to_monitors(self, data: bytes, src: str, dst: str) -> None:
        if not self.monitors:
            return
        self.log.append((src, dst, bytes(data)))
        frame = hub.monitor_frame(src, dst, data)
        for conn in list(self.monitors):
            if not await self._send(conn, frame):
                self.monitors.discard(conn)

    async def to_conversation(self, conv: str, data: bytes) -> None:
        await self._to_monitors(data, "server", "client")
        for conn in list(self.conversations.get(conv, ())):
            await self._send(conn, data)

    async def to_agent(self, data: bytes) -> None:
        await self._to_monitors(data, "server", "agent")
        if self.agent is not None:
            await self._send(self.agent, data)

    async def to_assistant(self, data: bytes) -> None:
        await self._to_monitors(data, "server", "assistant")
        if self.assistant is not None:
            await self._send(self.assistant, data)


def _body_id(body: Any) -> str:
    value = body.get("id") if isinstance(body, dict) else None
    return value if isinstance(value, str) else ""


def _tools(body: Any) -> list[dict[str, Any]] | None:
    """The tools of an AssistantToolsRegister as types.go's decoder takes them, or None where it fails.

    ``tools`` may be missing or nil (no tools); each must be a map whose ``name`` and ``description``
    are strings (or nil) and whose ``inputSchema`` is a map (or nil); other keys are ignored.
    """
    if not isinstance(body, dict):
        return None if body is not None else []
    tools = body.get("tools")
    if tools is None:
        return []
    if not isinstance(tools, list):
        return None
    for tool in tools:
        if not isinstance(tool, dict):
            return None
        if any(not isinstance(tool.get(k), (str, type(None))) for k in ("name", "description")):
            return None
        if not isinstance(tool.get("inputSchema"), (dict, type(None))):
            return None
    return list(tools)
