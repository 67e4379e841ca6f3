"""The simulated agent's conversation, without any network: what it says, asks, answers and waits for.

:class:`Conversation` plays one round through a ``send(envelope, role)`` coroutine and reads results
fed to :meth:`Conversation.received`. The SDK shell (``inspector.demo.agent``) connects it to a room;
tests can drive it with a fake transport.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import msgpack

from inspector.sources.tasks import wait_within

Send = Callable[[dict[str, Any], str], Awaitable[None]]  # (envelope, "agent" | "user")

USER, ASSISTANT, REASONING, TOOL_REQUEST, TOOL_RESULT = 2, 3, 5, 6, 7


def nanoid(prefix: str) -> str:
    return f"{prefix}_{secrets.token_urlsafe(8).replace('-', 'x').replace('_', 'y')}"


class Conversation:
    """One Alicia conversation between a simulated user and a simulated agent.

    ``speed`` divides every pause and timeout (tests play it fast). Client results arrive through
    :meth:`received`; the agent answers each with an AssistantMessage saying what it got.
    """

    def __init__(
        self,
        conversation_id: str,
        send: Send,
        *,
        speed: float = 1.0,
        log: Callable[[str], None] = lambda line: None,
    ) -> None:
        self.conversation_id = conversation_id
        self.send_raw = send
        self.speed = max(0.05, speed)
        self.log = log
        self.agent_stanza = 0
        self.client_stanza = 0
        self.waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.tools: dict[str, str] = {}
        self.received_results: list[dict[str, Any]] = []
        self._notes: set[asyncio.Task[None]] = set()  # replies on their way (the loop keeps weak refs only)

    # -- sending -------------------------------------------------------------------------
    async def say(self, type_: int, body: dict[str, Any], role: str = "agent") -> None:
        if role == "agent":
            self.agent_stanza -= 1
            stanza = self.agent_stanza
        else:
            self.client_stanza += 1
            stanza = self.client_stanza
        envelope = {
            "stanzaId": stanza,
            "conversationId": self.conversation_id,
            "type": type_,
            "meta": {},
            "body": body,
        }
        await self.send_raw(envelope, role)

    async def assistant(self, text: str) -> None:
        await self.say(
            ASSISTANT, {"id": nanoid("msg"), "conversationId": self.conversation_id, "content": text}
        )

    def ms(self, value: int) -> int:
        return max(200, int(value / self.speed))

    async def pause(self, seconds: float) -> None:
        await asyncio.sleep(seconds / self.speed)

    # -- receiving -----------------------------------------------------------------------
    def received(self, data: bytes, sender: str = "") -> None:
        """Feed one incoming packet; ToolUseResults for our requests complete the waiting request."""
        try:
            envelope = msgpack.unpackb(data, raw=False, strict_map_key=False)
        except Exception:  # noqa: BLE001 - someone else's bad packet
            return
        if not isinstance(envelope, dict):
            return
        stanza = envelope.get("stanzaId")
        if isinstance(stanza, int) and stanza > self.client_stanza:
            self.client_stanza = stanza  # the user keeps counting after other clients (the inspector)
        body = envelope.get("body")
        if envelope.get("type") != TOOL_RESULT or not isinstance(body, dict):
            return
        self.received_results.append(envelope)
        call_id = body.get("id")
        future = self.waiting.get(call_id) if isinstance(call_id, str) else None
        if future is not None and not future.done():
            future.set_result(envelope)
        elif call_id in self.tools:
            note = asyncio.get_running_loop().create_task(
                self.assistant(
                    f"got another result for {self.tools[call_id]} ({call_id}) from {sender or '?'}: "
                    "ignored, the first one counts"
                )
            )
            self._notes.add(note)
            note.add_done_callback(self._notes.discard)

    # -- tool requests -------------------------------------------------------------------
    async def request(
        self, tool: str, execution: str, params: dict[str, Any], timeout_ms: int, message_id: str
    ) -> str:
        call_id = nanoid("toolreq")
        self.tools[call_id] = tool
        if execution != "server":
            self.waiting[call_id] = asyncio.get_running_loop().create_future()
        await self.say(
            TOOL_REQUEST,
            {
                "id": call_id,
                "messageId": message_id,
                "toolName": tool,
                "execution": execution,
                "parameters": params,
                "timeoutMs": timeout_ms,
            },
        )
        return call_id

    async def server_tool(
        self,
        tool: str,
        params: dict[str, Any],
        message_id: str,
        *,
        after: float,
        result: dict[str, Any] | None = None,
        error: tuple[str, str] | None = None,
    ) -> None:
        call_id = await self.request(tool, "server", params, self.ms(10_000), message_id)
        await self.pause(after)
        body: dict[str, Any] = {"id": call_id, "success": error is None}
        if error is None:
            body["result"] = result or {}
        else:
            body["errorCode"], body["errorMessage"] = error
        await self.say(TOOL_RESULT, body)

    async def client_tool(
        self,
        tool: str,
        execution: str,
        params: dict[str, Any],
        timeout_ms: int,
        message_id: str,
        fallback: dict[str, Any] | None = None,
    ) -> dict[str, Any] | None:
        """Ask a client; wait up to the timeout; say what came back (or run it here for ``either``)."""
        timeout = self.ms(timeout_ms)
        call_id = await self.request(tool, execution, params, timeout, message_id)
        try:
            envelope = await wait_within(asyncio.shield(self.waiting[call_id]), timeout / 1000.0)
        except asyncio.TimeoutError:
            if execution == "either" and fallback is not None:
                await self.say(TOOL_RESULT, {"id": call_id, "success": True, "result": fallback})
                await self.assistant(f"no client ran {tool} within {timeout} ms, so I ran it myself")
                return None
            await self.assistant(f"no result for {tool} ({call_id}) after {timeout} ms: going on without it")
            return None
        body = envelope["body"]
        outcome = "success" if body.get("success") is True else f"error {body.get('errorCode')}"
        await self.assistant(
            f"got your result for {tool} ({call_id}): {outcome}, stanzaId {envelope.get('stanzaId')}"
        )
        return envelope

    # -- the script ----------------------------------------------------------------------
    async def play_round(self, number: int = 1) -> None:
        """One round: user question, reasoning, tools in all three modes, an error, a timeout, an answer."""
        user_id = nanoid("msg")
        await self.say(
            USER,
            {
                "id": user_id,
                "conversationId": self.conversation_id,
                "content": f"(round {number}) What's the weather in Lyon, and what's in my notes?",
            },
            role="user",
        )
        await self.pause(0.5)
        message_id = nanoid("msg")
        await self.say(
            REASONING,
            {
                "id": nanoid("rs"),
                "messageId": message_id,
                "sequence": 1,
                "content": "Weather is a server tool; the notes live on the client.",
            },
        )
        await asyncio.gather(
            self.server_tool(
                "web_search",
                {"query": "weather Lyon today", "limit": 3},
                message_id,
                after=0.8,
                result={
                    "results": [{"title": "Lyon: 18°C, light rain", "url": "https://example.org"}],
                    "totalResults": 1,
                },
            ),
            self.client_tool(
                "read_local_file", "client", {"filePath": "~/notes/todo.md"}, 30_000, message_id
            ),
            self.client_tool(
                "calculator", "either", {"expression": "21 * 2"}, 8_000, message_id, fallback={"answer": 42}
            ),
        )
        await self.server_tool(
            "database_query",
            {"sql": "select count(*) from orders"},
            message_id,
            after=0.5,
            error=("execution_error", 'relation "orders" does not exist'),
        )
        await self.client_tool("get_location", "client", {"precision": "city"}, 6_000, message_id)
        await self.assistant("It is 18°C with light rain in Lyon. Your notes are above.")
