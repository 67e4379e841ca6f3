"""Sending through a packet source without a network: stanza ids, recording, threading, refusals."""

from __future__ import annotations

import json

import msgpack
import pytest

from inspector.answer import compose
from inspector.model import CallStore, FakeClock, State
from inspector.protocols import alicia
from inspector.protocols.recording import RecordingWriter
from inspector.sources.base import AnswerRefused, ConfirmationNeeded, SourceStatus
from inspector.sources.files import load
from inspector.sources.memory import MemorySource


def request(call_id, execution="client", stanza=-1, timeout=5000):
    return alicia.encode_envelope(
        type_=6,
        body={
            "id": call_id,
            "messageId": "m1",
            "toolName": "read_local_file",
            "execution": execution,
            "parameters": {"filePath": "/x"},
            "timeoutMs": timeout,
        },
        conversation_id="conv_1",
        stanza_id=stanza,
    )


def result(call_id, stanza):
    """A ToolUseResult another client sent (a positive stanzaId: the client side)."""
    return alicia.encode_envelope(
        type_=7,
        body={"id": call_id, "requestId": call_id, "success": True, "result": {"from": "app"}},
        conversation_id="conv_1",
        stanza_id=stanza,
    )


def user_message(stanza):
    return alicia.encode_envelope(
        type_=2, body={"id": "u", "content": "hi"}, conversation_id="conv_1", stanza_id=stanza
    )


@pytest.fixture
def source(tmp_path):
    store = CallStore(clock=FakeClock(1000.0))
    writer = RecordingWriter(str(tmp_path / "rec.jsonl"), {"room": "conv_1"})
    src = MemorySource(store, writer, identity="inspector-abc")
    yield src
    writer.close()


async def test_answer_goes_out_with_the_next_client_stanza_and_is_threaded(source, tmp_path):
    await source.start()
    assert source.state.status is SourceStatus.CONNECTED and source.can_answer
    source.receive(user_message(3), participant="user-app")
    source.receive(request("t1", stanza=-1), participant="agent", topic="alicia")
    call = source.store.find("conv_1", "t1")
    assert source.review_answer(call, compose.success({"a": 1})).stanza_id == 4
    sent = await source.send_answer(call, compose.success({"content": "hi"}))
    data, topic = source.sent[0]
    assert topic == "alicia"  # the answer goes back on the request's topic
    assert msgpack.unpackb(data) == {
        "stanzaId": 4,
        "conversationId": "conv_1",
        "type": 7,
        "meta": {},
        "body": {
            "id": "t1",
            "requestId": "t1",
            "conversationId": "conv_1",
            "messageId": "m1",
            "success": True,
            "result": {"content": "hi"},
        },
    }
    assert source.destinations == ["agent"]  # to the participant that asked, not the whole room
    assert call.state(source.store.clock.now()) is State.SUCCEEDED
    assert call.result.answered_by == "inspector" and sent.result is call.result
    assert source.next_stanza_id("conv_1") == 5

    # the recording holds both packets and replays to the same call, answered by the inspector
    lines = [json.loads(line) for line in (tmp_path / "rec.jsonl").read_text().splitlines()]
    assert [line.get("dir") for line in lines[1:]] == ["in", "in", "out"]
    assert lines[-1]["answered_by"] == "inspector" and lines[-1]["participant"] == "inspector-abc"
    replay = CallStore()
    load([str(tmp_path / "rec.jsonl")], replay)
    replayed = replay.find("conv_1", "t1")
    assert replayed.result.answered_by == "inspector" and replayed.result.outcome.value == "success"


async def test_a_second_answer_is_refused_and_a_late_answer_needs_confirmation(source):
    source.receive(request("t1"), participant="agent")
    call = source.store.find("conv_1", "t1")
    await source.send_answer(call, compose.unknown_tool(call))
    for draft in (compose.success({}), compose.unknown_tool(call)):  # whatever the second answer says
        with pytest.raises(AnswerRefused) as info:
            await source.send_answer(call, draft, confirm_late=True)
        assert [i.kind for i in info.value.issues] == ["duplicate"]
        assert str(info.value) == (
            "this request was already answered (error, by inspector): a ToolUseResult is sent exactly "
            "once per request, so a second answer is not sent"
        )
    assert len(call.results) == 1 and [msgpack.unpackb(d)["stanzaId"] for d, _ in source.sent] == [1]
    # a result another client sent first refuses the inspector's answer too, naming that client
    source.receive(request("t3", stanza=-3), participant="agent")
    source.receive(result("t3", stanza=9), participant="user-app")
    other = source.store.find("conv_1", "t3")
    with pytest.raises(AnswerRefused, match=r"already answered \(success, by user-app\)"):
        await source.send_answer(other, compose.success({}))
    assert len(source.sent) == 1

    source.receive(request("t2", stanza=-2, timeout=1000), participant="agent")
    late = source.store.find("conv_1", "t2")
    source.store.clock.advance(2.0)
    with pytest.raises(ConfirmationNeeded, match="deadline passed"):
        await source.send_answer(late, compose.timeout(late))
    await source.send_answer(late, compose.timeout(late), confirm_late=True, answered_by="auto")
    assert late.result.answered_by == "auto" and late.late


