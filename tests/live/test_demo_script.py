"""The demo agent's script with a fake transport: all three modes, an error, a timeout, replies to results."""

from __future__ import annotations

import asyncio

import msgpack

from inspector.demo.script import Conversation
from inspector.model import CallStore
from inspector.sources.memory import MemorySource


async def play(answer_tools: set[str]):
    """Play one round; a MemorySource (the inspector) sees everything and answers ``answer_tools``."""
    store = CallStore()
    inspector = MemorySource(store, identity="inspector-x")
    sent: list[tuple[dict, str]] = []
    conversation: Conversation

    async def transport(envelope: dict, role: str) -> None:
        sent.append((envelope, role))
        data = msgpack.packb(envelope)
        inspector.receive(data, participant="demo-user" if role == "user" else "demo-agent")
        if envelope["type"] == 6 and envelope["body"]["toolName"] in answer_tools:
            call = store.find(envelope["conversationId"], envelope["body"]["id"])
            from inspector.answer import compose

            await asyncio.sleep(0.01)
            await inspector.send_answer(call, compose.success({"ok": True}))
            conversation.received(inspector.sent[-1][0], "inspector-x")

    conversation = Conversation("conv_demo", transport, speed=40)
    await conversation.play_round(1)
    return store, sent


def test_one_round_covers_every_mode_and_says_what_came_back():
    store, sent = asyncio.run(play({"read_local_file"}))
    requests = {e["body"]["toolName"]: e["body"] for e, _ in sent if e["type"] == 6}
    assert {b["execution"] for b in requests.values()} == {"server", "client", "either"}
    assert len({b["timeoutMs"] for b in requests.values()}) >= 3  # different timeouts
    results = [e["body"] for e, _ in sent if e["type"] == 7]
    assert {"errorCode": "execution_error"}.items() <= next(r for r in results if not r["success"]).items()
    said = [e["body"]["content"] for e, _ in sent if e["type"] == 3]
    assert any(
        t.startswith("got your result for read_local_file") and "success, stanzaId 2" in t for t in said
    )
    assert any(t.startswith("no client ran calculator") for t in said)  # "either": the agent ran it itself
    assert any(t.startswith("no result for get_location") for t in said)  # nobody answered: timed out
    # stanzas: the agent counts down from -1, the user up from 1, the inspector's answer took the next one
    agent = [e["stanzaId"] for e, role in sent if role == "agent"]
    assert agent == list(range(-1, -len(agent) - 1, -1))
    assert [e["stanzaId"] for e, role in sent if role == "user"] == [1]
    calls = {c.tool: c for c in store.all_calls()}
    assert calls["read_local_file"].result.answered_by == "inspector"
    assert calls["calculator"].result.sender == "demo-agent"
    assert not calls["get_location"].answered
