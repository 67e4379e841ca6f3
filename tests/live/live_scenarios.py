"""SDK scenarios for tests/live, each run in a child process that ends with os._exit (the SDK can abort at exit).

python tests/live/live_scenarios.py NAME OUTDIR     -> writes OUTDIR/result.json
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
import traceback

import msgpack
from servers import serve, serve_on, which

from inspector.answer import compose, rules
from inspector.answer.engine import AsyncioScheduler, AutoResponder
from inspector.model import CallStore
from inspector.protocols import alicia
from inspector.protocols.recording import RecordingWriter
from inspector.room import RoomServer
from inspector.sources.livekit_room import LiveKitSource

ROOM = "conv_test"  # the conversation the envelopes name
ROOM_NAME = os.environ.get("INSPECTOR_TEST_ROOM") or ROOM  # the LiveKit room (one per scenario run)


async def until(predicate, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            raise TimeoutError("condition not met in time")
        await asyncio.sleep(0.02)


class Agent:
    """A scripted agent participant: sends envelopes, keeps what it receives."""

    def __init__(self, identity: str) -> None:
        self.identity = identity
        self.received: list[bytes] = []
        self.room = None
        self.stanza = 0

    async def join(self, server: RoomServer) -> Agent:
        from livekit import rtc

        self.room = rtc.Room()
        self.room.on("data_received", lambda packet: self.received.append(bytes(packet.data)))
        await self.room.connect(server.url, server.mint_token(self.identity, ROOM_NAME))
        return self

    async def send(self, type_: int, body, *, stanza: int | None = None, raw: bytes | None = None) -> None:
        if raw is None:
            self.stanza -= 1
            raw = alicia.encode_envelope(
                type_=type_,
                body=body,
                conversation_id=ROOM,
                stanza_id=self.stanza if stanza is None else stanza,
            )
        await self.room.local_participant.publish_data(raw, reliable=True, topic="alicia")

    async def request(self, call_id: str, tool: str, execution: str, timeout_ms: int = 30000) -> None:
        await self.send(
            6,
            {
                "id": call_id,
                "messageId": "msg_1",
                "toolName": tool,
                "execution": execution,
                "parameters": {"q": call_id},
                "timeoutMs": timeout_ms,
            },
        )


def make_source(server: RoomServer, store: CallStore, writer, identity="inspector-test", answering=True):
    token = server.mint_token(identity, ROOM_NAME, hidden=True, can_publish_data=answering)
    return LiveKitSource(
        server.url, token, store, writer, room=ROOM_NAME, identity=identity, answering=answering
    )


async def flushed_to(user: Agent, source: LiveKitSource, tag: str) -> None:
    """Wait until ``user`` has an envelope ``source`` broadcasts now: any answer misrouted to the user
    would have come before it (one sender's reliable channel keeps its order), so none is still on the way."""
    data = alicia.encode_envelope(
        type_=2, body={"id": tag, "content": tag}, conversation_id=ROOM, stanza_id=0
    )
    await source._publish(data, topic=None)
    await until(lambda: any(tag.encode() in packet for packet in user.received))


def summary(store: CallStore) -> dict:
    now = store.clock.now()
    return {
        "calls": {
            c.call_id: {
                "state": c.state(now).value,
                "answered_by": c.result.answered_by if c.result else None,
                "results": len(c.results),
                "tool": c.tool,
            }
            for c in store.all_calls()
        },
        "messages": [[m.kind, m.text] for m in store.items if type(m).__name__ == "Message"],
        "malformed": [m.reason for m in store.malformed],
    }


async def answer_and_auto(out: str) -> dict:
    """The answer API answers one request, the auto-responder another; recording kept for replay."""
    path = os.path.join(out, "rec.jsonl")
    async with serve() as server:
        store = CallStore()
        writer = RecordingWriter(path, {"room": ROOM})
        source = make_source(server, store, writer)
        ruleset = rules.parse('[[rule]]\ntool = "calc*"\nresult = { answer = 4 }\ndelay_ms = 50\n')
        engine = AutoResponder(
            ruleset,
            AsyncioScheduler(),
            lambda call, draft, rule: asyncio.get_running_loop().create_task(
                source.send_answer(call, draft, answered_by="auto")
            ),
        )

        def offer(events):
            for event in events:
                if type(event).__name__ == "Request":
                    engine.offer(store.find(event.group, event.call_id))

        source.watch_events(offer)
        await source.start()
        agent = await Agent("agent-1").join(server)
        user = await Agent("user-app").join(server)
        await until(lambda: len(source.state.participants) == 2)
        await user.send(
            2, {"id": "u1", "content": "hello"}, stanza=7
        )  # a client message: stanzas go on from 7
        await agent.send(0, None, raw=b"\xc1 definitely not msgpack")
        await agent.request("r_client", "read_local_file", "client")
        await agent.request("r_either", "calculator", "either")
        await agent.request("r_server", "web_search", "server")
        await until(
            lambda: store.find(ROOM, "r_server") is not None and store.find(ROOM, "r_either").answered
        )
        call = store.find(ROOM, "r_client")
        review = source.review_answer(call, compose.success({"content": "hi"}))
        refused = ""
        try:
            await source.send_answer(store.find(ROOM, "r_server"), compose.success({}))
        except Exception as exc:  # noqa: BLE001
            refused = type(exc).__name__
        sent = await source.send_answer(call, compose.success({"content": "hi"}))
        await until(lambda: len(agent.received) >= 2)
        await flushed_to(user, source, "marker-1")
        await source.stop()
        writer.close()
        # a restarted inspector (a new source, nothing seen) answers a new request in the conversation
        again = make_source(server, CallStore(), None, identity="inspector-again")
        await again.start()
        await agent.request("r_again", "read_local_file", "client")
        await until(lambda: again.store.find(ROOM, "r_again") is not None)
        restarted = await again.send_answer(again.store.find(ROOM, "r_again"), compose.success({}))
        await until(lambda: len(agent.received) >= 3)
        await flushed_to(user, again, "marker-2")
        await again.stop()
        await agent.room.disconnect()
        await user.room.disconnect()
        return {
            "agent_received": [msgpack.unpackb(d, raw=False) for d in agent.received],
            "user_received": [
                getattr(e, "extra", {}).get("type") for d in user.received for e in alicia.decode_packet(d)
            ],
            "restarted_stanza": restarted.stanza_id,
            "preview_stanza": review.stanza_id,
            "sent_stanza": sent.stanza_id,
            "refused": refused,
            "recording": path,
            **summary(store),
        }


async def leave_and_drop(out: str) -> dict:
    """A participant leaving, one dropped by the server, then the inspector's own connection dropped."""
    async with serve() as server:
        store = CallStore()
        source = make_source(server, store, None, answering=False)
        states = []
        source.watch_state(lambda state: states.append(state.status.value))
        await source.start()
        polite = await Agent("agent-polite").join(server)
        dropped = await Agent("agent-dropped").join(server)
        await until(lambda: len(source.state.participants) == 2)
        await polite.room.disconnect()
        await until(lambda: "agent-polite" not in source.state.participants)
        await server.drop("agent-dropped", rejoin=False)
        await until(lambda: "agent-dropped" not in source.state.participants, timeout=20)
        await server.drop("inspector-test", rejoin=False)
        await until(lambda: source.lost.is_set(), timeout=40)
        result = {
            "server": which(),
            "states": states,
            "final": source.state.status.value,
            "detail": source.state.detail,
            **summary(store),
        }
        await source.stop()
        del dropped
        return result


SECRET = "cli-test-secret-0123456789-abcdefghijklmnop"


def server_env(server) -> dict:
    """The environment of an inspector run against ``server``: this process's, with the server's URL and keys."""
    return {
        **os.environ,
        "LIVEKIT_URL": server.url,
        "LIVEKIT_API_KEY": server.api_key,
        "LIVEKIT_API_SECRET": server.api_secret,
    }


def auto_rules(out: str) -> str:
    """The path of a rules file in ``out`` answering every ``read_*`` request with ``{"content": "auto"}``."""
    path = os.path.join(out, "rules.toml")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write('[[rule]]\ntool = "read_*"\nresult = { content = "auto" }\n')
    return path


async def run_cli(args: list[str], env: dict, *, stop_when=None, timeout: float = 30.0, stages=None) -> dict:
    """Run ``inspector ARGS``; with ``stop_when(lines)``, send SIGINT once it is true (when it never is,
    the error says what was printed, and ``stages``, the scenario's own steps with their times)."""
    import signal

    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "inspector",
        *args,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    lines: list[str] = []

    async def read() -> None:
        while True:
            line = await proc.stdout.readline()
            if not line:
                return
            lines.append(line.decode("utf-8", "replace"))

    reader = asyncio.ensure_future(read())
    if stop_when is not None:
        try:
            await until(lambda: stop_when(lines) or proc.returncode is not None, timeout)
        except TimeoutError:
            proc.kill()
            raise TimeoutError(
                f"not seen in {timeout} s; steps {stages}; printed: {''.join(lines)[-4000:]}"
            ) from None
        if proc.returncode is None:
            proc.send_signal(signal.SIGINT)
    code = await asyncio.wait_for(proc.wait(), timeout)
    await reader
    err = (await proc.stderr.read()).decode("utf-8", "replace")
    return {"code": code, "stdout": "".join(lines), "stderr": err}


async def cli_live(out: str) -> dict:
    """``inspector live --no-ui`` against the room: JSON lines, a recording, secrets kept out; setup errors."""
    path = os.path.join(out, "cli.jsonl")
    rules_path = os.path.join(out, "rules.toml")
    with open(rules_path, "w", encoding="utf-8") as fh:
        fh.write('[[rule]]\ntool = "read_*"\nresult = { content = "auto" }\n')
    async with serve(api_secret=SECRET) as server:
        env = {
            **os.environ,
            "LIVEKIT_URL": server.url,
            "LIVEKIT_API_KEY": server.api_key,
            "LIVEKIT_API_SECRET": server.api_secret,
        }
        agent_box: list[Agent] = []

        async def play() -> None:
            await until(lambda: len(server.participants(ROOM_NAME)) == 1, 20)  # the inspector is in
            agent = await Agent("agent-cli").join(server)
            agent_box.append(agent)
            await agent.send(0, None, raw=b"\x92\x01\x02")
            await agent.request("c1", "read_local_file", "client")
            await agent.request("s1", "web_search", "server")

        player = asyncio.ensure_future(play())
        live = await run_cli(
            [
                "live",
                "--no-ui",
                "--json",
                "--room",
                ROOM_NAME,
                "--record",
                path,
                "--answer-rules",
                rules_path,
            ],
            env,
            stop_when=lambda lines: (
                sum('"answered_by": "auto"' in x for x in lines) >= 1 and any('"s1"' in x for x in lines)
            ),
        )
        await player
        received = [msgpack.unpackb(d, raw=False) for d in agent_box[0].received] if agent_box else []
        await agent_box[0].room.disconnect()
        bad_env = {**env, "LIVEKIT_API_SECRET": "wrong-secret-0123456789-0123456789-xyz"}
        bad = await run_cli(["live", "--no-ui", "--room", ROOM_NAME, "--no-record"], bad_env)
        token = server.mint_token("inspector-given", ROOM_NAME)
        given = await run_cli(
            ["live", "--no-ui", "--token", token, "--no-record"],
            {k: v for k, v in env.items() if not k.startswith("LIVEKIT_API")},
            stop_when=lambda lines: any("connected to room" in x for x in lines),
        )
        with open(rules_path, "w", encoding="utf-8") as fh:
            fh.write('[[rule]]\ntool = "x"\n\n[[rule]]\ntool = "y"\nresult = "not a map"\n')
        bad_rules = await run_cli(["live", "--no-ui", "--room", ROOM_NAME, "--answer-rules", rules_path], env)
        refused = await run_cli(
            ["live", "--no-ui", "--room", ROOM_NAME, "--no-record", "--give-up-after", "0"],
            {**env, "LIVEKIT_URL": "ws://127.0.0.1:1"},
        )
        return {
            "live": live,
            "bad": bad,
            "given": given,
            "given_token": token,
            "bad_rules": bad_rules,
            "refused": refused,
            "recording": path,
            "received": received,
            "secret": server.api_secret,
            "room": ROOM_NAME,
        }


async def answer_size(out: str) -> dict:
    """The largest answer the preview lets through is sent by the SDK; one byte more is refused first."""
    async with serve() as server:
        store = CallStore()
        source = make_source(server, store, None)
        await source.start()
        agent = await Agent("agent-1").join(server)
        await agent.request("big", "read_local_file", "client")
        await until(lambda: store.find(ROOM, "big") is not None)
        call = store.find(ROOM, "big")

        def review(n: int):
            return source.review_answer(call, compose.success({"content": "x" * n}))

        n = 63000
        n += 64000 - review(n).wire_size
        at_limit, over = review(n), review(n + 1)
        sent_error = ""
        try:
            await source.send_answer(call, compose.success({"content": "x" * n}))
        except Exception as exc:  # noqa: BLE001
            sent_error = repr(exc)
        await until(lambda: any(len(d) > 60000 for d in agent.received))
        # the other way: an agent's packets at and one byte past the limit (the SDK counts the packet)
        from inspector.answer import wire_size

        def blob_request(call_id: str, k: int) -> bytes:
            body = {
                "id": call_id,
                "toolName": "upload",
                "execution": "server",
                "parameters": {"blob": "b" * k},
            }
            return alicia.encode_envelope(type_=6, body=body, conversation_id=ROOM, stanza_id=-9)

        room_limit = 64000 - wire_size.packet_overhead(identity=agent.identity, topic="alicia")
        k = 63000
        k += room_limit - len(blob_request("at_limit_", k))
        inbound = {}
        for call_id, size in (("at_limit_", k), ("past_limit", k + 1)):
            data = blob_request(call_id, size)
            try:
                await agent.send(0, None, raw=data)
                inbound[call_id] = ["sent", len(data)]
            except Exception as exc:  # noqa: BLE001 - the SDK refuses what the room cannot carry
                inbound[call_id] = ["refused", f"{type(exc).__name__}: {exc}"]
        await agent.request("after_limit", "read_local_file", "client")  # same sender: comes after them
        await until(lambda: store.find(ROOM, "after_limit") is not None)
        arrived = {c: len(store.find(ROOM, c).request.raw.data) for c in inbound if store.find(ROOM, c)}
        await source.stop()
        await agent.room.disconnect()
        return {
            "at_limit": [at_limit.wire_size, at_limit.size, at_limit.sendable],
            "over": [over.wire_size, over.sendable, [i.kind for i in over.refusals]],
            "sent_error": sent_error,
            "received": max(len(d) for d in agent.received),
            "inbound": inbound,
            "inbound_arrived": arrived,
        }


def _proc_bytes(pid: int, name: str) -> bytes:
    try:
        with open(f"/proc/{pid}/{name}", "rb") as fh:
            return fh.read()
    except OSError:
        return b""


def _children(pid: int) -> list[int]:
    text = _proc_bytes(pid, f"task/{pid}/children").decode()
    return [int(x) for x in text.split()]


def _running(pids: list[int]) -> list[int]:
    return [
        c for c in pids if os.path.exists(f"/proc/{c}") and b"zombie" not in _proc_bytes(c, "status").lower()
    ]


async def kill_and_watch(proc, server: RoomServer, children: list[int]) -> tuple[bool, list[int]]:
    """``kill -9`` of ``proc``: whether its participant left the room, and which of ``children`` still ran
    once they had time to notice (those are then killed, so a failed test leaves nothing behind)."""
    import signal

    os.kill(proc.pid, signal.SIGKILL)
    await proc.wait()
    left = True
    try:  # it leaves: a real server would keep a participant whose connection just ended ~20 s
        await until(lambda: len(server.participants(ROOM_NAME)) == 0, 20)
    except TimeoutError:
        left = False
    try:  # the children notice their parent is gone and leave: wait for that, not a fixed time
        await until(lambda: not _running(children), 10)
    except TimeoutError:
        pass
    alive = _running(children)
    for c in alive:
        os.kill(c, signal.SIGKILL)
    return left, alive


async def kill_nine(out: str) -> dict:
    """``kill -9`` of ``inspector live``: its SDK child leaves the room; the secret is in no argv or child env."""
    path = os.path.join(out, "k9.jsonl")
    async with serve(api_secret=SECRET) as server:
        env = {
            **os.environ,
            "LIVEKIT_URL": server.url,
            "LIVEKIT_API_KEY": server.api_key,
            "LIVEKIT_API_SECRET": server.api_secret,
        }
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "inspector",
            "live",
            "--no-ui",
            "--room",
            ROOM_NAME,
            "--record",
            path,
            env=env,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        await until(lambda: len(server.participants(ROOM_NAME)) == 1, 30)
        children = _children(proc.pid)
        seen = {
            "supervisor_cmdline": server.api_secret.encode() in _proc_bytes(proc.pid, "cmdline"),
            "child_cmdline": any(server.api_secret.encode() in _proc_bytes(c, "cmdline") for c in children),
            "child_environ": any(server.api_secret.encode() in _proc_bytes(c, "environ") for c in children),
            "child_environ_read": all(_proc_bytes(c, "environ") for c in children),
        }
        left, alive = await kill_and_watch(proc, server, children)
        return {"children": len(children), "seen": seen, "left": left, "alive": alive}


async def disk_full(out: str) -> dict:
    """``inspector live --no-ui`` recording onto a 16 KB filesystem: every request is still printed,
    the recording stops with a reason, and the exit code says so."""
    path = os.path.join(os.environ["INSPECTOR_TEST_SMALL_FS"], "rec.jsonl")
    async with serve(api_secret=SECRET) as server:
        env = {
            **os.environ,
            "LIVEKIT_URL": server.url,
            "LIVEKIT_API_KEY": server.api_key,
            "LIVEKIT_API_SECRET": server.api_secret,
        }

        async def play() -> None:
            await until(lambda: len(server.participants(ROOM_NAME)) == 1, 20)
            agent = await Agent("agent-df").join(server)
            for index in range(30):
                await agent.send(
                    6,
                    {
                        "id": f"big{index}",
                        "toolName": "t",
                        "execution": "server",
                        "parameters": {"blob": "z" * 1500},
                    },
                )
            await asyncio.sleep(1)
            await agent.room.disconnect()

        player = asyncio.ensure_future(play())
        live = await run_cli(
            ["live", "--no-ui", "--json", "--room", ROOM_NAME, "--record", path],
            env,
            stop_when=lambda lines: any('"big29"' in x for x in lines),
            timeout=60,
        )
        await player
        return {**live, "size": os.path.getsize(path)}


async def rejoin(out: str) -> dict:
    """Started before the room server exists, it joins when it appears; the server goes away for 30 s
    and comes back: the inspector rejoins by itself and keeps recording into the same file."""
    from servers import HeldPorts

    ports = HeldPorts()  # kept bound while no server is on them
    port = ports.ports[0]
    path = os.path.join(out, "rejoin.jsonl")
    env = {
        **os.environ,
        "LIVEKIT_URL": f"ws://127.0.0.1:{port}",
        "LIVEKIT_API_KEY": "devkey",
        "LIVEKIT_API_SECRET": SECRET,
    }

    began = time.monotonic()
    stages: dict[str, float] = {}  # when each step was done, in seconds from the start: said on a failure

    def mark(stage: str) -> None:
        stages[stage] = round(time.monotonic() - began, 1)

    async def play() -> None:
        await asyncio.sleep(2)  # the inspector is already trying
        async with serve_on(ports, api_key="devkey", api_secret=SECRET) as server:
            mark("server up")
            await until(lambda: len(server.participants(ROOM_NAME)) == 1, 30)
            mark("inspector joined")
            agent = await Agent("agent-r").join(server)
            await agent.request("r1", "read_local_file", "server")
            mark("r1 sent")
            await asyncio.sleep(1)
            await agent.room.disconnect()
        mark("server down")
        await asyncio.sleep(30)  # the room server is down for 30 s
        async with serve_on(ports, api_key="devkey", api_secret=SECRET) as server:
            mark("server up again")
            await until(lambda: len(server.participants(ROOM_NAME)) == 1, 60)
            mark("inspector joined again")
            agent = await Agent("agent-r").join(server)
            await agent.request("r2", "read_local_file", "server")
            mark("r2 sent")
            await asyncio.sleep(1)
            await agent.room.disconnect()
            await asyncio.sleep(2)

    player = asyncio.ensure_future(play())
    # the server is down 30 s, and each start of the real one, each join and the backoff (at most 10 s)
    # take their time on a loaded machine: the whole waits up to 125 s (the scenario's limit is 150 s)
    live = await run_cli(
        ["live", "--no-ui", "--json", "--room", ROOM_NAME, "--record", path],
        env,
        stop_when=lambda lines: any('"r2"' in x for x in lines) or player.done(),  # a failed step says why
        timeout=125,
        stages=stages,
    )
    await player
    mark("end")
    with open(path, encoding="utf-8") as fh:
        recorded = fh.read()
    return {**live, "recording": recorded, "stages": stages}


def status_shows(app, words: str, seen: dict, key: str) -> bool:
    """Whether the status line (the screen's last but one) holds ``words``; if so the screen is kept in
    ``seen[key]`` as it was then (a status that changes on its own is never read twice)."""
    from screen_text import screen_text

    text = screen_text(app)
    if words not in text.splitlines()[-2]:
        return False
    seen[key] = text
    return True


async def ui_rejoin(out: str) -> dict:
    """The app (pilot) joined to a real room: the room server goes away and comes back on the same port;
    the app says it is reconnecting, keeps its calls on screen, joins again by itself and shows new calls."""
    from servers import HeldPorts

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "ui"))
    from ui_factories import make_app

    from inspector.room import mint_token

    ports = HeldPorts()  # kept bound while no server is on them
    port = ports.ports[0]
    store = CallStore()
    token = mint_token("devkey", SECRET, "inspector-ui", ROOM_NAME, hidden=True)
    source = LiveKitSource(
        f"ws://127.0.0.1:{port}", token, store, None, room=ROOM_NAME, identity="inspector-ui"
    )
    app = make_app(store, source=source, label="room ui")
    seen: dict = {}
    async with app.run_test(size=(120, 30)):
        # no room yet: it waits and retries
        await until(lambda: status_shows(app, "reconnecting", seen, "before_room"), 20)
        seen["before_room"] = seen["before_room"].splitlines()[-2]
        async with serve_on(ports, api_key="devkey", api_secret=SECRET) as server:
            await until(lambda: len(server.participants(ROOM_NAME)) == 1, 30)
            agent = await Agent("agent-u").join(server)
            await agent.request("u1", "read_local_file", "server")
            await until(lambda: "u1" in str([c.call_id for c in store.all_calls()]), 10)
            await agent.room.disconnect()
        # the screen is kept as the condition saw it: the status goes back to "connecting" at each try;
        # the list is drawn on its own beat, so the status may tell of the fault a frame before the list
        # has drawn the call (a loaded CI machine saw that frame): the call must be there while down.
        # The app's own rejoin says when its next try is; before it, the real server's SDK may say
        # "reconnecting · connection lost, trying to resume" for a moment (its own resume)
        await until(
            lambda: (
                status_shows(app, "next try in", seen, "while_down")
                and "read_local_file" in seen["while_down"]
            ),
            30,
        )
        async with serve_on(ports, api_key="devkey", api_secret=SECRET) as server:
            await until(lambda: len(server.participants(ROOM_NAME)) == 1, 40)
            agent = await Agent("agent-u").join(server)
            await agent.request("u2", "read_local_file", "server")
            await until(lambda: "u2" in str([c.call_id for c in store.all_calls()]), 10)
            await until(lambda: status_shows(app, "connected", seen, "after"), 10)
            await agent.room.disconnect()
        await source.stop()
    seen["calls"] = [c.call_id for c in store.all_calls()]
    seen["joins"] = sum(1 for m in store.items if "connected to room" in getattr(m, "text", ""))
    return seen


