"""Alicia envelopes: every type named, requests and results in full, variants in the wild, encoding."""

from __future__ import annotations

import binascii
import json

import msgpack
import pytest

from inspector.model import (
    CallStore,
    Executor,
    FakeClock,
    Malformed,
    Message,
    Outcome,
    Request,
    Result,
    State,
)
from inspector.protocols import alicia


def packet(obj) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


def env(type_, body, stanza=-1, conv="conv_1", **extra):
    return {"stanzaId": stanza, "conversationId": conv, "type": type_, "meta": {}, "body": body, **extra}


def test_every_defined_type_number_is_named():
    documented = set(range(1, 17)) | {17, 18} | set(range(20, 28)) | {29, 30, 31}
    # longregen/alicia shared/protocol/types.go numbers these past the documents
    coded = {33, 34, 35, 40, 41, 42, 43, 50, 51, 52, 53, 54, 55, 56, 60, 70, 71, 72, 80, 90, 91, 92, 93}
    assert set(alicia.TYPE_NAMES) == documented | coded
    assert alicia.type_name(91) == "WhatsAppQR" and alicia.type_name(19) == "unknown type 19"
    assert alicia.TYPE_NAMES[6] == "ToolUseRequest" and alicia.TYPE_NAMES[7] == "ToolUseResult"


def test_request_in_full():
    body = {
        "id": "toolreq_xyz789",
        "messageId": "msg_a9X8Y",
        "toolName": "read_local_file",
        "execution": "client",
        "parameters": {"filePath": "/x"},
        "timeoutMs": 5000,
    }
    (req,) = alicia.decode_packet(packet(env(6, body)), ts=100.0, sender="agent-1", topic="t")
    assert isinstance(req, Request)
    assert (req.call_id, req.tool, req.executor, req.timeout_ms, req.deadline) == (
        "toolreq_xyz789",
        "read_local_file",
        Executor.CLIENT,
        5000,
        105.0,
    )
    assert req.group == "conv_1" and req.sender == "agent-1" and req.message_id == "msg_a9X8Y"
    assert req.params == {"filePath": "/x"} and req.violation is None
    assert req.extra["topic"] == "t" and req.extra["stanzaId"] == -1


def test_timeout_defaults_to_30s():
    (req,) = alicia.decode_packet(packet(env(6, {"id": "a", "toolName": "t", "execution": "server"})), ts=0.0)
    assert req.timeout_ms == 30000


@pytest.mark.parametrize("execution", [None, "somebody", 3])
def test_missing_or_unknown_execution_is_a_violation_not_a_guess(execution):
    body = {"id": "a", "toolName": "t", "parameters": {}}
    if execution is not None:
        body["execution"] = execution
    (req,) = alicia.decode_packet(packet(env(6, body)))
    assert req.executor is None
    assert "REQUIRED" in req.violation and "MUST reject" in req.violation


def test_result_variants_in_the_wild():
    (a,) = alicia.decode_packet(
        packet(
            env(
                7,
                {
                    "requestId": "r1",
                    "success": False,
                    "error": {"code": "invalid_parameters", "message": "bad"},
                },
            )
        )
    )
    assert (a.call_id, a.outcome, a.error_code, a.error_message) == (
        "r1",
        Outcome.ERROR,
        "invalid_parameters",
        "bad",
    )
    (b,) = alicia.decode_packet(packet(env(7, {"id": "r2", "success": True, "data": {"x": 1}})))
    assert b.outcome is Outcome.SUCCESS and b.data == {"x": 1}
    (c,) = alicia.decode_packet(
        packet(
            env(
                7,
                {
                    "id": "r3",
                    "success": False,
                    "errorCode": "timeout",
                    "errorMessage": "Tool execution exceeded timeout of 5000ms",
                },
            )
        )
    )
    assert c.outcome is Outcome.TIMEOUT
    (d,) = alicia.decode_packet(packet(env(7, {"id": "r4", "success": False, "errorCode": "my_custom"})))
    assert d.outcome is Outcome.ERROR and d.error_code == "my_custom"
    (e,) = alicia.decode_packet(
        packet(env(6, {"id": "q", "toolName": "t", "execution": "either", "arguments": {"k": 1}}))
    )
    assert e.params == {"k": 1}


