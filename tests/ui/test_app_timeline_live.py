"""The timeline of a live Alicia room (packets through a real PacketSource): countdowns, overdue, late, follow."""

from __future__ import annotations

import time

import pytest
from screen_text import screen_text, settle, wait_for
from ui_factories import T0, make_app

from inspector.model import CallStore, FakeClock
from inspector.protocols import alicia
from inspector.sources.memory import MemorySource
from inspector.ui.options import UiOptions
from inspector.ui.widgets.call_list import CallList
from inspector.ui.widgets.timeline import Timeline

SNAP_SIZE = (110, 24)


@pytest.fixture(autouse=True)
def utc(monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def request(call_id: str, tool: str, timeout_ms: int | None, execution: str = "client") -> bytes:
    body = {
        "id": call_id,
        "messageId": "m1",
        "toolName": tool,
        "execution": execution,
        "parameters": {"q": call_id},
    }
    if timeout_ms is not None:
        body["timeoutMs"] = timeout_ms
    return alicia.encode_envelope(type_=6, body=body, conversation_id="conv_1", stanza_id=-1)


def result(call_id: str, success: bool = True) -> bytes:
    return alicia.encode_tool_result(
        conversation_id="conv_1",
        stanza_id=-1,
        call_id=call_id,
        success=success,
        result={"ok": True} if success else None,
        error_code=None if success else "boom",
        error_message=None if success else "it broke",
    )


SCRIPT: tuple[tuple[float, bytes], ...] = (
    (0.0, request("r1", "read_local_file", 30_000)),
    (0.5, request("r2", "search_web", 10_000, "server")),
    (1.2, result("r1")),
    (2.0, request("r3", "take_photo", 5_000)),
    (3.0, request("r4", "get_location", 60_000)),
    (3.4, request("r5", "book_table", 2_000, "server")),
    (4.0, result("r2", success=False)),
    (5.0, request("r2b", "search_web", 20_000, "server")),
    (6.5, result("r5")),  # 1.1 s past its deadline: late
    (7.5, result("r1")),  # a second result for r1: a duplicate
)
"""(seconds after T0, packet): an agent's calls as they reach the room; the clock stops at T0 + 9."""


def live_room(*, theme: str = "dark"):
    clock = FakeClock(T0)
    store = CallStore(clock=clock)
    source = MemorySource(store, identity="inspector-test", room="demo")
    options = UiOptions(theme_dirs=[], theme=theme)
    return make_app(store, clock=clock, source=source, label="room demo", options=options), source, clock


def play(source: MemorySource, clock: FakeClock, until: float = 9.0) -> None:
    for at, packet in SCRIPT:
        clock.set(T0 + at)
        source.receive(packet, participant="agent", topic="alicia")
    clock.set(T0 + until)


def timeline(app) -> Timeline:
    return app.screen.query_one(Timeline)


async def test_live_bars_count_down_turn_overdue_and_mark_late_and_duplicate_results():
    app, source, clock = live_room()
    async with app.run_test(size=SNAP_SIZE) as pilot:
        play(source, clock)
        app.tick()
        await settle(pilot)
        await pilot.press("w")
        await pilot.pause()
        lines = {
            line.split("│")[0].strip().split()[0]: line
            for line in screen_text(app).splitlines()
            if "│" in line
        }
        assert "+2.0s" in lines["take_photo"]  # 5 s timeout at +2 s, now +9 s: two seconds overdue
        assert "54s" in lines["get_location"]  # sixty seconds from +3 s
        assert "!" in lines["book_table"]  # the result came after the deadline
        assert "+1" in lines["read_local_file"]  # one result more than asked for
        overdue = timeline(app).row_styles["tl-overdue"]
        index = next(
            i for i, item in enumerate(timeline(app).view.items) if getattr(item, "call_id", "") == "r3"
        )
        strip = timeline(app)._bar_strip(index, SNAP_SIZE[0], timeline(app).scale, timeline(app).row_styles)
        assert any(seg.style == overdue for seg in strip if "█" in seg.text)
        before = lines["get_location"]
        clock.advance(1)
        app.tick()
        await pilot.pause()
        after = next(line for line in screen_text(app).splitlines() if line.startswith("get_location"))
        assert "53s" in after and after != before  # the bar grew and the countdown moved


async def test_a_following_live_list_keeps_following_with_the_timeline_beside_it():
    """New rows move the followed list's cursor; the timeline takes the same call without a message back."""
    app, source, clock = live_room()
    async with app.run_test(size=SNAP_SIZE) as pilot:
        await pilot.pause()
        call_list = app.screen.query_one(CallList)
        for index in range(30):
            clock.advance(0.2)
            source.receive(request(f"f{index}", "read_local_file", 30_000), participant="agent")
            await pilot.pause()
        assert await wait_for(pilot, lambda: call_list.item is not None and call_list.item.call_id == "f29")
        assert timeline(app).item is call_list.item
        await pilot.press("w")  # the timeline shows the same call; new calls still arrive
        source.receive(request("f30", "read_local_file", 30_000), participant="agent")
        assert await wait_for(pilot, lambda: call_list.cursor == len(call_list.view) - 1 == 30)


def live_snapshot(theme: str):
    app, source, clock = live_room(theme=theme)

    async def run_before(pilot) -> None:
        play(source, clock)
        app.tick()
        await settle(pilot)
        await pilot.press("w")
        await pilot.pause()

    return app, run_before


def test_snapshot_live_alicia_room_dark(snap_compare):
    app, run_before = live_snapshot("dark")
    assert snap_compare(app, terminal_size=SNAP_SIZE, run_before=run_before)


def test_snapshot_live_alicia_room_light(snap_compare):
    app, run_before = live_snapshot("light")
    assert snap_compare(app, terminal_size=SNAP_SIZE, run_before=run_before)
