"""Alicia results threaded as the real peers send them: by ``requestId``, and before their request."""

from __future__ import annotations

import subprocess
import sys

import msgpack
from rich.console import Console

from inspector.model import Call, CallStore, FakeClock, Message, OrphanResult, State
from inspector.protocols import alicia
from inspector.ui.feed import StoreFeed
from inspector.ui.render.call_view import call_header
from inspector.ui.render.theme import RenderTheme
from inspector.ui.view import RowView

REQUEST = (
    '{"stanzaId":-1,"conversationId":"c1","type":6,"meta":{},"body":{"id":"req_1","toolName":"get_weather",'
    '"execution":"client","parameters":{},"timeoutMs":5000}}'
)
RESULT = (
    '{"stanzaId":1,"conversationId":"c1","type":7,"meta":{},"body":{"id":"res_1","requestId":"req_1",'
    '"success":true,"result":{}}}'
)


def load(tmp_path, *lines: str) -> CallStore:
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(lines) + "\n")
    store = CallStore()
    store.ingest_many(alicia.read(str(path)))
    return store


def test_the_issues_two_line_repro_threads_by_request_id(tmp_path):
    store = load(tmp_path, REQUEST, RESULT)
    (call,) = store.items
    assert isinstance(call, Call) and call.state(None) is State.SUCCEEDED
    assert store.orphans == []
    assert call.results[0].extra["resultId"] == "res_1"