def test_array_of_envelopes_and_flat_message():
    events = alicia.decode_packet(
        packet([env(2, {"content": "hi"}), env(3, {"content": "yo"})]), where="packet 1"
    )
    assert [e.kind for e in events] == ["UserMessage", "AssistantMessage"]
    assert events[1].raw.where == "packet 1"
    (flat,) = alicia.decode_packet(packet({"type": 9, "text": "What's", "isFinal": False}))
    assert isinstance(flat, Message) and flat.kind == "Transcription" and flat.text == "What's"


def test_unknown_type_is_kept_as_a_conversation_event():
    (m,) = alicia.decode_packet(packet(env(99, {"x": 1})))
    assert isinstance(m, Message) and m.kind == "unknown type 99"


@pytest.mark.parametrize(
    "data,reason",
    [
        (b"\xc1\xc1", "not MessagePack"),
        (packet("hello"), "not an Alicia envelope"),
        (packet({"stanzaId": 1, "body": {}}), "no integer 'type'"),
        (packet(env(6, {"toolName": "x", "execution": "client"})), "without a text 'id'"),
        (packet(env(7, "nope")), "body is not a map"),
        (packet(env(6, {"id": "x"}))[:-3], "MessagePack"),
    ],
)
def test_bad_packets_become_malformed_with_a_reason(data, reason):
    events = alicia.decode_packet(data, where="packet 7")
    assert len(events) == 1 and isinstance(events[0], Malformed)
    assert reason in events[0].reason and events[0].where == "packet 7"


def test_encode_tool_result_round_trip_exactly_as_the_spec_says():
    data = alicia.encode_tool_result(
        conversation_id="conv_1",
        stanza_id=3,
        call_id="toolreq_xyz789",
        success=False,
        error_code="unknown_tool",
        error_message=alicia.error_message_for("unknown_tool", "read_local_file"),
    )
    decoded = msgpack.unpackb(data, raw=False)
    assert decoded == {
        "stanzaId": 3,
        "conversationId": "conv_1",
        "type": 7,
        "meta": {},
        "body": {
            "id": "toolreq_xyz789",
            "requestId": "toolreq_xyz789",
            "conversationId": "conv_1",
            "success": False,
            "errorCode": "unknown_tool",
            "errorMessage": "Tool 'read_local_file' is not supported by this client",
            "error": "Tool 'read_local_file' is not supported by this client",
        },
    }
    (result,) = alicia.decode_packet(data)
    assert (
        isinstance(result, Result) and result.call_id == "toolreq_xyz789" and result.outcome is Outcome.ERROR
    )
    ok = msgpack.unpackb(
        alicia.encode_tool_result(
            conversation_id="c", stanza_id=1, call_id="a", success=True, result={"answer": 42.5}
        ),
        raw=False,
    )
    assert ok["body"] == {
        "id": "a",
        "requestId": "a",
        "conversationId": "c",
        "success": True,
        "result": {"answer": 42.5},
    }
    assert alicia.error_message_for("timeout", "x", 5000) == "Tool execution exceeded timeout of 5000ms"


def test_spec_corpus_threads_into_calls(corpus):
    for name in ("derived_spec_examples.envelopes.jsonl", "derived_spec_examples.msgpack.hex"):
        path = corpus / "alicia" / name
        assert alicia.sniff(str(path), path.read_bytes()[:4096]) > 0
        store = CallStore(clock=FakeClock())
        store.ingest_many(alicia.read(str(path)))
        assert not store.malformed and not store.orphans
        states = {c.call_id: c.state() for c in store.all_calls()}
        assert states == {
            "toolreq_abc123": State.SUCCEEDED,
            "toolreq_xyz789": State.FAILED,
            "toolreq_def456": State.TIMED_OUT,
        }
        kinds = [m.kind for m in store.items if isinstance(m, Message)]
        assert "ErrorMessage" in kinds and "Transcription" in kinds


def test_edge_cases_corpus(corpus):
    path = corpus / "alicia" / "derived_spec_edgecases.msgpack.hex"
    events = list(alicia.read(str(path)))
    assert [type(e).__name__ for e in events] == ["Message", "Message", "Message"]
    assert events[2].extra["flat"] is True


