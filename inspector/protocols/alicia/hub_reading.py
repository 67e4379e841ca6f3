"""What a hub session's frames mean together: countdowns, the two halves of a phone tool call, delivery
to the assistant, the server's echo of a user message. One reading for a live hub and its recording.

Facts from longregen/alicia (read, not copied), the reasons for each rule:

* **countdowns**: a client request from the hub carries no ``timeoutMs``; the mcp-assistant bridge waits
  30 s for its answer (``mcp/assistant/bridge.go`` ToolTimeout), so such a request gets the source's
  tool timeout. A server request (the agent's own, ``agent/protocol.go`` SendToolStart) is waited on by
  nobody with a limit (``agent/agent.go`` calls the MCP server without one): no countdown
  (:func:`~inspector.protocols.alicia.calls.decode_request` already leaves it without).
* **phone tool calls**: the agent announces ``assistant:get_battery`` (``execution: "server"``, id
  ``call_…``, the user's conversation), then calls the bridge over MCP stdio, which sends its own
  ``get_battery`` request (``execution: "client"``, a fresh UUID, conversation ``__assistant__``, no
  trace context: ``bridge.go`` SendToolRequest). Nothing on the wire names the other half. They are tied
  by *inference*: the tool name without its ``assistant:`` prefix, equal arguments, and order: the agent
  writes its request before it calls MCP, the hub copies an agent's frame to the monitors before it
  decodes it and the bridge's only after routing it (``api/server/ws.go``), and the agent's MCP client
  serves one call at a time (``agent/mcp.go``, a mutex), so the bridge's request goes to the earliest
  unanswered agent call of that tool and arguments. The two copies come from two connections' goroutines
  and do race: on a loaded machine the bridge's copy came first in 2 of 5 calls; one that comes at most
  2 s before its agent call is moved under it when that arrives. Two identical calls in flight in two
  conversations at once may be swapped. The bridge's request is nested under the agent's call and also
  belongs to its conversation (a ``group:`` filter keeps both).
* **failures as text**: the bridge turns a failed tool into the text ``Error: tool error: …`` and the
  agent passes any MCP text on as ``success: true`` (``agent/mcp.go``): such a result gets a note.
* **delivery**: the hub copies a request for the assistant to the monitors *before* it checks that an
  assistant is connected, and drops it when none is (``ws.go`` BroadcastToAssistant). A monitor sees the
  assistant's heartbeats (every 15 s) and results; with none for 30 s (the bridge's own threshold) before
  a request, or none for 30 s after the last one before it while the request waits, the request is
  marked not delivered. A displaced assistant still heartbeats and the hub accepts it (``ws.go``
  TypeAssistantHeartbeat): a monitor cannot tell it from the one that receives.
* **echo**: the hub stores a user's message and sends it back to the conversation with ``id`` and
  ``previousId`` added (``ws.go`` handleClientUserMessage): the echo is not threaded a second time.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any

from inspector.model.call import ALSO_IN, NOTES
from inspector.model.events import Adopt, Event, Executor, Message, Outcome, Request, Result
from inspector.timefmt import clock_text

PHONE_PREFIX = "assistant:"  # the agent's name for the bridge's tools (agent/mcp.go: server name + ":")
BRIDGE_CONVERSATION = "__assistant__"  # bridge.go AssistantClientID
ABSENT_AFTER = 30.0  # seconds without a heartbeat: the bridge's HeartbeatStaleThreshold
ECHO_WITHIN = 5.0  # seconds between a user's message and the server's echo of it
EARLY_WITHIN = 2.0  # seconds a bridge request may precede the agent's half and still be linked
KEEP = 256  # unanswered halves and messages remembered (a flood stays bounded)


def note(request: Request, kind: str, text: str) -> None:
    notes = request.extra.get(NOTES)
    if not isinstance(notes, dict):
        notes = request.extra[NOTES] = {}
    notes[kind] = text


def _route(sender: str) -> tuple[str, str]:
    """``("agent", "server")`` from a monitor's ``"agent → server"``; ``("", "")`` for anything else."""
    src, sep, dst = sender.partition(" → ")
    return (src, dst) if sep else ("", "")