async def test_refusals_send_nothing(source):
    source.receive(request("s1", execution="server"), participant="agent")
    source.receive(request("t1", stanza=-2), participant="agent")
    with pytest.raises(AnswerRefused, match="MUST NOT"):
        await source.send_answer(source.store.find("conv_1", "s1"), compose.success({}))
    call = source.store.find("conv_1", "t1")
    with pytest.raises(AnswerRefused, match="64,000"):
        await source.send_answer(call, compose.success({"blob": "x" * 70_000}))
    source.fail_next_publish = "not connected"
    with pytest.raises(AnswerRefused, match="not connected"):
        await source.send_answer(call, compose.success({}))
    assert source.sent == [] and not call.answered
    # refusals take no stanzaId; a publish that failed used one up (it may have left): ids only rise
    assert source.next_stanza_id("conv_1") == 2


async def test_an_observer_cannot_answer(tmp_path):
    src = MemorySource(CallStore(), answering=False)
    src.receive(request("t1"), participant="agent")
    call = src.store.find("conv_1", "t1")
    assert [i.kind for i in src.review_answer(call, compose.success({})).refusals] == ["cannot_answer"]
    with pytest.raises(AnswerRefused):
        await src.send_answer(call, compose.success({}))


def test_bad_packets_become_malformed_and_the_rest_keeps_flowing(source):
    source.receive(b"\xc1 not msgpack", participant="agent")
    source.receive(msgpack.packb([1, 2]), participant="agent")
    source.receive(request("t1"), participant="agent")
    assert len(source.store.malformed) == 3  # one per array item that is not an envelope
    assert "not MessagePack" in source.store.malformed[0].reason
    assert source.store.find("conv_1", "t1") is not None


def test_room_events_are_messages_in_the_store_and_the_recording(source, tmp_path):
    source.room_event("participant", "agent joined", sender="agent", identity="agent")
    kinds = [(m.kind, m.text) for m in source.store.items]
    assert kinds == [("participant", "agent joined")]
    replay = CallStore()
    load([str(tmp_path / "rec.jsonl")], replay)
    assert [(m.kind, m.text) for m in replay.items] == [("participant", "agent joined")]


def conv_request(call_id, conv, stanza=-1):
    body = {"id": call_id, "toolName": "t", "execution": "client", "parameters": {}, "timeoutMs": 5000}
    return alicia.encode_envelope(type_=6, body=body, conversation_id=conv, stanza_id=stanza)


async def test_stanza_ids_are_per_conversation_and_survive_a_restart(tmp_path):
    def fresh():
        return MemorySource(CallStore(clock=FakeClock(1000.0)), None, identity="inspector-abc")

    first = fresh()
    await first.start()
    first.receive(user_message(7), participant="user-app")  # conv_1's client is at 7
    first.receive(request("a1"), participant="agent-1")
    first.receive(conv_request("b1", "conv_2"), participant="agent-2")
    assert (await first.send_answer(first.store.find("conv_1", "a1"), compose.success({}))).stanza_id == 8
    assert (await first.send_answer(first.store.find("conv_2", "b1"), compose.success({}))).stanza_id == 1
    assert first.destinations == ["agent-1", "agent-2"]

    # a restarted inspector (or a second one on this machine) has seen nothing, and still goes on
    second = fresh()
    await second.start()
    second.receive(request("a2"), participant="agent-1")
    call = second.store.find("conv_1", "a2")
    assert second.review_answer(call, compose.success({})).stanza_id == 9
    assert (await second.send_answer(call, compose.success({}))).stanza_id == 9
    assert second.next_stanza_id("conv_2") == 2 and second.next_stanza_id("conv_3") == 1


