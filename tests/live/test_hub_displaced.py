"""A hub assistant displaced by a second one notices it, says so, stops heartbeating, and takes the role
back when asked (issue 21 point 3), against the stand-in hub (the real one: test_alicia_real.py)."""

from __future__ import annotations

import asyncio

import inspector.protocols.alicia.hub as hub
from inspector.live.hub_peers import HubAssistant, HubBridge
from inspector.live.hub_server import HubServer
from inspector.model import CallStore, Message
from inspector.sources.alicia_hub import HubSource
from inspector.sources.hub_role import RoleWatch

SECRET = "s3cr3t-agent"
TOOLS = [{"name": "get_battery", "description": "battery"}]


async def until(check, timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not check():
        assert loop.time() < end, "timed out waiting"
        await asyncio.sleep(0.01)


def said(store: CallStore, kind: str = "assistant-role") -> list[str]:
    return [m.text for m in store.items if isinstance(m, Message) and m.kind == kind]


async def test_a_second_assistant_displaces_the_first_which_says_so_and_stops_heartbeats():
    server = await HubServer(SECRET).start()
    store = CallStore()
    source = HubSource(server.url, store, role="assistant", secret=SECRET, tools=TOOLS, heartbeat_every=0.05)
    await source.start()
    assert source.watch is not None and not source.displaced
    other = await HubAssistant(
        server.url, SECRET, {"get_battery": {"level": 5}}, heartbeat_every=0.05
    ).start()
    await until(lambda: source.displaced)
    assert "another connection subscribed as the assistant" in source.displaced
    assert source.state.warning.startswith("displaced") and source.state.label.startswith("displaced")
    assert any("displaced" in text and "take the role back" in text for text in said(store))
    # no more heartbeats from the displaced one: every heartbeat the hub gets now is the other's
    sent: list[bytes] = []
    send = source._conn.send

    async def counting(data):
        sent.append(data)
        await send(data)

    source._conn.send = counting
    await asyncio.sleep(0.3)  # six heartbeat periods
    assert hub.heartbeat() not in sent and source._heartbeats is None
    await other.close()
    await source.reclaim()
    assert not source.displaced and not source.state.warning
    await until(lambda: server.assistant_tools == TOOLS)
    await until(lambda: sent.count(hub.heartbeat()) >= 2)  # heartbeats again
    bridge = await HubBridge(server.url, timeout=5).start()
    await until(bridge.assistant_available)
    asking = asyncio.ensure_future(bridge.request("get_battery"))
    await until(lambda: len(store.calls) == 1)
    assert "took the assistant role back" in said(store)[-1]
    await bridge.close()
    asking.cancel()
    await source.stop()
    await server.close()


async def test_a_request_the_hub_gave_another_assistant_is_enough_to_tell():
    """No subscription seen (the watch joined late): the request the monitor saw and we never got."""
    server = await HubServer(SECRET).start()
    store = CallStore()
    source = HubSource(server.url, store, role="assistant", secret=SECRET, tools=TOOLS, heartbeat_every=0.05)
    await source.start()
    source.watch._rival_at = None
    other = await HubAssistant(
        server.url, SECRET, {"get_battery": {"level": 5}}, heartbeat_every=0.05
    ).start()
    source.watch.reset()  # forget the subscription: only the request can tell now
    source.displaced = ""
    source.watch.grace = 0.3
    bridge = await HubBridge(server.url, timeout=5).start()
    await until(bridge.assistant_available)
    body = await bridge.request("get_battery")
    assert body["result"] == {"level": 5}  # the other one answered
    await until(lambda: "did not get it" in source.displaced)
    await bridge.close()
    await other.close()
    await source.stop()
    await server.close()


async def test_a_refused_subscriber_is_no_rival():
    server = await HubServer(SECRET).start()
    store = CallStore()
    source = HubSource(server.url, store, role="assistant", secret=SECRET, tools=TOOLS, heartbeat_every=0.05)
    await source.start()
    impostor = HubAssistant(server.url, "wrong", {"get_battery": {}}, heartbeat_every=0.05)
    try:
        await impostor.start()
    except Exception:  # noqa: BLE001 - refused, as it should be
        pass
    bridge = await HubBridge(server.url, timeout=5).start()
    await until(bridge.assistant_available)
    asking = asyncio.ensure_future(bridge.request("get_battery"))
    await until(lambda: len(store.calls) == 1)
    await asyncio.sleep(2.5)  # past the watch's grace: the request reached us
    assert not source.displaced
    asking.cancel()
    await bridge.close()
    await source.stop()
    await server.close()


def test_own_frames_are_told_from_anothers_by_count():
    events: list[str] = []
    watch = RoleWatch("ws://x", events.append)
    beat = hub.heartbeat()
    watch.sent(beat)
    watch.take(hub.monitor_frame("assistant", "server", beat), 0.0)  # ours
    watch.take(hub.monitor_frame("client", "server", hub.subscribe("assistant")), 1.0)  # a rival asks
    assert events == []
    watch.take(hub.monitor_frame("assistant", "server", beat), 2.0)  # and speaks as the assistant
    assert len(events) == 1 and "subscribed as the assistant" in events[0]
