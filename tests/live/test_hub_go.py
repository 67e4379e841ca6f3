"""The hub client against the Go side: frames encoded by vmihailenco/msgpack v5, a hub on gorilla/websocket.

``gohub/frames.txt`` holds frames that ``gohub/main.go`` encoded with the struct tags of longregen/alicia
``shared/protocol/types.go`` (the Go library writes ``type`` as a uint16, ``data`` as bin, nil
``arguments``, empty strings the bridge leaves in): they are decoded here on every run. Where Go and
Debian's two libraries are installed, ``gohub`` is built, decodes our frames into those structs and
serves as a hub (routing as ``api/server/ws.go`` does for subscribe, Bearer check, monitor fan-out and
the assistant), and the inspector runs against it as a real process.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import msgpack
import pytest
from test_hub_cli import ROOT, connected

import inspector.protocols.alicia.hub as hub
from inspector.answer import compose
from inspector.live.hub_peers import HubBridge
from inspector.model import CallStore, Malformed
from inspector.sources.alicia_hub import HubSource

HERE = Path(__file__).resolve().parent / "gohub"
GOPATH = Path("/usr/share/gocode")

# one pytest-xdist worker for the module: the Go hub is built once per module (gohub), spread over
# workers it was built in each
pytestmark = [pytest.mark.xdist_group("gohub"), pytest.mark.slow]  # builds and runs a Go hub: end to end
SECRET = "go-secret-51c2"


def go_frames() -> dict[str, bytes]:
    lines = (HERE / "frames.txt").read_text().split("\n")
    return {name: bytes.fromhex(text) for name, text in (line.split() for line in lines if line.strip())}


def fed(role: str, *names: str) -> tuple[HubSource, CallStore]:
    store = CallStore()
    source = HubSource("ws://127.0.0.1:1/api/v1/ws", store, role=role)
    frames = go_frames()
    for name in names:
        source._take(frames[name])
    return source, store


def test_a_monitor_decodes_what_go_encodes():
    _, store = fed(
        "monitor", "ack_monitor", "monitor_agent_request", "monitor_to_assistant", "monitor_garbage"
    )
    agent = store.find("conv_go", "tu_go")
    assert agent is not None and agent.request.sender == "agent → server"
    assert agent.request.tool == "get_battery" and agent.request.params == {"detail": "full"}
    bridge = store.find("__assistant__", "req_go")  # the bridge's request: nil arguments, empty ids
    assert bridge is not None and bridge.request.sender == "server → assistant"
    assert bridge.request.params == {} and bridge.request.timeout_ms == 30_000
    kinds = [type(item).__name__ for item in store.items]
    assert kinds.count("Malformed") == 1  # a client's garbage, forwarded by the hub: shown, not fatal
    [bad] = [item for item in store.items if isinstance(item, Malformed)]
    assert bad.raw is not None and bad.raw.data == b"\xc1not msgpack"


def test_acks_as_go_encodes_them():
    frames = go_frames()
    assert hub.read_ack(frames["ack_monitor"], hub.SUBSCRIBE_ACK) == hub.Ack(True)
    assert hub.read_ack(frames["ack_refused"], hub.SUBSCRIBE_ACK) == hub.Ack(False, "authentication required")
    assert hub.read_ack(frames["ack_agent_refused"], hub.SUBSCRIBE_ACK) == hub.Ack(
        False, "authentication required"
    )
    assert hub.read_ack(frames["ack_conversation"], hub.SUBSCRIBE_ACK) == hub.Ack(True)
    assert hub.read_ack(frames["tools_ack"], hub.TOOLS_ACK) == hub.Ack(True, count=2)
    assert hub.read_ack(frames["tools_ack"], hub.SUBSCRIBE_ACK) is None


def test_our_stand_in_encodes_the_frames_go_encodes_alike():
    frames = go_frames()
    for name in ("ack_monitor", "ack_refused", "tools_ack", "ack_conversation"):
        ours = hub.decode(
            {
                "ack_monitor": hub.subscribe_ack(True),
                "ack_refused": hub.subscribe_ack(False, "authentication required"),
                "tools_ack": hub.tools_ack(True, 2),
                "ack_conversation": hub.subscribe_ack(True, conversation_id="conv_go"),
            }[name]
        )
        assert ours == hub.decode(frames[name]), name
    wrapped = hub.read_monitor_frame(frames["monitor_to_assistant"])
    assert hub.monitor_frame(wrapped.src, wrapped.dst, wrapped.data) == frames["monitor_to_assistant"]


def test_a_monitor_frame_whose_data_is_a_nested_map_is_read_too():
    env = {"conversationId": "c", "type": 6, "body": {"id": "t", "toolName": "x", "execution": "client"}}
    frame = msgpack.packb({"src": "agent", "dst": "server", "data": env}, use_bin_type=True)
    assert hub.decode(hub.read_monitor_frame(frame).data) == env


def test_the_answer_to_the_bridge_is_the_shape_its_decoder_reads():
    source, store = fed("assistant", "ack_monitor", "tools_ack", "bridge_request")
    [call] = list(store.all_calls())
    review = source.review_answer(call, compose.success({"text": "copied"}))
    again = source.review_answer(call, compose.success({"text": "copied"}))
    assert review.data == again.data  # the preview is what is sent
    env = msgpack.unpackb(review.data, raw=False)
    assert list(env) == ["conversationId", "type", "body"] and env["type"] == 7
    body = env["body"]
    assert body["requestId"] == "req_go" and body["conversationId"] == "__assistant__"
    assert body["id"] != "req_go" and body["id"].startswith("tr_")  # the result's own id, as Android's
    assert body["success"] is True and body["result"] == {"text": "copied"} and "messageId" not in body
    failed = msgpack.unpackb(source.review_answer(call, compose.failure("timeout", "too slow")).data)
    assert failed["body"]["error"] == "too slow" and isinstance(failed["body"]["error"], str)


async def test_the_sent_answer_is_the_preview_even_when_the_stanza_clock_moved():
    from inspector.live.hub_server import HubServer

    server = await HubServer(SECRET).start()
    store = CallStore()
    tools = [{"name": "get_clipboard", "description": "clipboard"}]
    source = HubSource(server.url, store, role="assistant", secret=SECRET, tools=tools)
    bridge = None
    try:
        await source.start()
        bridge = await HubBridge(server.url, timeout=10).start()
        await source._conn.send(hub.heartbeat())
        await wait_for(bridge.assistant_available)
        asking = asyncio.ensure_future(bridge.request("get_clipboard"))
        await wait_for(lambda: bool(store.calls))
        [call] = list(store.all_calls())
        preview = source.review_answer(call, compose.success({"text": "x"}))
        source.stanzas.reserve = lambda conversation: 987654  # type: ignore[method-assign]
        sent = await source.send_answer(call, compose.success({"text": "x"}))
        assert sent.data == preview.data and "stanzaId" not in sent.envelope
        assert (await asyncio.wait_for(asking, 10))["requestId"] == call.call_id
    finally:
        if bridge is not None:
            await bridge.close()
        await source.stop()
        await server.close()


async def wait_for(check, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not check():
        assert loop.time() < end, "timed out"
        await asyncio.sleep(0.02)


# -- with Go -------------------------------------------------------------------------------------


def _go_missing() -> str | None:
    if shutil.which("go") is None:
        return "no Go toolchain (apt-get install golang-go)"
    for lib in ("github.com/vmihailenco/msgpack/v5", "github.com/gorilla/websocket"):
        if not (GOPATH / "src" / lib).is_dir():
            return f"Debian's {lib} is not installed"
    return None


@pytest.fixture(scope="module")
def gohub(tmp_path_factory) -> Path:
    reason = _go_missing()
    if reason:
        pytest.skip(reason)
    out = tmp_path_factory.mktemp("gohub") / "gohub"
    env = {**os.environ, "GO111MODULE": "off", "GOPATH": str(GOPATH), "GOFLAGS": ""}
    env.setdefault("GOCACHE", str(tmp_path_factory.mktemp("gocache")))
    subprocess.run(["go", "build", "-o", str(out), "."], cwd=HERE, env=env, check=True, timeout=300)
    return out


def test_go_decodes_what_we_send(gohub):
    source, store = fed("assistant", "ack_monitor", "tools_ack", "agent_request", "bridge_request")
    frames = {
        "sub_monitor": hub.subscribe("monitor"),
        "sub_assistant": hub.subscribe("assistant"),
        "register": hub.tools_register(
            [{"name": "get_battery", "description": "b", "inputSchema": {"type": "object"}}]
        ),
        "heartbeat": hub.heartbeat(),
    }
    for call in store.all_calls():
        frames[f"ok_{call.call_id}"] = source.review_answer(call, compose.success({"n": [1, 2.5]})).data
        frames[f"fail_{call.call_id}"] = source.review_answer(call, compose.failure("timeout", "slow")).data
    text = "".join(f"{name} {data.hex()}\n" for name, data in frames.items())
    done = subprocess.run([gohub, "decode"], input=text, capture_output=True, text=True, check=True)
    out = {line["name"]: line for line in map(json.loads, done.stdout.splitlines())}
    assert not [line for line in out.values() if "error" in line]
    assert out["sub_monitor"]["decoded"]["body"]["MonitorMode"] is True
    assert out["sub_assistant"]["decoded"]["body"]["AssistantMode"] is True
    [tool] = out["register"]["decoded"]["body"]["Tools"]
    assert tool == {"Name": "get_battery", "Description": "b", "InputSchema": {"type": "object"}}
    assert out["heartbeat"]["decoded"]["type"] == 72
    ok, fail = out["ok_req_go"]["decoded"], out["fail_req_go"]["decoded"]["body"]
    assert ok["conversationId"] == "__assistant__" and ok["type"] == 7
    assert ok["body"]["RequestID"] == "req_go" and ok["body"]["Success"] is True
    assert ok["body"]["Result"] == {"n": [1, 2.5]}
    assert fail["Success"] is False and fail["Error"] == "slow"
    assert out["ok_tu_go"]["decoded"]["body"]["MessageID"] == "am_go"


class GoHub:
    """``gohub serve`` as a child process on 127.0.0.1."""

    def __init__(self, binary: Path, secret: str, port: int = 0) -> None:
        self.binary, self.secret, self.port = binary, secret, port
        self.proc: asyncio.subprocess.Process | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/api/v1/ws"

    async def start(self) -> GoHub:
        self.proc = await asyncio.create_subprocess_exec(
            str(self.binary), "serve", self.secret, str(self.port),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        )  # fmt: skip
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), 20)
        self.port = int(line.split()[1])
        return self

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()  # the process ends: its sockets close with no close frame
            await self.proc.wait()


class Child:
    """``inspector live`` as a child process whose JSON lines are read as they come (a 3 MB one too)."""

    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        self.args, self.env = args, env or {}
        self.lines: list[dict] = []
        self.proc: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> Child:
        full = {k: v for k, v in os.environ.items() if k != "ALICIA_AGENT_SECRET"}
        full.update({"PYTHONPATH": str(ROOT), **self.env})
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "inspector", "live", *self.args,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=full, limit=1 << 26,
        )  # fmt: skip
        self._reader = asyncio.get_running_loop().create_task(self._read())
        return self

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        async for line in self.proc.stdout:
            self.lines.append(json.loads(line) if line.startswith(b"{") else {"text": line.decode()})

    async def until(self, check, timeout: float = 20.0) -> dict:
        await wait_for(lambda: any(check(line) for line in self.lines), timeout)
        return next(line for line in self.lines if check(line))

    async def finish(self, interrupt: bool = True) -> tuple[int, str]:
        assert self.proc is not None
        if interrupt and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGINT)
        assert self._reader is not None and self.proc.stderr is not None
        await asyncio.wait_for(self._reader, 20)  # to the end of its output
        err = await asyncio.wait_for(self.proc.stderr.read(), 20)
        return await asyncio.wait_for(self.proc.wait(), 20), err.decode()

    async def kill(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()


def succeeded(line: dict) -> bool:
    return line.get("event") == "call" and line.get("state") == "succeeded"


async def test_the_inspector_against_a_go_hub(gohub, tmp_path):
    tools = tmp_path / "tools.toml"
    tools.write_text('[[tool]]\nname = "get_clipboard"\ndescription = "clipboard"\n')
    rules = tmp_path / "rules.toml"
    rules.write_text('[[rule]]\ntool = "get_clipboard"\nresult = { text = "from the rules" }\n')
    server = await GoHub(gohub, SECRET).start()
    children: list[Child] = []
    bridge = None
    try:
        refused = await Child(
            "--hub", server.url, "--as-assistant", "--tools", str(tools), "--agent-secret", "wrong", "--no-ui",
            "--no-record",
        ).start()  # fmt: skip
        code, err = await refused.finish(interrupt=False)
        assert code == 2 and "the hub refused the agent secret: authentication required" in err

        monitor = await Child("--hub", server.url, "--no-ui", "--json", "--no-record").start()
        children.append(monitor)
        await monitor.until(connected)
        bridge = await HubBridge(server.url, timeout=15).start()
        args = ["--hub", server.url, "--as-assistant", "--tools", str(tools), "--answer-rules", str(rules)]
        env = {"ALICIA_AGENT_SECRET": SECRET}
        assistant = await Child(*args, "--no-ui", "--json", "--no-record", env=env).start()
        children.append(assistant)
        await assistant.until(connected)
        assert any("registered 1 tool(s)" in str(line.get("text")) for line in assistant.lines)
        await wait_for(bridge.assistant_available, 15)
        big = "x" * (3 << 20)  # 3 MB: past websockets' default 1 MiB read limit; gorilla sets none
        body = await bridge.request("get_clipboard", {"blob": big})
        assert body["success"] is True and body["result"] == {"text": "from the rules"}
        assert body["id"] != body["requestId"]
        await assistant.until(succeeded)
        call = await monitor.until(succeeded)
        assert call["tool"] == "get_clipboard" and call["group"] == "__assistant__"

        joins = {id(child): sum(map(connected, child.lines)) for child in children}
        await server.stop()  # the hub goes away (no close frame) and comes back on the same port
        await monitor.until(lambda x: "reconnecting" in str(x.get("text")))
        server = await GoHub(gohub, SECRET, server.port).start()
        for child in children:  # both join again (the assistant subscribes and registers anew)
            await wait_for(lambda c=child: sum(map(connected, c.lines)) > joins[id(c)], 30)
        for child in children:
            code, err = await child.finish()
            assert code == 0, err
            assert SECRET not in err
        assert SECRET not in json.dumps(monitor.lines + assistant.lines)
    finally:
        if bridge is not None:
            await bridge.close()
        for child in children:
            await child.kill()
        await server.stop()


async def test_a_hub_that_checks_the_origin_refuses_none_and_admits_the_one_given():
    from inspector.live.hub_server import HubServer

    server = await HubServer(allowed_origins=("https://alicia.example",)).start()
    try:
        refused = await Child("--hub", server.url, "--no-ui", "--no-record").start()
        code, err = await refused.finish(interrupt=False)
        assert code == 2 and "HTTP 403" in err and "--origin" in err
        origin = "https://alicia.example"
        admitted = await Child(
            "--hub", server.url, "--origin", origin, "--no-ui", "--json", "--no-record"
        ).start()
        await admitted.until(connected)
        code, err = await admitted.finish()
        assert code == 0, err
        wrong = await Child("--hub", server.url, "--origin", "alicia.example", "--no-ui").start()
        code, err = await wrong.finish(interrupt=False)
        assert code == 2 and "--origin 'alicia.example'" in err
    finally:
        await server.close()