class HubReading:
    """Feed every event of one hub connection in order (:meth:`feed`); it adjusts the events in place,
    says which to drop, and :meth:`judge` marks the requests the assistant never got as time passes."""

    def __init__(self, *, tool_timeout_ms: int = 30000) -> None:
        self.tool_timeout_ms = tool_timeout_ms
        self.first_ts: float | None = None
        self.last_sign: float | None = None  # the assistant's last heartbeat, registration or result
        self.echoes = 0
        self.links = 0
        self._agent: deque[Request] = deque()  # phone calls of the agent not yet linked, unanswered
        self._bridge: deque[Request] = deque()  # bridge requests not yet linked (an agent half may follow)
        self._halves: dict[str, Request] = {}  # agent call id -> its bridge request
        self._server: dict[str, Request] = {}  # the agent's server calls awaiting their result
        self._said: deque[Message] = deque()  # messages sent to the server, not yet echoed
        self._waiting: deque[tuple[Request, float | None]] = deque()  # sent to the assistant, unanswered

    # -- the stream -------------------------------------------------------------------------------
    def feed(self, event: Event) -> list[Event]:
        """Take one event before it is threaded: the events to thread in its place (none for an echo;
        the event and an :class:`~inspector.model.events.Adopt` for a phone call found late)."""
        ts = getattr(event, "ts", None)
        if isinstance(ts, (int, float)) and self.first_ts is None:
            self.first_ts = float(ts)
        sender = getattr(event, "sender", "")
        src, dst = _route(sender if isinstance(sender, str) else "")
        if src == "assistant":
            self._sign(ts)
        if isinstance(event, Request):
            adopt = self._request(event, src, dst)
            return [event, adopt] if adopt is not None else [event]
        if isinstance(event, Result):
            self._result(event, src)
        elif isinstance(event, Message) and not self._message(event, src, dst):
            return []
        return [event]

    def feed_all(self, events: Iterable[Event]) -> Iterator[Event]:
        """The events to thread, in order; at the end, what the recording's last time settles."""
        last: float | None = None
        for event in events:
            ts = getattr(event, "ts", None)
            if isinstance(ts, (int, float)):
                last = float(ts) if last is None else max(last, float(ts))
            yield from self.feed(event)
            if last is not None:
                self.judge(last)

    # -- countdowns and the two halves ------------------------------------------------------------
    def _request(self, request: Request, src: str, dst: str) -> Adopt | None:
        executor = request.executor
        if request.extra.get("default_timeout") and executor is not None and executor.client_may_answer:
            request.timeout_ms = self.tool_timeout_ms  # the hub sends none; the bridge waits this long
        if executor is Executor.SERVER and src == "agent":
            self._server[request.call_id] = request
            while len(self._server) > KEEP:
                self._server.pop(next(iter(self._server)))
        adopt = None
        if executor is Executor.SERVER and request.tool.startswith(PHONE_PREFIX) and src == "agent":
            adopt = self._agent_half(request)
        elif request.group == BRIDGE_CONVERSATION and executor is Executor.CLIENT and dst == "assistant":
            self._bridge_half(request)
        if dst == "assistant" or (src == "agent" and executor is Executor.CLIENT):
            self._delivery(request)  # ws.go routes an agent's client request to the assistant too
        return adopt

    def _agent_half(self, request: Request) -> Adopt | None:
        for bridge in list(self._bridge):
            if self._same(request, bridge) and _within(bridge.ts, request.ts, EARLY_WITHIN):
                self._bridge.remove(bridge)
                self._link(request, bridge, early=True)
                return Adopt(bridge.group, bridge.call_id, request.call_id)
        self._agent.append(request)
        while len(self._agent) > KEEP:
            self._agent.popleft()
        return None

    def _bridge_half(self, bridge: Request) -> None:
        for agent in self._agent:
            if self._same(agent, bridge):
                self._agent.remove(agent)
                self._link(agent, bridge, early=False)
                return
        self._bridge.append(bridge)
        while len(self._bridge) > KEEP:
            self._bridge.popleft()

    @staticmethod
    def _same(agent: Request, bridge: Request) -> bool:
        return agent.tool[len(PHONE_PREFIX) :] == bridge.tool and (agent.params or {}) == (
            bridge.params or {}
        )

    def _link(self, agent: Request, bridge: Request, *, early: bool) -> None:
        self.links += 1
        self._halves[agent.call_id] = bridge
        if agent.group:
            bridge.extra[ALSO_IN] = agent.group
        how = (
            f"inferred, not stated on the wire: same tool ({bridge.tool}) and arguments, and the bridge's "
            "request is the first to follow the agent's unanswered call (the agent's MCP client makes one "
            "call at a time); two identical calls in flight at once may be swapped"
        )
        bridge.parent_id = agent.call_id  # (an early one is moved under it by the Adopt event)
        said = f"the bridge's request for the agent's call {agent.call_id} in {agent.group or '?'}"
        if early:
            said += " (it reached the monitor just before the agent's own, the hub's copies racing)"
        note(bridge, "link", f"{said}; {how}")
        note(agent, "link", f"the phone executed it as the bridge's request {bridge.call_id}; {how}")

    def _result(self, result: Result, src: str) -> None:
        for index, (waiting, _) in enumerate(self._waiting):
            if waiting.call_id == result.call_id:
                del self._waiting[index]
                break
        if result.group == BRIDGE_CONVERSATION:
            for bridge in list(self._bridge):
                if bridge.call_id == result.call_id:
                    self._bridge.remove(bridge)
            return
        for agent in list(self._agent):
            if agent.call_id == result.call_id:
                self._agent.remove(agent)  # answered without a bridge request (refused before sending)
        request = self._request_of(result) if src == "agent" else None
        if request is None:
            return
        text = result.data if isinstance(result.data, str) else ""
        if result.outcome is Outcome.SUCCESS and text.startswith("Error: "):
            note(
                request,
                "failure_as_text",
                "the tool failed, though the result says success: an MCP server's failure reaches "
                "the conversation as text starting 'Error: ' (the bridge writes 'Error: tool error: "
                "…'; alicia's agent/mcp.go passes any MCP text on as success: true)",
            )

    def _request_of(self, result: Result) -> Request | None:
        return self._server.pop(result.call_id, None)

    # -- delivery ---------------------------------------------------------------------------------
    def _sign(self, ts: Any) -> None:
        if isinstance(ts, (int, float)):
            self.last_sign = float(ts) if self.last_sign is None else max(self.last_sign, float(ts))
        self._waiting.clear()  # an assistant spoke after them: they may well have reached it

    def _delivery(self, request: Request) -> None:
        ts = request.ts
        if ts is None:
            return
        last = self.last_sign
        if last is None:
            watched = ts - self.first_ts if self.first_ts is not None else 0.0
            if watched >= ABSENT_AFTER:
                self._undelivered(request, f"no heartbeat from an assistant in the {watched:.0f} s watched")
                return
        elif ts - last >= ABSENT_AFTER:
            self._undelivered(request, f"the assistant's last heartbeat was {ts - last:.0f} s before it")
            return
        self._waiting.append((request, last))
        while len(self._waiting) > KEEP:
            self._waiting.popleft()

    def judge(self, now: float) -> list[Request]:
        """Requests found undelivered by ``now``: their assistant fell silent (no heartbeat for 30 s
        after its last one before the request) and they are still unanswered."""
        found = []
        while self._waiting:
            request, last = self._waiting[0]
            since = last if last is not None else self.first_ts
            if since is None or now - since < ABSENT_AFTER:
                break
            self._waiting.popleft()
            if last is not None:
                why = f"no heartbeat after {clock_text(last)}, for {ABSENT_AFTER:.0f} s and more: the assistant was gone"
            else:
                why = f"no heartbeat from an assistant for {ABSENT_AFTER:.0f} s and more"
            self._undelivered(request, why)
            found.append(request)
        return found

    def next_judgement(self) -> float | None:
        """When :meth:`judge` may next find something (None: nothing waits)."""
        if not self._waiting:
            return None
        request, last = self._waiting[0]
        since = last if last is not None else self.first_ts
        return None if since is None else since + ABSENT_AFTER

    @staticmethod
    def _undelivered(request: Request, why: str) -> None:
        note(
            request,
            "undelivered",
            f"{why}; the hub drops a request for the assistant when none is connected "
            "(it copies it to the monitors first)",
        )

    # -- echoes -----------------------------------------------------------------------------------
    def _message(self, message: Message, src: str, dst: str) -> bool:
        if not message.text:
            return True
        if dst == "server" and src not in ("server", "assistant"):
            self._said.append(message)
            while len(self._said) > KEEP:
                self._said.popleft()
            return True
        if src != "server":
            return True
        for said in self._said:
            if (
                said.text == message.text
                and said.group == message.group
                and said.extra.get("type") == message.extra.get("type")
                and _within(said.ts, message.ts, ECHO_WITHIN)
            ):
                self._said.remove(said)
                said.extra["echoed"] = True
                self.echoes += 1
                return False
        return True


def _within(first: float | None, then: float | None, seconds: float) -> bool:
    """True when ``then`` is at most ``seconds`` after ``first`` (or a time is missing)."""
    return first is None or then is None or 0.0 <= then - first <= seconds


def undelivered(request: Request) -> str | None:
    """The not-delivered note of a request, if it has one."""
    notes = request.extra.get(NOTES)
    return notes.get("undelivered") if isinstance(notes, dict) else None