async def test_two_inspectors_answering_at_once_take_two_ids():
    def fresh(name):
        src = MemorySource(CallStore(clock=FakeClock(1000.0)), None, identity=name)
        src.receive(request(f"q_{name}"), participant="agent-1")
        return src, src.store.find("conv_1", f"q_{name}")

    (one, call_one), (two, call_two) = fresh("i1"), fresh("i2")
    # both previews show 1: neither has sent yet
    assert one.review_answer(call_one, compose.success({})).stanza_id == 1
    assert two.review_answer(call_two, compose.success({})).stanza_id == 1
    first = await one.send_answer(call_one, compose.success({}))
    second = await two.send_answer(call_two, compose.success({}))  # taken under the lock: the next one
    assert (first.stanza_id, second.stanza_id) == (1, 2)
    assert msgpack.unpackb(two.sent[0][0])["stanzaId"] == 2


async def test_a_packet_from_no_participant_is_never_answered_to_the_whole_room():
    src = MemorySource(CallStore(clock=FakeClock(1000.0)), None, identity="inspector-abc")
    src.receive(request("srv"), participant="")  # the server's own data: no sending participant
    call = src.store.find("conv_1", "srv")
    assert call.request.sender == "agent"  # the stanza's sign names the side, but no participant
    review = src.review_answer(call, compose.success({}))
    assert [i.kind for i in review.refusals] == ["no_sender"] and "whole room" in review.refusals[0].message
    with pytest.raises(AnswerRefused, match="came from no participant"):
        await src.send_answer(call, compose.success({}), confirm_late=True)
    assert src.sent == [] and src.destinations == []  # nothing went out, to anyone


def test_the_time_base_keeps_ids_rising_where_no_state_is_shared():
    from inspector.answer.stanzas import StanzaCounter, time_base

    now = 1_767_225_600.0  # 2026-01-01
    counter = StanzaCounter(lambda: now, persist=False)
    assert counter.peek("c") == time_base(now) > 100_000_000
    assert time_base(now + 1) == time_base(now) + 4 and time_base(now) < 2**31 - 1
    counter.commit("c", counter.peek("c"))
    assert counter.peek("c") == time_base(now) + 1  # two answers in one tick still rise


async def test_a_recording_that_cannot_be_written_stops_and_every_packet_stays_in_view(tmp_path):
    store = CallStore(clock=FakeClock(1000.0))
    writer = RecordingWriter(str(tmp_path / "rec.jsonl"), {"room": "conv_1"})
    writer._fh.close()
    writer._fh = open("/dev/full", "ab")  # the disk is full from now on: a real ENOSPC on flush
    src = MemorySource(store, writer, identity="inspector-abc")
    await src.start()
    src.receive(request("t1"), participant="agent")
    src.receive(request("t2"), participant="agent")
    assert store.find("conv_1", "t1") is not None and store.find("conv_1", "t2") is not None
    assert src.state.record_error == "No space left on device"
    assert "recording stopped: No space left on device" in src.state.label and "rec" != src.state.label
    notes = [m.text for m in store.items if getattr(m, "kind", "") == "recording"]
    assert len(notes) == 1 and "packets are still shown" in notes[0]


async def test_the_previewed_bytes_are_the_ones_sent_even_when_the_clock_has_moved():
    # a real clock's time base rises four times a second: the id must not move between preview and send
    clock = FakeClock(1_767_225_600.0)
    src = MemorySource(CallStore(clock=clock), None, identity="inspector-abc")
    await src.start()
    src.receive(request("t1"), participant="agent")
    call = src.store.find("conv_1", "t1")
    draft = compose.success({"content": "hi"})
    shown = src.review_answer(call, draft)
    clock.advance(2.0)
    assert src.review_answer(call, draft).stanza_id > shown.stanza_id  # a fresh preview would differ...
    sent = await src.send_answer(call, draft, review=shown)
    assert sent.stanza_id == shown.stanza_id and sent.data == shown.data  # ...the shown one goes out
    assert src.sent[0][0] == shown.data
    assert src.next_stanza_id("conv_1") > shown.stanza_id  # and is taken: the next answer is above it


