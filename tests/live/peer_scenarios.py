"""SDK scenarios with peers shaped as the real Alicia code sends and reads (run by live_scenarios.py).

The shapes follow longregen/alicia: the Go envelope (shared/protocol/envelope.go: no stanzaId, W3C trace
context at the top), the Go ToolUseRequest (shared/protocol/types.go: ``arguments``, no timeoutMs), the
Android app's ToolUseResult (a fresh ``id``, ``requestId`` naming the request, its span in the body), and
the first Android client's reader (core/network/protocol/ProtocolHandler.kt at the first public commit:
exactly five envelope fields, ``id``/``requestId``/``conversationId`` text and ``success`` a boolean).
"""

from __future__ import annotations

import asyncio
import os
import sys

import msgpack
from live_scenarios import ROOM, ROOM_NAME, kill_and_watch, make_source, until
from servers import on_real_server, serve

from inspector.answer import compose
from inspector.model import CallStore, OrphanResult
from inspector.room import RoomServer

OTHER = "conv_two"
INSPECTOR = "inspector-test"  # make_source's identity
TRACE = {"trace_id": "4bf92f3577b34da6a3ce929d0e0e4736", "span_id": "00f067aa0ba902b7", "trace_flags": 1}


class Peer:
    """A participant that sends prepared envelopes and keeps (data, topic, sender) of what it receives."""

    def __init__(self, identity: str) -> None:
        self.identity = identity
        self.got: list[tuple[bytes, str, str]] = []
        self.room = None

    async def join(self, server: RoomServer) -> Peer:
        from livekit import rtc

        self.room = rtc.Room()

        def keep(packet) -> None:
            sender = packet.participant.identity if packet.participant is not None else ""
            self.got.append((bytes(packet.data), packet.topic, sender))

        self.room.on("data_received", keep)
        await self.room.connect(server.url, server.mint_token(self.identity, ROOM_NAME))
        return self

    async def send(self, envelope: dict, *, topic: str = "alicia", reliable: bool = True) -> None:
        data = msgpack.packb(envelope, use_bin_type=True)
        await self.room.local_participant.publish_data(data, reliable=reliable, topic=topic)

    def results(self) -> list[tuple[dict, str]]:
        """The ToolUseResults the inspector sent here, decoded with key order kept, and their topics."""
        decoded = [
            (msgpack.unpackb(data, raw=False), topic)
            for data, topic, sender in self.got
            if sender in (INSPECTOR, "")  # a hidden participant's packets name no participant
        ]
        return [(env, topic) for env, topic in decoded if isinstance(env, dict) and env.get("type") == 7]


def go_request(call_id: str, conversation: str = ROOM, execution: str = "client") -> dict:
    body = {
        "id": call_id,
        "messageId": "msg_go",
        "conversationId": conversation,
        "toolName": "get_battery",
        "arguments": {"detail": True},
        "execution": execution,
    }
    return {"conversationId": conversation, "type": 6, "body": body, **TRACE, "session_id": "s-go"}


def first_android_reader(envelope: dict) -> str:
    """What the first Android client's decoder refuses in a ToolUseResult envelope ("" if it reads it)."""
    if list(envelope) != ["stanzaId", "conversationId", "type", "meta", "body"]:
        return f"expected the five fields in order, got {list(envelope)}"
    if not isinstance(envelope["stanzaId"], int) or not isinstance(envelope["conversationId"], str):
        return "stanzaId or conversationId of the wrong type"
    body = envelope["body"]
    for key in ("id", "requestId", "conversationId"):
        if not isinstance(body.get(key), str):
            return f"body {key} is not text"
    if not isinstance(body.get("success"), bool):
        return "success is not a boolean"
    return ""


def go_reader(envelope: dict) -> dict:
    """The fields the Go server reads from a ToolUseResult (ws.go finds the tool use by requestId)."""
    body = envelope["body"]
    error = body.get("error", "")
    return {
        "conversationId": envelope.get("conversationId"),
        "requestId": body.get("requestId"),
        "success": body.get("success"),
        "error": error if isinstance(error, str) else None,
    }


