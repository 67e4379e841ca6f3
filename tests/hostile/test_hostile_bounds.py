"""Bounds before work on what comes from outside (issue 25 §4): a hub's compressed frame is not inflated
past the message bound, and a rules template stops expanding at its bound while it expands."""

from __future__ import annotations

import asyncio

import pytest
from factories import make_request
from websockets.asyncio.server import serve

import inspector.protocols.alicia.hub as hub
from inspector.answer import rules
from inspector.answer.engine import AutoResponder, FakeScheduler
from inspector.model import Call, CallStore, Executor, FakeClock
from inspector.sources.alicia_hub import MAX_MESSAGE, HubSource
from inspector.sources.base import SourceStatus


async def until(check, timeout: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not check():
        assert loop.time() < end, "timed out waiting"
        await asyncio.sleep(0.01)


async def test_a_frame_that_inflates_past_the_bound_closes_the_connection_in_words():
    bomb = b"\x00" * (MAX_MESSAGE * 3)  # some 100 KB on the wire once deflated

    async def handler(conn):
        await conn.recv()  # the subscribe
        await conn.send(hub.subscribe_ack(True, ""))
        await conn.send(bomb)
        await asyncio.sleep(5)

    async with serve(handler, "127.0.0.1", 0, compression="deflate", max_size=None) as server:
        port = list(server.sockets)[0].getsockname()[1]
        store = CallStore()
        source = HubSource(f"ws://127.0.0.1:{port}/api/v1/ws", store)
        await source.start()
        try:
            await until(lambda: source.state.status == SourceStatus.DISCONNECTED)
            assert f"larger than {MAX_MESSAGE >> 20} MB" in source.state.detail
            assert not any(len(getattr(m, "text", "") or "") > MAX_MESSAGE for m in store.items)
        finally:
            await source.stop()


@pytest.mark.parametrize("where", ["result", "message", "many strings"])
def test_a_rules_template_that_would_expand_past_the_bound_is_skipped_unexpanded(where):
    """1 MB of ``{toolName}`` and a 70 KB tool name would be 7 GB: the rule is skipped and says why,
    before anything is expanded; the next call with a short name is answered."""
    template = "{toolName}" * 50_000
    body = {
        "result": f'result = {{ a = "{template}" }}',
        "message": f'error = "unknown_tool"\nmessage = "{template}"',
        "many strings": "result = { "
        + ", ".join(f'k{i} = "{"{toolName}" * 10}"' for i in range(2000))
        + " }",
    }[where]
    clock = FakeClock(1000.0)
    scheduler = FakeScheduler(clock)
    sent = []
    engine = AutoResponder(
        rules.parse(f'[[rule]]\ntool = "*"\n{body}\n'), scheduler, lambda c, d, r: sent.append((c.call_id, d))
    )
    engine.offer(Call(make_request("big", "t" * 70_000, executor=Executor.CLIENT)))
    scheduler.advance(0)
    assert sent == []
    skipped = [d for d in engine.decisions if d.action == "skipped"]
    assert len(skipped) == 1 and "would expand to" in skipped[0].reason
    engine.offer(Call(make_request("small", "t", executor=Executor.CLIENT)))
    scheduler.advance(0)
    assert [call_id for call_id, _ in sent] == ["small"]