async def early_sender(out: str) -> dict:
    """The first real-server runs: a request sent the moment its agent joined came with no sender and was
    answered to the whole room. Now: the join is listed before the request, the auto-responder answers the
    agent alone, a bystander gets nothing; the hidden inspector is seen by no participant but listed by the
    server, with data publishing granted only to the one that answers (the other's packets go nowhere)."""
    async with serve() as server:
        store = CallStore()
        source = make_source(server, store, None)
        ruleset = rules.parse('[[rule]]\ntool = "read_*"\nresult = { content = "auto" }\n')
        engine = AutoResponder(
            ruleset,
            AsyncioScheduler(),
            lambda call, draft, rule: asyncio.get_running_loop().create_task(
                source.send_answer(call, draft, answered_by="auto")
            ),
        )
        source.watch_events(
            lambda events: [
                engine.offer(store.find(e.group, e.call_id)) for e in events if type(e).__name__ == "Request"
            ]
        )
        await source.start()
        watcher = make_source(server, CallStore(), None, identity="inspector-watch", answering=False)
        await watcher.start()
        bystander = await Agent("bystander").join(server)
        await until(lambda: "bystander" in source.state.participants, 20)
        agent = Agent("agent-early")
        await agent.join(server)
        await agent.request("e1", "read_local_file", "client")  # at once: before the room names the agent
        await until(lambda: len(agent.received) >= 1, 20)
        order = [
            getattr(item, "text", "") or f"call {getattr(item, 'call_id', '')}"
            for item in store.items
            if "agent-early" in getattr(item, "text", "") or getattr(item, "call_id", "") == "e1"
        ]
        await flushed_to(bystander, source, "marker-early")
        # what each sees and what the server lists
        seen_by_agent = sorted(agent.room.remote_participants)
        listed = {p.identity: [p.hidden, p.can_publish_data] for p in server.participants(ROOM_NAME)}
        refused = [
            i.kind for i in watcher.review_answer(store.find(ROOM, "e1"), compose.success({})).refusals
        ]
        forced = ""
        try:  # past the inspector's own check: the server must not pass it on either
            await watcher._publish(b"from-a-watcher", topic=None)
        except Exception as exc:  # noqa: BLE001
            forced = type(exc).__name__
        await asyncio.sleep(2)  # a packet the server passed on would be here by now
        got_forced = any(b"from-a-watcher" in d for d in agent.received + bystander.received)
        call = store.find(ROOM, "e1")
        result = {
            "server": which(),
            "order": order,
            "sender": call.request.extra.get("participant"),
            "state": call.state(store.clock.now()).value,
            "agent_answers": [
                env["body"].get("requestId")
                for env in (msgpack.unpackb(d, raw=False) for d in agent.received)
                if isinstance(env, dict) and env.get("type") == 7
            ],
            "bystander_types": [
                getattr(e, "extra", {}).get("type")
                for d in bystander.received
                for e in alicia.decode_packet(d)
            ],
            "seen_by_agent": seen_by_agent,
            "seen_by_bystander": sorted(bystander.room.remote_participants),
            "listed": listed,
            "watcher_refusals": refused,
            "forced": forced,
            "got_forced": got_forced,
        }
        await watcher.stop()
        await source.stop()
        await agent.room.disconnect()
        await bystander.room.disconnect()
        return result


