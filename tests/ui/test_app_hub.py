"""The app as Alicia's hub assistant: a bridge asks, the person answers from the answer screen."""

from __future__ import annotations

import asyncio

from screen_text import screen_text, settle
from ui_factories import SIZE, make_app

from inspector.live.hub_peers import HubBridge
from inspector.live.hub_server import HubServer
from inspector.model import CallStore, State
from inspector.model.clock import SystemClock
from inspector.sources.alicia_hub import HubSource
from inspector.ui.screens.answer import AnswerScreen

SECRET = "pilot-secret"


async def test_the_person_answers_a_hub_request_and_the_bridge_gets_it_by_request_id():
    server = await HubServer(SECRET).start()
    clock = SystemClock()
    store = CallStore(clock=clock)
    tools = [{"name": "get_battery", "description": "battery"}]
    source = HubSource(server.url, store, role="assistant", secret=SECRET, tools=tools, heartbeat_every=0.2)
    app = make_app(store, clock=clock, source=source, label="hub assistant")  # type: ignore[arg-type]
    bridge = None
    try:
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(200):
                if server.assistant is not None and server.assistant_tools:
                    break
                await pilot.pause(0.05)
            assert server.assistant_tools == tools
            bridge = await HubBridge(server.url, timeout=20).start()
            for _ in range(100):
                if bridge.assistant_available():
                    break
                await pilot.pause(0.05)
            asking = asyncio.ensure_future(bridge.request("get_battery", {"detail": "full"}))
            for _ in range(200):
                if store.calls:
                    break
                await pilot.pause(0.05)
            [call] = list(store.all_calls())
            await settle(pilot)  # the list has taken the request in (repaints are throttled)
            await pilot.press("a")
            await pilot.pause()
            assert isinstance(app.screen, AnswerScreen)
            assert "s left" in screen_text(app)  # the countdown: the bridge's 30 s wait
            area = app.screen.query_one("#answer-result")
            area.text = '{"level": 42}'  # type: ignore[attr-defined]
            await pilot.pause()
            assert '"requestId"' in screen_text(app)
            assert "stanzaId" not in screen_text(app)  # the hub's envelope has none
            shown = app.screen.review  # type: ignore[attr-defined]
            await pilot.press("ctrl+j")
            body = await asyncio.wait_for(asking, 10)
            assert body == shown.envelope["body"]  # the previewed answer is the one sent, its own id included
            assert body["requestId"] == call.call_id and body["result"] == {"level": 42}
            assert body["conversationId"] == "__assistant__" and body["success"] is True
            await pilot.pause(0.2)
            assert call.state(store.clock.now()) is State.SUCCEEDED
            assert call.result is not None and call.result.answered_by == "inspector"
            assert SECRET not in screen_text(app)
    finally:
        if bridge is not None:
            await bridge.close()
        await source.stop()
        await server.close()


async def test_the_app_as_a_hub_monitor_lists_the_conversation_and_cannot_answer():
    import inspector.protocols.alicia.hub as hub
    from inspector.live.hub_peers import HubAgent, join, scripted_conversation

    server = await HubServer(SECRET).start()
    clock = SystemClock()
    store = CallStore(clock=clock)
    source = HubSource(server.url, store)
    app = make_app(store, clock=clock, source=source, label=source.label)  # type: ignore[arg-type]
    agent = client = None
    try:
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(200):
                if server.monitors:
                    break
                await pilot.pause(0.05)
            agent = await HubAgent(server.url, SECRET).start()
            client = await join(server.url, conversation="conv_hub")
            await client.send(hub.encode(2, {"id": "um_1", "content": "weather?"}, "conv_hub"))
            await agent.play(scripted_conversation(), "conv_hub")
            for _ in range(200):
                if len(store.calls) == 2:
                    break
                await pilot.pause(0.05)
            await settle(pilot)
            text = screen_text(app)
            assert "web_search" in text and "get_battery" in text and "connected" in text
            assert f"hub monitor {server.url}" in text  # the status names the transport and role
            call = store.find("conv_hub", "tu_2")
            assert call is not None and call.request.sender == "agent → server"
            await pilot.press("p")  # the pending client request
            await pilot.press("a")
            await pilot.pause()
            assert not isinstance(app.screen, AnswerScreen)  # a monitor cannot answer
    finally:
        for peer in (agent, client):
            if peer is not None:
                await peer.close()
        await source.stop()
        await server.close()