def test_the_repro_through_inspector_dump(tmp_path):
    path = tmp_path / "repro.jsonl"
    path.write_text(REQUEST + "\n" + RESULT + "\n")
    proc = subprocess.run(
        [sys.executable, "-m", "inspector", "dump", str(path)], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert "succeeded get_weather" in proc.stdout
    assert "orphan" not in proc.stdout and "pending" not in proc.stdout


def test_a_result_before_its_request_is_joined_in_its_row(tmp_path):
    store = load(tmp_path, RESULT, REQUEST)
    assert len(store.items) == 1 and isinstance(store.items[0], Call)
    assert store.items[0].state(None) is State.SUCCEEDED
    assert store.orphans == [] and store.joined == 1


def test_two_early_results_join_one_request_and_leave_one_row(tmp_path):
    second = RESULT.replace('"res_1"', '"res_2"').replace('"stanzaId":1', '"stanzaId":2')
    store = load(tmp_path, RESULT, second, REQUEST)
    assert len(store.items) == 1 and len(store.items[0].results) == 2
    assert store.items[0].duplicates == 1


def test_a_held_result_waits_for_the_longest_timeout_then_is_an_orphan():
    clock = FakeClock(1000.0)
    store = CallStore(clock=clock)
    slow = alicia.decode_object(
        {"type": 6, "conversationId": "c", "body": {"id": "a", "toolName": "t", "timeoutMs": 90000}},
        ts=1000.0,
    )
    store.ingest_many(slow)
    (early,) = alicia.decode_object(
        {"type": 7, "body": {"id": "r", "requestId": "b", "success": True}}, ts=1001.0
    )
    held = store.ingest(early)
    assert isinstance(held, OrphanResult)
    assert held.waiting(1001.0 + 89) and not held.waiting(1001.0 + 91)
    store.end()
    assert not held.waiting(1002.0)


def test_the_ui_rows_follow_a_join():
    store = CallStore()
    pokes: list[int] = []
    feed = StoreFeed(store, lambda: pokes.append(1))
    view = RowView(store)
    result, request = (alicia.decode_object(_json(line))[0] for line in (RESULT, REQUEST))
    store.ingest(result)
    view.apply(feed.drain(), None)
    assert [type(i) for i in view.items] == [OrphanResult]
    store.ingest(request)
    view.seen = None
    changes = feed.drain()
    assert changes.nested
    view.apply(changes, None)
    assert [type(i) for i in view.items] == [Call]


def _json(line: str):
    import json

    return json.loads(line)


# -- the coded generation (longregen/alicia shared/protocol) ---------------------------------------
def coded(type_, body, **envelope):
    return msgpack.packb({"conversationId": "conv", "type": type_, "body": body, **envelope})


TRACE = {"trace_id": "4bf92f3577b34da6a3ce929d0e0e4736", "span_id": "00f067aa0ba902b7", "trace_flags": 1}


def test_a_coded_request_with_arguments_and_trace_context():
    body = {
        "id": "tu_1",
        "messageId": "m",
        "conversationId": "conv",
        "toolName": "search",
        "arguments": {"q": 1},
    }
    (request,) = alicia.decode_packet(coded(6, body, session_id="s1", user_id="u1", **TRACE))
    assert request.call_id == "tu_1" and request.params == {"q": 1}
    assert request.violation is None  # `execution,omitempty`: absent is not a fault in this generation
    assert request.extra["stanzaId"] is None and request.extra["session_id"] == "s1"
    trace = request.extra["trace"]
    assert trace["traceparent"] == "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    store = CallStore()
    store.ingest(request)
    console = Console(width=120, record=True)
    console.print(call_header(store.items[0], RenderTheme(), None))
    assert "traceparent 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" in console.export_text()


def test_a_coded_result_with_a_string_error():
    body = {"id": "x9", "requestId": "tu_1", "conversationId": "conv", "success": False, "error": "boom"}
    (result,) = alicia.decode_packet(coded(7, body, **TRACE))
    assert result.call_id == "tu_1" and result.error_message == "boom"
    assert result.error_code == "execution_error"


def test_every_coded_type_is_named_in_the_list():
    for number in (
        33,
        34,
        35,
        40,
        41,
        42,
        43,
        50,
        51,
        52,
        53,
        54,
        55,
        56,
        60,
        70,
        71,
        72,
        80,
        90,
        91,
        92,
        93,
    ):
        (message,) = alicia.decode_packet(coded(number, {"conversationId": "conv"}))
        assert isinstance(message, Message) and message.kind == alicia.TYPE_NAMES[number]
        assert not message.kind.startswith("unknown")


def test_a_json_line_file_of_the_coded_generation_is_recognised(tmp_path):
    line = '{"conversationId":"c","type":2,"body":{"id":"u","content":"hi"},"trace_id":"ab","span_id":"cd"}'
    assert alicia.sniff("x.jsonl", line.encode()) > 0


def test_trace_context_where_each_peer_puts_it():
    # the Android app copies its span into the result's body (AliciaTelemetry.injectTraceContext)
    android = {"id": "uuid-1", "requestId": "tu_1", "conversationId": "conv", "success": True, **TRACE}
    (result,) = alicia.decode_packet(coded(7, {**android, "session_id": "app-s", "user_id": "u"}))
    assert result.extra["trace"]["traceparent"] == "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    assert result.extra["session_id"] == "app-s" and result.extra["user_id"] == "u"
    # the document's OpenTelemetry fields in meta
    meta = {"messaging.trace_id": "ab" * 16, "messaging.span_id": "cd" * 8}
    (request,) = alicia.decode_object(
        {
            "stanzaId": -1,
            "conversationId": "c",
            "type": 6,
            "meta": meta,
            "body": {"id": "q", "toolName": "t", "execution": "client"},
        }
    )
    assert request.extra["trace"]["traceparent"] == f"00-{'ab' * 16}-{'cd' * 8}-00"
    # the detail shows the request's trace, and the result's when it is another one
    store = CallStore()
    store.ingest(alicia.decode_packet(coded(6, {"id": "tu_1", "toolName": "t", "arguments": {}}))[0])
    store.ingest(result)
    console = Console(width=160, record=True)
    console.print(call_header(store.items[0], RenderTheme(), None))
    assert "result trace 4bf92f3577b34da6a3ce929d0e0e4736" in console.export_text()


def test_a_timeout_written_as_a_whole_float_is_the_same_deadline():
    """A JavaScript or Python peer may encode 5000 as 5000.0 (a MessagePack float): not a violation;
    2.5 ms or a negative number still is (and the default deadline is used)."""
    whole, half, negative = (
        alicia.decode_object(
            {"type": 6, "conversationId": "c", "body": {"id": i, "toolName": "t", "timeoutMs": t}}, ts=1.0
        )[0]
        for i, t in (("a", 5000.0), ("b", 2.5), ("c", -1.0))
    )
    assert whole.timeout_ms == 5000 and "timeoutMs" not in (whole.violation or "")
    assert half.timeout_ms == 30_000 and "timeoutMs" in (half.violation or "")
    assert negative.timeout_ms == 30_000 and "timeoutMs" in (negative.violation or "")