async def test_a_preview_whose_stanza_was_used_since_is_refused_and_nothing_goes_out():
    from inspector.sources.base import PreviewOutdated

    def fresh(name):
        src = MemorySource(CallStore(clock=FakeClock(1000.0)), None, identity=name)
        src.receive(request(f"q_{name}"), participant="agent-1")
        return src, src.store.find("conv_1", f"q_{name}")

    (one, call_one), (two, call_two) = fresh("i1"), fresh("i2")
    draft = compose.success({})
    shown_one, shown_two = one.review_answer(call_one, draft), two.review_answer(call_two, draft)
    assert shown_one.stanza_id == shown_two.stanza_id == 1
    await one.send_answer(call_one, draft, review=shown_one)
    with pytest.raises(PreviewOutdated, match="stanzaId 1 was used"):
        await two.send_answer(call_two, draft, review=shown_two)  # another inspector on this machine
    assert two.sent == []
    again = two.review_answer(call_two, draft)
    assert again.stanza_id == 2 and (await two.send_answer(call_two, draft, review=again)).stanza_id == 2

    # a client stanza seen in the room since the preview outdates it too
    one.receive(request("q3"), participant="agent-1")
    call = one.store.find("conv_1", "q3")
    shown = one.review_answer(call, draft)
    one.receive(user_message(shown.stanza_id), participant="user-app")
    with pytest.raises(PreviewOutdated):
        await one.send_answer(call, draft, review=shown)
    # and a preview of another draft is not sent for this one
    with pytest.raises(PreviewOutdated, match="not of this answer"):
        await one.send_answer(call, compose.success({"other": 1}), review=one.review_answer(call, draft))
    assert len(one.sent) == 1


async def test_a_second_inspector_on_this_machine_is_refused_what_the_first_answered(tmp_path):
    """In a room, an answer goes to the requester alone: a second inspector never sees the first one's, and
    would answer the same request again; the answers sent from this machine are shared (answered.json)."""

    def joined(name, room="room-a"):
        src = MemorySource(CallStore(clock=FakeClock(1000.0)), None, identity=name, room=room)
        src.receive(request("q1"), participant="agent-1")
        return src, src.store.find("conv_1", "q1")

    (one, call_one), (two, call_two) = joined("inspector-1"), joined("inspector-2")
    await one.send_answer(call_one, compose.success({"by": 1}), answered_by="auto")
    assert two.review_answer(call_two, compose.success({})).sendable  # it cannot know before sending
    with pytest.raises(AnswerRefused) as info:
        await two.send_answer(call_two, compose.success({"by": 2}))
    assert str(info.value) == (
        "this request was already answered from this machine (by inspector-1): a ToolUseResult is sent "
        "exactly once per request, so a second answer is not sent"
    )
    assert [i.kind for i in info.value.issues] == ["duplicate"] and two.sent == [] and not call_two.answered
    # the same ids in another room, or from another requester, are other requests
    other, call_other = joined("inspector-2", room="room-b")
    await other.send_answer(call_other, compose.success({}))
    two.receive(request("q2", stanza=-2), participant="agent-2")
    await two.send_answer(two.store.find("conv_1", "q2"), compose.success({}))


async def test_an_answer_that_did_not_go_out_leaves_the_request_to_be_answered():
    src = MemorySource(CallStore(clock=FakeClock(1000.0)), None, identity="inspector-1")
    src.receive(request("q1"), participant="agent-1")
    call = src.store.find("conv_1", "q1")
    src.fail_next_publish = "the data channel closed"
    with pytest.raises(AnswerRefused, match="data channel closed"):
        await src.send_answer(call, compose.success({}))
    again = MemorySource(CallStore(clock=FakeClock(1000.0)), None, identity="inspector-2")
    again.receive(request("q1"), participant="agent-1")
    await again.send_answer(again.store.find("conv_1", "q1"), compose.success({}))
    assert len(again.sent) == 1


def test_answered_keys_expire_after_the_deadline_and_a_ledger_that_cannot_be_written_answers(tmp_path):
    from inspector.answer.answered import AFTER_DEADLINE, WITHOUT_DEADLINE, AnswerLedger, keep_until

    now = [1000.0]
    ledger = AnswerLedger(lambda: now[0], tmp_path)
    assert keep_until(1005.0, 1000.0) == 1005.0 + AFTER_DEADLINE
    assert keep_until(None, 1000.0) == 1000.0 + WITHOUT_DEADLINE
    assert keep_until(900.0, 1000.0) == 1000.0 + AFTER_DEADLINE  # taken after the deadline: from now
    assert ledger.take("k", who="i1", until=1010.0) is None
    assert ledger.take("k", who="i2", until=1010.0) == "i1"
    now[0] = 1010.5
    assert ledger.take("k", who="i2", until=2000.0) is None  # expired: a new request with the same key
    ledger.give_back("k")
    assert ledger.take("k", who="i3", until=2000.0) is None
    (tmp_path / "answered.json").write_text('{"k": "junk", "j": [1e12, 5], "m": [1e12, "i9"]}')
    assert ledger.take("k", who="i4", until=2000.0) is None and ledger.take("m", who="i4", until=1) == "i9"
    blocked = tmp_path / "file"
    blocked.write_text("")
    assert AnswerLedger(lambda: 0.0, blocked / "sub").take("k", who="i1", until=1.0) is None