async def real_peers(out: str) -> dict:
    """Results by requestId and before their request, answers read by both generations' readers, sent on
    the request's topic to the requester only, and a stanzaId sequence per conversation."""
    async with serve() as server:
        store = CallStore()
        source = make_source(server, store, None)
        await source.start()
        agent = await Peer("agent-go").join(server)
        app = await Peer("android-app").join(server)
        other = await Peer("agent-two").join(server)
        await until(lambda: len(source.state.participants) == 3)

        # the app's result (its own id, requestId, its span in the body) overtakes a lossy request
        android_result = {
            "id": "0d6f3c1e-uuid",
            "requestId": "early_1",
            "conversationId": ROOM,
            "success": True,
            "result": {"level": 80},
            **TRACE,
        }
        await app.send({"conversationId": ROOM, "type": 7, "body": android_result})
        await until(lambda: any(isinstance(i, OrphanResult) for i in store.items))
        held = [type(i).__name__ for i in store.items]
        await agent.send(go_request("early_1"), reliable=False)
        await until(lambda: store.find(ROOM, "early_1") is not None)
        early = store.find(ROOM, "early_1")

        # a client message far up the range in this conversation; the other conversation starts low
        await app.send(
            {
                "stanzaId": 2_000_000_000,
                "conversationId": ROOM,
                "type": 2,
                "meta": {},
                "body": {"id": "u1", "content": "hi"},
            }
        )
        await agent.send(go_request("go_ok"), topic="alicia-tools")
        await agent.send(go_request("go_fail"), topic="alicia-tools")
        await other.send(go_request("two_1", OTHER), topic="lk-two")
        await until(lambda: all(store.find(c, i) for c, i in ((ROOM, "go_fail"), (OTHER, "two_1"))))
        await until(lambda: any(getattr(m, "text", "") == "hi" for m in store.items))
        ok = await source.send_answer(store.find(ROOM, "go_ok"), compose.success({"level": 80}))
        fail = await source.send_answer(
            store.find(ROOM, "go_fail"), compose.failure("execution_error", "battery service gone")
        )
        two = await source.send_answer(store.find(OTHER, "two_1"), compose.success({}))
        await until(lambda: len(agent.results()) == 2 and len(other.results()) == 1)
        # the app is sent nothing: a marker broadcast after the answers arrives, and no answer before it
        await source._publish(msgpack.packb({"type": 2, "body": {"id": "mark"}}), topic=None)
        await until(lambda: any(b"mark" in data for data, _, _ in app.got))
        await source.stop()
        for peer in (agent, app, other):
            await peer.room.disconnect()
        now = store.clock.now()
        return {
            "held_before": held,
            "early": {
                "state": early.state(now).value,
                "results": len(early.results),
                "result_id": early.result.extra.get("resultId"),
                "params": early.request.params,
                "trace": early.request.extra.get("trace"),
                "result_trace": early.result.extra.get("trace"),
                "violation": early.request.violation,
            },
            "orphans": len(store.orphans),
            "agent": [[env, topic] for env, topic in agent.results()],
            "other": [[env, topic] for env, topic in other.results()],
            "app_results": len(app.results()),
            "stanzas": {"ok": ok.stanza_id, "fail": fail.stanza_id, "two": two.stanza_id},
            "android_refuses": [first_android_reader(env) for env, _ in agent.results() + other.results()],
            "go_reads": [go_reader(env) for env, _ in agent.results()],
        }


def _descendants(pid: int) -> list[int]:
    """Every process under ``pid`` (children of each of its threads, and theirs)."""
    found: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in _listdir(f"/proc/{parent}/task"):
            for child in map(int, _read(f"/proc/{parent}/task/{task}/children").split()):
                if child not in found:
                    found.append(child)
                    todo.append(child)
    return found


def _listdir(path: str) -> list[str]:
    try:
        return os.listdir(path)
    except OSError:
        return []


def _read(path: str) -> str:
    try:
        with open(path, "rb") as fh:
            return fh.read().decode("utf-8", "replace")
    except OSError:
        return ""


async def demo_secrets(out: str) -> dict:
    """``inspector demo``: no process it starts has a token (a JWT) or the API secret on its command line
    or in its environment; the agent gets its tokens through a pipe."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LIVEKIT_")}
    on_server: list[str] = []
    real = on_real_server()
    if real is not None:  # `inspector demo --url` with the key and secret in the environment, as lk has them
        on_server = ["--url", real.url]
        env.update(LIVEKIT_API_KEY=real.api_key, LIVEKIT_API_SECRET=real.api_secret)
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "inspector",
        "demo",
        "--no-ui",
        "--auto",
        "--no-record",
        "--rounds",
        "1",
        "--speed",
        "4",
        *on_server,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    seen: dict[int, dict[str, bool]] = {}

    def agent_running() -> bool:
        for pid in _descendants(proc.pid):
            cmdline = _read(f"/proc/{pid}/cmdline")
            environ = _read(f"/proc/{pid}/environ")
            if cmdline:
                seen[pid] = {
                    "agent": "inspector.demo.agent" in cmdline,
                    "jwt_cmdline": "eyJ" in cmdline,
                    "jwt_environ": "eyJ" in environ,
                    "secret_environ": "LIVEKIT_API_SECRET=" in environ
                    or "LIVEKIT_TOKEN" in environ
                    or (real is not None and real.api_secret in environ),
                }
        return any(v["agent"] for v in seen.values())

    await until(agent_running, 60)
    await until(lambda: agent_running() and len(seen) >= 2, 10)
    await asyncio.wait_for(proc.communicate(), 120)
    return {"processes": list(seen.values()), "code": proc.returncode}


async def kill_nine_ui(out: str) -> dict:
    """``kill -9`` of ``inspector live`` with its UI (on a pseudo-terminal): the SDK child leaves too."""
    from live_scenarios import SECRET

    async with serve(api_secret=SECRET) as server:
        env = {
            **os.environ,
            "LIVEKIT_URL": server.url,
            "LIVEKIT_API_KEY": server.api_key,
            "LIVEKIT_API_SECRET": server.api_secret,
            "TERM": "xterm-256color",
        }
        leader, follower = os.openpty()
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "inspector",
            "live",
            "--room",
            ROOM_NAME,
            "--no-record",
            env=env,
            stdin=follower,
            stdout=follower,
            stderr=follower,
        )
        os.close(follower)
        drained = asyncio.get_running_loop()
        drained.add_reader(leader, lambda: _drain(leader))
        try:
            await until(lambda: len(server.participants(ROOM_NAME)) == 1, 30)
            children = _descendants(proc.pid)
            left, alive = await kill_and_watch(proc, server, children)
        finally:
            drained.remove_reader(leader)
            os.close(leader)
        return {"children": len(children), "left": left, "alive": alive}


def _drain(fd: int) -> None:
    try:
        os.read(fd, 65536)
    except OSError:
        pass


SCENARIOS = {"real_peers": real_peers, "demo_secrets": demo_secrets, "kill_nine_ui": kill_nine_ui}


if __name__ == "__main__":  # pragma: no cover - run through live_scenarios.py
    asyncio.run(real_peers("."))
