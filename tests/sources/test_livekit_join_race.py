"""Who joins while the inspector's own join goes on: the SDK's callbacks reach the app's loop through an
inbox that drains on its own, so a participant can be announced before the join returns the list of who
was there (a list taken earlier, or later). Either way each participant is announced once: a real room
once showed "agent-u joined" twice, the second time just before that agent's first request."""

from __future__ import annotations

import asyncio

import pytest

from inspector.model import CallStore, Message
from inspector.protocols import alicia
from inspector.sources.livekit_room import LiveKitSource


def request(call_id: str) -> bytes:
    body = {"id": call_id, "toolName": "read_local_file", "execution": "server", "timeoutMs": 30000}
    return alicia.encode_envelope(type_=6, body=body, conversation_id="conv_1", stanza_id=-1)


class FakeSdk:
    def run(self, coro):
        return coro

    def close(self) -> None:
        pass


class Room:
    async def disconnect(self) -> None:
        pass


@pytest.mark.parametrize("listed", [(), ("agent-u",)], ids=["not-listed", "listed"])
async def test_a_participant_who_joins_during_the_join_is_announced_once(listed):
    source = LiveKitSource("ws://127.0.0.1:9", "token", CallStore(), room="r", identity="inspector-1")
    source._sdk = FakeSdk()  # type: ignore[assignment]

    async def join(options, inbox):
        source._room = Room()
        inbox.put(source._on_joined, "agent-u", None)  # the SDK's participant_connected, mid-join
        await asyncio.sleep(0.05)  # the inbox drains on the app's loop meanwhile
        return "r", "inspector-1", listed

    source._join = join  # type: ignore[method-assign]
    await source.start()
    source._on_data(request("u1"), "agent-u", "alicia", True)
    texts = [item.text for item in source.store.items if isinstance(item, Message)]
    about = [t for t in texts if t.startswith("agent-u")]
    assert len(about) == 1, texts
    assert source.state.participants == ("agent-u",)
    await source.stop()
