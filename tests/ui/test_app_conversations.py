"""Two agents in one room: the list shows each call's conversation in a column (issue 7)."""

from __future__ import annotations

import re

from screen_text import screen_text, wait_for
from ui_factories import T0, make_app

from inspector.model import CallStore, FakeClock
from inspector.protocols import alicia
from inspector.sources.memory import MemorySource
from inspector.ui.widgets.list_header import ListHeader


def request(call_id: str, conversation: str) -> bytes:
    body = {"id": call_id, "toolName": "read_local_file", "execution": "client", "parameters": {}}
    return alicia.encode_envelope(type_=6, body=body, conversation_id=conversation, stanza_id=-1)


def live_app():
    clock = FakeClock(T0)
    store = CallStore(clock=clock)
    source = MemorySource(store, identity="inspector-test", room="demo")
    return make_app(store, clock=clock, source=source, label="room demo"), source


def list_rows(app) -> list[str]:
    """The call list's rows (they start with the clock; the detail pane's lines do not)."""
    return [line for line in screen_text(app).splitlines() if re.match(r"\d\d:\d\d:\d\d ", line)]


async def test_one_conversation_has_no_column_and_a_second_one_adds_it():
    app, source = live_app()
    async with app.run_test(size=(120, 20)) as pilot:
        source.receive(request("call_a1", "conv_alpha"), participant="agent-a")
        assert await wait_for(pilot, lambda: len(list_rows(app)) == 1)
        assert "conv_alpha" not in list_rows(app)[0]  # one conversation: nothing to tell apart
        source.receive(request("call_b1", "conv_beta"), participant="agent-b")
        source.receive(request("call_a2", "conv_alpha"), participant="agent-a")
        assert await wait_for(pilot, lambda: len(list_rows(app)) == 3)
        rows = list_rows(app)
        assert ["conv_alpha" in rows[0], "conv_beta" in rows[1], "conv_alpha" in rows[2]] == [True] * 3
        header = app.screen.query_one(ListHeader)
        header.toggle()
        await pilot.pause()
        assert await wait_for(
            pilot, lambda: "conv" in str(header.render()) and "file" not in str(header.render())
        )


async def test_the_conversation_filter_keeps_one_agent():
    app, source = live_app()
    async with app.run_test(size=(120, 20)) as pilot:
        source.receive(request("call_a1", "conv_alpha"), participant="agent-a")
        source.receive(request("call_b1", "conv_beta"), participant="agent-b")
        assert await wait_for(pilot, lambda: len(list_rows(app)) == 2)
        await pilot.press("slash", *"conv:conv_b", "enter")
        assert await wait_for(pilot, lambda: len(list_rows(app)) == 1)
        assert "conv_beta" in list_rows(app)[0]
