"""The hub source against the stand-in hub: monitor order, refusal in words, assistant answers, hub restarts."""

from __future__ import annotations

import asyncio
import json

import pytest

import inspector.protocols.alicia.hub as hub
from inspector.answer import compose
from inspector.live.hub_peers import HubAgent, HubBridge, PeerError, join, scripted_conversation
from inspector.live.hub_server import HubServer
from inspector.model import CallStore, Message
from inspector.protocols.recording import RecordingWriter
from inspector.sources.alicia_hub import HubSource
from inspector.sources.base import AnswerRefused, LiveConnectError, SourceStatus

SECRET = "s3cr3t-agent"


async def until(check, timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not check():
        assert loop.time() < end, "timed out waiting"
        await asyncio.sleep(0.01)


def test_frames_round_trip():
    data = hub.encode(6, {"id": "tu_1"}, "conv", trace_id="ab" * 16, span_id="cd" * 8, trace_flags=1)
    env = hub.decode(data)
    assert env == {
        "conversationId": "conv",
        "type": 6,
        "body": {"id": "tu_1"},
        "trace_id": "ab" * 16,
        "span_id": "cd" * 8,
        "trace_flags": 1,
    }
    frame = hub.read_monitor_frame(hub.monitor_frame("agent", "server", data))
    assert (frame.src, frame.dst, frame.data) == ("agent", "server", data)
    assert hub.role_of({"assistantMode": True}) == "assistant"
    ack = hub.read_ack(hub.subscribe_ack(False, "authentication required"), hub.SUBSCRIBE_ACK)
    assert ack == hub.Ack(False, "authentication required")
    with pytest.raises(hub.FrameError):
        hub.read_monitor_frame(b"\xc1")
    with pytest.raises(hub.FrameError):
        hub.decode(b"\x93\x01\x02\x03")


async def test_monitor_sees_the_scripted_conversation_in_order(tmp_path):
    server = await HubServer(SECRET).start()
    store = CallStore()
    writer = RecordingWriter(str(tmp_path / "hub.jsonl"), {"source": "alicia-hub"})
    source = HubSource(server.url, store, writer)
    await source.start()
    agent = await HubAgent(server.url, SECRET).start()
    client = await join(server.url, conversation="conv_hub")
    await client.send(hub.encode(2, {"id": "um_1", "content": "weather?"}, "conv_hub"))
    await agent.play(scripted_conversation(), "conv_hub")
    await until(lambda: len(server.log) >= 15 and len(store.calls) >= 2)
    await asyncio.sleep(0.1)
    assert source.state.participants == ("agent", "client")  # the roles seen sending
    await source.stop()
    await agent.close()
    await client.close()
    await server.close()
    writer.close()

    seen = [m for m in store.items if isinstance(m, Message) and m.extra.get("dir") != "event"]
    assert (seen[0].sender, seen[0].kind) == ("server → monitor", "SubscribeAck")  # the monitor's own ack
    conversation = [(m.sender, m.kind) for m in seen if m.kind not in ("Subscribe", "SubscribeAck")]
    assert conversation == [
        ("client → server", "UserMessage"),
        ("server → agent", "GenerationRequest"),
        ("agent → server", "StartAnswer"),
        ("agent → server", "AssistantMessage"),
    ], conversation  # each envelope once: the hub passing it on (server → client) is a relay
    assert source.relays == sum(1 for s, d, _ in server.log if s == "server" and d in ("client", "assistant"))
    calls = {c.call_id: c for c in store.all_calls()}
    assert calls["tu_1"].request.sender == "agent → server"
    assert calls["tu_1"].answered and [r.sender for r in calls["tu_1"].results] == ["agent → server"]
    assert calls["tu_1"].request.violation is None
    assert calls["tu_2"].request.executor.value == "client" and not calls["tu_2"].answered
    # the monitor saw what the hub sent its monitors, in that order (one line per frame in the recording)
    lines = [json.loads(x) for x in (tmp_path / "hub.jsonl").read_text().splitlines()[1:]]
    packets = [x for x in lines if x["dir"] in ("in", "relay") and x["participant"] != "server → monitor"]
    assert [p["participant"] for p in packets] == [f"{s} → {d}" for s, d, _ in server.log], (
        [p["participant"] for p in packets],
        [(s, d, hub.decode(x)["type"]) for s, d, x in server.log],
    )
    assert [p["decoded"]["type"] for p in packets] == [hub.decode(d)["type"] for _, _, d in server.log]
    # opened again, the recording threads as it did live
    from inspector.protocols import recording

    again = CallStore()
    again.ingest_many(recording.read(str(tmp_path / "hub.jsonl")))
    assert {c.call_id: len(c.results) for c in again.all_calls()} == {"tu_1": 1, "tu_2": 0}


async def test_a_wrong_secret_is_refused_in_the_hubs_words_and_not_retried():
    server = await HubServer(SECRET).start()
    store = CallStore()
    source = HubSource(server.url, store, role="assistant", secret="wrong-one", tools=[])
    with pytest.raises(LiveConnectError) as caught:
        await source.start()
    assert str(caught.value) == "the hub refused the agent secret: authentication required"
    assert "wrong-one" not in str(caught.value)
    stop = asyncio.Event()
    outcome = await asyncio.wait_for(source.run(stop), 5)
    assert not outcome.stopped and not outcome.joined and "authentication required" in outcome.reason
    assert server.assistant is None
    await server.close()


async def test_assistant_registers_heartbeats_and_its_answer_is_matched_by_request_id():
    server = await HubServer(SECRET).start()
    store = CallStore()
    tools = [{"name": "get_battery", "description": "battery level", "inputSchema": {"type": "object"}}]
    source = HubSource(server.url, store, role="assistant", secret=SECRET, tools=tools, heartbeat_every=0.05)
    await source.start()
    assert server.assistant_tools == tools
    before = server.last_heartbeat
    await until(lambda: server.last_heartbeat > before)
    bridge = await HubBridge(server.url, timeout=5).start()
    await until(bridge.assistant_available)
    asking = asyncio.ensure_future(bridge.request("get_battery", {"detail": True}))
    await until(lambda: len(store.calls) == 1)
    call = list(store.all_calls())[0]
    assert call.request.executor.value == "client"
    assert call.request.timeout_ms == 30000  # the bridge's own wait
    # an unrelated result first: the bridge ignores it (no request has that requestId)
    stray = hub.encode(
        7, {"id": "x", "requestId": "not-asked", "success": True, "result": {}}, "__assistant__"
    )
    await source._conn.send(stray)
    sent = await source.send_answer(call, compose.success({"level": 81}))
    body = await asyncio.wait_for(asking, 5)
    assert body["requestId"] == call.call_id and body["result"] == {"level": 81}
    assert sent.envelope == {"conversationId": "__assistant__", "type": 7, "body": sent.envelope["body"]}
    assert "stanzaId" not in sent.envelope and call.answered
    await until(lambda: bridge.unmatched)
    assert bridge.unmatched[0]["requestId"] == "not-asked"
    await bridge.close()
    await source.stop()
    await server.close()


async def test_the_bridge_refuses_a_stale_assistant_and_times_out_in_its_words():
    server = await HubServer(SECRET).start()
    bridge = await HubBridge(server.url, timeout=0.2, stale_after=30).start()
    with pytest.raises(PeerError, match="no heartbeat for >30s"):
        await bridge.request("get_time")
    source = HubSource(server.url, CallStore(), role="assistant", secret=SECRET, heartbeat_every=0.05)
    await source.start()
    await until(bridge.assistant_available)
    with pytest.raises(PeerError, match="timed out after 0.2s"):
        await bridge.request("get_time")
    await bridge.close()
    await source.stop()
    await server.close()


async def test_the_hub_going_away_and_coming_back_is_survived():
    server = await HubServer(SECRET).start()
    port = server.port
    store = CallStore()
    source = HubSource(server.url, store, role="assistant", secret=SECRET, tools=[], heartbeat_every=0.05)
    stop = asyncio.Event()
    running = asyncio.ensure_future(source.run(stop))
    await until(lambda: source.state.status is SourceStatus.CONNECTED)
    await server.close()
    await until(lambda: source.state.status is SourceStatus.RECONNECTING)
    server = await HubServer(SECRET, port=port).start()
    await until(lambda: source.state.status is SourceStatus.CONNECTED, timeout=10)
    assert server.assistant is not None
    bridge = await HubBridge(server.url, timeout=5).start()
    await until(bridge.assistant_available)
    asking = asyncio.ensure_future(bridge.request("get_time"))
    await until(lambda: len(store.calls) == 1)
    await source.send_answer(list(store.all_calls())[0], compose.success({"time": "12:00"}))
    assert (await asyncio.wait_for(asking, 5))["result"] == {"time": "12:00"}
    texts = [m.text for m in store.items if isinstance(m, Message)]
    assert any(t.startswith("reconnecting:") for t in texts)
    stop.set()
    outcome = await asyncio.wait_for(running, 5)
    assert outcome.stopped
    await bridge.close()
    await source.stop()
    await server.close()


async def test_a_hostile_refusal_reaches_no_terminal_as_control_characters():
    from websockets.asyncio.server import serve

    async def refuse(conn):
        await conn.recv()
        await conn.send(hub.subscribe_ack(False, "\x1b[2J\x1b]52;c;aGk=\x07no\nway" + "x" * 5000))
        await conn.wait_closed()

    async with serve(refuse, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1] if server.sockets else 0
        source = HubSource(f"ws://127.0.0.1:{port}/api/v1/ws", CallStore(), role="assistant", secret="x")
        with pytest.raises(LiveConnectError) as caught:
            await source.start()
    words = str(caught.value)
    assert words.startswith("the hub refused the agent secret: ") and "no⏎way" in words
    assert "\x1b" not in words and "\x07" not in words and len(words) <= 400


async def test_an_answer_while_the_hub_is_out_of_reach_is_refused_in_the_preview_and_at_send():
    server = await HubServer(SECRET).start()
    store = CallStore()
    source = HubSource(server.url, store, role="assistant", secret=SECRET, tools=[], heartbeat_every=0.05)
    stop = asyncio.Event()
    running = asyncio.ensure_future(source.run(stop))
    await until(lambda: source.state.status is SourceStatus.CONNECTED)
    bridge = await HubBridge(server.url, timeout=30).start()
    await until(bridge.assistant_available)
    asking = asyncio.ensure_future(bridge.request("get_time"))
    await until(lambda: len(store.calls) == 1)
    call = list(store.all_calls())[0]
    assert source.review_answer(call, compose.success({})).sendable
    await server.close()  # the hub goes away while the request waits
    await until(lambda: source.state.status is SourceStatus.RECONNECTING)
    review = source.review_answer(call, compose.success({}))
    assert [i.kind for i in review.refusals] == ["not_connected"]
    assert review.refusals[0].message == (
        "not connected (reconnecting): an answer cannot be sent until the connection is back"
    )
    with pytest.raises(AnswerRefused, match=r"^not connected \(reconnecting\)"):
        await source.send_answer(call, compose.success({}))
    assert not call.answered
    asking.cancel()
    stop.set()
    await asyncio.wait_for(running, 10)
    await bridge.close()
    await source.stop()
    await server.close()
