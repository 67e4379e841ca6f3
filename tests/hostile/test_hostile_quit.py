"""Quitting during a flood writes everything received before it (issue 25 §3): the LiveKit SDK keeps
handing over packets while the room is being left; every packet it handed over is recorded, none is
dropped by an inbox closed before the SDK stopped (the order stop() keeps; test_hostile_flood_quit counts
what still comes after). The SDK's thread is real; the room is a stand-in."""

from __future__ import annotations

import asyncio
import json
import time

import msgpack

from inspector.model import CallStore
from inspector.protocols.recording import RecordingWriter
from inspector.sources.livekit_room import LiveKitSource


class FloodRoom:
    """Left at once (as the SDK's disconnect returns), while its loop still dispatches queued packets."""

    async def disconnect(self) -> None:
        await asyncio.sleep(0)


def packet(n: int) -> bytes:
    body = {"id": f"t{n}", "toolName": "get_weather", "parameters": {}, "execution": "server"}
    return msgpack.packb({"stanzaId": n + 1, "conversationId": "c", "type": 6, "meta": {}, "body": body})


async def test_every_packet_the_sdk_handed_over_before_quit_is_recorded(tmp_path):
    path = tmp_path / "rec.jsonl"
    writer = RecordingWriter(str(path), {"room": "r"})
    source = LiveKitSource("ws://127.0.0.1:9", "token", CallStore(), writer, room="r", identity="inspector-1")
    handed = {"count": 0}

    async def flooding_join(options, inbox):
        source._room = FloodRoom()

        async def flood() -> None:  # the SDK dispatching what its native core queued, on its own loop
            n = 0
            while True:
                inbox.put(source._on_data, packet(n), "agent", None, True, time.time())
                handed["count"] += 1
                n += 1
                await asyncio.sleep(0)

        asyncio.ensure_future(flood())
        return "r", "inspector-1", ("agent",)

    source._join = flooding_join  # type: ignore[method-assign]
    await source.start()
    while handed["count"] < 2_000:
        await asyncio.sleep(0.01)
    await asyncio.wait_for(source.stop(), 30)  # a flush racing the flood never ended
    writer.close()
    lines = path.read_text().splitlines()[1:]  # after the header
    recorded = [record for record in map(json.loads, lines) if "raw" in record]  # packets, not events
    assert len(recorded) == handed["count"]  # handed over before the SDK stopped: every one written


def test_a_flush_ends_while_calls_keep_coming():
    """A flush makes the calls waiting when it starts: one that hands over another each time it runs (a
    flood put from the SDK's thread as fast as it is taken) used to keep ``flush`` going forever."""
    from inspector.sources.sdk_thread import Inbox

    loop = asyncio.new_event_loop()
    try:
        inbox = Inbox(loop)
        made = []

        def again(n: int) -> None:
            made.append(n)
            inbox.put(again, n + 1)

        inbox.put(again, 0)
        inbox.put(again, 100)
        inbox.flush()
        assert made == [0, 100] and len(inbox) == 2  # the two it handed over wait for the next drain
    finally:
        inbox.close()
        loop.close()