async def flood(out: str) -> dict:
    """One agent publishes 2,000 Alicia packets as fast as the SDK takes them; the inspector keeps every one
    (store and recording) and says how fast they came through this server."""
    import time

    path = os.path.join(out, "flood.jsonl")
    count = 2000
    async with serve() as server:
        store = CallStore()
        writer = RecordingWriter(path, {"room": ROOM_NAME})
        source = make_source(server, store, writer, answering=False)
        await source.start()
        agent = await Agent("agent-flood").join(server)
        await until(lambda: "agent-flood" in source.state.participants, 20)
        started = time.perf_counter()
        for index in range(count):
            await agent.request(f"f{index}", "web_search", "server")
        sent = time.perf_counter() - started
        await until(lambda: source.ingest.count >= count, 60)
        through = time.perf_counter() - started
        await source.stop()
        writer.close()
        await agent.room.disconnect()
    with open(path, "rb") as fh:
        recorded = sum(1 for line in fh if b'"dir":"in"' in line)
    ids = {c.call_id for c in store.all_calls()}
    return {
        "server": which(),
        "sent": count,
        "calls": len(ids),
        "missing": sorted({f"f{i}" for i in range(count)} - ids)[:10],
        "recorded": recorded,
        "send_rate": round(count / sent),
        "receive_rate": round(count / through),
    }