def test_json_lines_and_hex_agree(corpus):
    lines = (corpus / "alicia" / "derived_spec_examples.envelopes.jsonl").read_text().splitlines()
    hexes = (corpus / "alicia" / "derived_spec_examples.msgpack.hex").read_text().split()
    packed = [h for h in hexes if all(ch in "0123456789abcdef" for ch in h.lower())]
    assert [json.loads(line) for line in lines] == [
        msgpack.unpackb(binascii.unhexlify(h), raw=False) for h in packed
    ]


def test_binary_stream_file(tmp_path):
    path = tmp_path / "s.msgpack"
    path.write_bytes(
        packet(env(6, {"id": "a", "toolName": "t", "execution": "client"}))
        + packet(env(7, {"id": "a", "success": True, "result": {}}))
        + b"\x92\x01"
    )
    assert alicia.sniff(str(path), path.read_bytes()) > 0
    events = list(alicia.read(str(path)))
    assert [type(e).__name__ for e in events] == ["Request", "Result", "Malformed"]
    assert "truncated" in events[2].reason
    again = alicia.redecode(events[1].raw)
    assert isinstance(again[0], Result) and again[0].call_id == "a"


def test_hub_housekeeping_frames_say_what_they_hold_instead_of_an_empty_row():
    import inspector.protocols.alicia.hub as hub

    frames = {
        "SubscribeAck": hub.subscribe_ack(True, agent_mode=True),
        "AssistantToolsRegister": hub.tools_register(
            [{"name": "get_battery", "description": "x"}, {"name": "get_clipboard", "description": "y"}]
        ),
        "AssistantToolsAck": hub.tools_ack(True, 2),
        "Subscribe": hub.subscribe("assistant"),
    }
    texts = {}
    for name, data in frames.items():
        (message,) = alicia.decode_packet(data)
        assert message.kind == name
        texts[name] = message.text
    assert texts == {
        "SubscribeAck": "ok, agentMode=true",
        "AssistantToolsRegister": "2 tools: get_battery, get_clipboard",
        "AssistantToolsAck": "ok, toolCount=2",
        "Subscribe": "assistantMode=true",
    }
    (refused,) = alicia.decode_packet(hub.subscribe_ack(False, error="no such conversation"))
    assert refused.text == "no such conversation"  # a text field, when there is one, is the text


def test_another_apps_text_in_the_room_is_one_message_not_a_flood_of_malformed_integers():
    """LiveKit's chat (JSON on lk.chat) or a status line shares the data channel: read as MessagePack each
    ASCII byte was an integer, and one chat line became 20 malformed records and a count of the rest."""
    from inspector.model import Malformed, Message
    from inspector.protocols.alicia import decode_packet

    chat = b'{"id": "x", "message": "hello", "timestamp": 1}'
    [event] = decode_packet(chat, where="packet 1", topic="lk.chat", sender="user-app")
    assert isinstance(event, Message) and event.kind == "not Alicia" and event.sender == "user-app"
    assert (
        event.text == f"{len(chat)} bytes of JSON on topic lk.chat, not an Alicia envelope: {chat.decode()}"
    )
    assert event.extra["foreign"] == "JSON" and event.raw is not None and event.raw.data == chat
    for text, what in (
        ("plain status line", "text"),
        ("\ufeff{}", "text"),
        ("héllo wörld", "text"),
        ("[1, 2]", "JSON"),
    ):
        [event] = decode_packet(text.encode(), where="p")
        assert isinstance(event, Message) and event.extra["foreign"] == what, text
        assert event.text.startswith(f"{len(text.encode())} bytes of {what}, not an Alicia envelope: ")
    # an envelope, a batch, MessagePack garbage and text with control characters are not that
    envelope = alicia.encode_envelope(
        type_=2, body={"id": "u", "content": "hi"}, conversation_id="c", stanza_id=1
    )
    assert [type(e).__name__ for e in decode_packet(envelope)] == ["Message"]
    assert decode_packet(envelope)[0].kind == "UserMessage"
    for data in (b"\xc1 definitely not msgpack", b"text with \x1b[31m escape", b"\x92\x01\x02", b"\x00\x01"):
        events = decode_packet(data, where="p")
        assert all(isinstance(e, Malformed) for e in events) and events, data
