"""The app as the hub's assistant, displaced by a second one: the status bar and a notice say so, and R
takes the role back (issue 21 point 3)."""

from __future__ import annotations

from screen_text import screen_text, settle
from ui_factories import SIZE, make_app

from inspector.live.hub_peers import HubAssistant
from inspector.live.hub_server import HubServer
from inspector.model import CallStore
from inspector.model.clock import SystemClock
from inspector.sources.alicia_hub import HubSource

SECRET = "pilot-secret"
TOOLS = [{"name": "get_battery", "description": "battery"}]


async def test_displaced_is_said_where_the_user_looks_and_r_takes_the_role_back():
    server = await HubServer(SECRET).start()
    clock = SystemClock()
    store = CallStore(clock=clock)
    source = HubSource(server.url, store, role="assistant", secret=SECRET, tools=TOOLS, heartbeat_every=0.2)
    app = make_app(store, clock=clock, source=source, label="hub assistant")  # type: ignore[arg-type]
    other = None
    try:
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(200):
                if source.watch is not None and server.assistant_tools:
                    break
                await pilot.pause(0.05)
            other = await HubAssistant(server.url, SECRET, {"get_battery": {}}, heartbeat_every=0.2).start()
            for _ in range(200):
                if source.displaced:
                    break
                await pilot.pause(0.05)
            await settle(pilot)
            shown = screen_text(app)
            assert "displaced: another assistant has the role" in shown  # the status bar
            notes = [n.message for n in app._notifications]
            assert any("Press R to take it back" in note for note in notes), notes
            await other.close()
            other = None
            await pilot.press("R")
            for _ in range(200):
                if not source.displaced and server.assistant_tools == TOOLS:
                    break
                await pilot.pause(0.05)
            assert not source.displaced and server.assistant_tools == TOOLS
            await settle(pilot)
            assert "Took the assistant role back." in [n.message for n in app._notifications]
            assert "displaced: another assistant has the role" not in screen_text(app)  # the bar is clear
    finally:
        if other is not None:
            await other.close()
        await source.stop()
        await server.close()