async def quit_in_flood(out: str) -> dict:
    """Four publishers flood the room and the inspector leaves in the middle of it, as a quit does: every
    packet the SDK handed over before is in the recording, or counted as not written."""
    import time

    from inspector.sources.feeds import stop_quietly

    path = os.path.join(out, "flood.jsonl")
    async with serve() as server:
        store = CallStore()
        writer = RecordingWriter(path, {"room": ROOM_NAME})
        source = make_source(server, store, writer, answering=False)
        await source.start()
        agents = [await Agent(f"agent-flood{i}").join(server) for i in range(4)]
        await until(lambda: all(a.identity in source.state.participants for a in agents), 20)
        done = asyncio.Event()

        async def publish(agent: Agent) -> None:
            index = 0
            while not done.is_set():
                index += 1
                await agent.request(f"{agent.identity}-{index}", "web_search", "server")

        flooding = [asyncio.create_task(publish(agent)) for agent in agents]
        await until(lambda: source.arrived >= 3000, 60)
        time.sleep(0.5)  # the app's loop busy (a repaint, a key): the packets wait in the inbox
        backlog = source.arrived - source.ingest.count
        # what the app does on q, when leaving takes longer than it waits (a flood slows the SDK's
        # disconnect; here it is made slow): its loop then ends, so nothing is handled after this wait
        drop = source._drop_room

        async def slow_drop() -> None:
            await asyncio.sleep(1.0)
            await drop()

        source._drop_room = slow_drop
        await stop_quietly(source, asyncio.Event(), timeout=0.2)
        source._drop_room = drop
        writer.close()
        done.set()
        await asyncio.gather(*flooding, return_exceptions=True)
        await source.stop()  # leave for good now, so the counts stop moving
        arrived, unwritten = source.arrived, source.unwritten
        for agent in agents:
            await agent.room.disconnect()
    with open(path, "rb") as fh:
        recorded = sum(1 for line in fh if b'"dir":"in"' in line)
    return {
        "server": which(),
        "arrived": arrived,
        "unwritten": unwritten,
        "recorded": recorded,
        "backlog_at_quit": backlog,
        "calls": store.call_count,
    }


SCENARIOS = {
    "quit_in_flood": quit_in_flood,
    "early_sender": early_sender,
    "flood": flood,
    "rejoin": rejoin,
    "ui_rejoin": ui_rejoin,
    "disk_full": disk_full,
    "kill_nine": kill_nine,
    "answer_size": answer_size,
    "answer_and_auto": answer_and_auto,
    "leave_and_drop": leave_and_drop,
    "cli_live": cli_live,
}


def main() -> None:
    name, out = sys.argv[1], sys.argv[2]
    try:
        if name not in SCENARIOS:  # the scenarios with peers shaped as the real Alicia code, answering once
            from once_scenarios import SCENARIOS as ONCE
            from peer_scenarios import SCENARIOS as PEERS

            SCENARIOS.update(PEERS)
            SCENARIOS.update(ONCE)
        result = asyncio.run(asyncio.wait_for(SCENARIOS[name](out), 150))
        code = 0
    except BaseException:  # noqa: BLE001 - reported to the test through the result file
        result = {"error": traceback.format_exc()}
        code = 1
    with open(os.path.join(out, "result.json"), "w", encoding="utf-8") as fh:
        json.dump(result, fh, default=repr)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    main()
