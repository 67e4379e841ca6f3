"""Leaving a LiveKit room while the join is still under way: the SDK ignores a disconnect before it is
connected, and a real server then keeps the participant the join made for ~20 s after the process ends
(seen as a `kill -9` of `inspector live` with its UI leaving a participant behind one time in three).
stop() lets the join finish, then leaves. The SDK's room is a stand-in that behaves that way."""

from __future__ import annotations

import asyncio

from inspector.model import CallStore
from inspector.sources.livekit_room import LiveKitSource


class SlowRoom:
    """Connects after a while; a disconnect counts only once connected (as livekit.rtc.Room's)."""

    def __init__(self) -> None:
        self.connected = False
        self.left: list[bool] = []

    async def disconnect(self) -> None:
        self.left.append(self.connected)


async def test_stop_during_a_join_lets_the_join_finish_and_then_leaves():
    source = LiveKitSource("ws://127.0.0.1:9", "token", CallStore(), room="r", identity="inspector-1")
    room = SlowRoom()

    async def slow_join(options, inbox):
        source._room = room  # set first, as the real _join does
        await asyncio.sleep(0.3)
        room.connected = True
        return "r", "inspector-1", ()

    source._join = slow_join  # type: ignore[method-assign]
    starting = asyncio.ensure_future(source.start())
    await asyncio.sleep(0.1)  # the join is under way
    await source.stop()
    await asyncio.wait_for(starting, 5)
    assert room.left == [True]  # left once connected: never a disconnect the SDK would ignore
    assert source.state.status.value == "disconnected"
