"""Packets that come before the room names their sender (a real server announces new participants to a
subscriber in 3 s batches; the SDK hands their data over with no participant): held, then named when
exactly one announced participant can have sent them, shown after that participant's join, and never
answered to the whole room. The SDK's callbacks are driven directly (no network)."""

from __future__ import annotations

import asyncio
import time

import pytest

from inspector.answer import compose
from inspector.model import CallStore, Message
from inspector.protocols import alicia
from inspector.sources.base import AnswerRefused, SourceStatus
from inspector.sources.livekit_room import LiveKitSource
from inspector.sources.unnamed import Held, SenderWait

T = 0.0  # the arrival times: a few seconds before each test runs (set by _arrival_base)


@pytest.fixture(autouse=True)
def _arrival_base() -> None:
    """A few seconds ago, taken when the test runs, so a 30 s request is not late: taken at import, a
    test run minutes after collection (a busy machine, pytest-xdist) found its request overdue."""
    global T
    T = time.time() - 5


@pytest.fixture(autouse=True)
def _recent():
    """T is a few seconds before each test (set at import, it aged with a long run and made requests late)."""
    global T
    T = time.time() - 5


def request(call_id: str) -> bytes:
    body = {"id": call_id, "toolName": "read_local_file", "execution": "client", "timeoutMs": 30000}
    return alicia.encode_envelope(type_=6, body=body, conversation_id="conv_1", stanza_id=-1)


class Published:
    def __init__(self) -> None:
        self.to: list[list[str]] = []

    async def publish_data(self, data, *, reliable, topic, destination_identities):
        self.to.append(list(destination_identities))


class FakeSdk:
    async def _run(self, coro):
        return await coro

    def run(self, coro):
        return self._run(coro)


def joined_source(loop, hold_s=4.0, settle_s=0.05) -> tuple[LiveKitSource, Published]:
    """A source in the state start() leaves it in, with the SDK's room replaced by a recorder."""
    source = LiveKitSource(
        "ws://127.0.0.1:9", "token", CallStore(), room="r", identity="inspector-1", answering=True
    )
    source._waiting = SenderWait(loop, source._released, hold_s=hold_s, settle_s=settle_s)
    published = Published()
    source._room = type("Room", (), {"local_participant": published})()
    source._sdk = FakeSdk()
    source._set_state(status=SourceStatus.CONNECTED)
    return source, published


def lines(source: LiveKitSource) -> list[str]:
    out = []
    for item in source.store.items:
        if isinstance(item, Message):
            out.append(item.text)
        else:
            out.append(f"call {getattr(item, 'call_id', '?')}")
    return out


async def until(predicate, timeout=5.0):
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        assert loop.time() < end, "condition not met"
        await asyncio.sleep(0.01)


async def test_a_packet_before_its_senders_join_is_shown_after_the_join_and_answered_to_it_alone():
    t = time.time() - 5  # now, not at import: the answer must not be late
    source, published = joined_source(asyncio.get_running_loop())
    source._on_joined("bystander", t - 900)  # in the room long before
    source._on_data(request("q1"), "", "alicia", True, t + 0.5)  # the SDK does not know the sender yet
    assert source.store.find("conv_1", "q1") is None  # held, not shown without a sender
    source._on_joined("agent", t + 0.2)  # the server's next batch names it
    await until(lambda: source.store.find("conv_1", "q1") is not None)
    assert lines(source) == ["bystander joined", "agent joined", "call q1"]
    call = source.store.find("conv_1", "q1")
    assert call.request.extra["participant"] == "agent" and call.request.ts == t + 0.5
    await source.send_answer(call, compose.success({"ok": True}))
    assert published.to == [["agent"]]  # to the requester, not to the room


async def test_two_joiners_of_one_batch_leave_the_sender_unknown_and_the_request_unanswerable():
    source, published = joined_source(asyncio.get_running_loop())
    source._on_data(request("q2"), "", None, True, T + 0.5)
    source._on_joined("agent-a", T + 0)
    source._on_joined("agent-b", T + 0.1)  # the same batch: either may have sent it
    await until(lambda: source.store.find("conv_1", "q2") is not None)
    said = lines(source)
    assert said[:2] == ["agent-a joined", "agent-b joined"]
    assert "agent-a or agent-b joined meanwhile" in said[2] and said[3] == "call q2"
    call = source.store.find("conv_1", "q2")
    assert [i.kind for i in source.review_answer(call, compose.success({})).refusals] == ["no_sender"]
    with pytest.raises(AnswerRefused, match="no participant"):
        await source.send_answer(call, compose.success({}))
    assert published.to == []  # nothing to anyone, and never to everyone


async def test_a_participant_that_joined_after_the_packet_did_not_send_it():
    source, _ = joined_source(asyncio.get_running_loop())
    source._on_data(request("q3"), "", None, True, T + 0)
    source._on_joined("late-comer", T + 10)  # joined 10 s after the packet came
    await until(lambda: source.store.find("conv_1", "q3") is not None)
    assert source.store.find("conv_1", "q3").request.extra.get("participant") in ("", None)


async def test_data_never_named_is_shown_when_the_hold_runs_out_or_the_room_is_left():
    source, _ = joined_source(asyncio.get_running_loop(), hold_s=0.05)
    source._on_data(request("q4"), "", None, True, T + 0)  # the server's own data: never announced
    await until(lambda: source.store.find("conv_1", "q4") is not None)
    source._on_data(request("q5"), "", None, True, T + 1)
    source._close_inbox()  # leaving the room shows what still waited
    assert source.store.find("conv_1", "q5") is not None


async def test_a_named_senders_data_comes_after_its_join_line_even_if_the_sdk_announces_it_later():
    source, _ = joined_source(asyncio.get_running_loop())
    source._on_data(request("q6"), "agent", None, True, T + 0)  # named, but not yet announced
    source._on_joined("agent", T - 1)
    assert lines(source) == ["agent joined", "call q6"]  # one join line, before its data


def test_the_wait_weighs_one_batch_together():
    loop = asyncio.new_event_loop()
    try:
        out: list = []
        wait = SenderWait(loop, lambda packets, names: out.append((packets, names)), settle_s=0.01)
        wait.hold(Held(10.0, b"x", None, True))
        wait.announced("a", 9.0)
        wait.announced("b", 11.5)  # joined 1.5 s after the packet: within the server clock's skew
        loop.run_until_complete(asyncio.sleep(0.05))
        [(packets, names)] = out
        assert names == ("a", "b") and packets[0][1] == ""
    finally:
        loop.close()
