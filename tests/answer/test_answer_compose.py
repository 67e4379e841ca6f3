"""Composing answers: the exact envelope, error templates, refusals, confirmations and notes."""

from __future__ import annotations

import msgpack
from factories import make_request, make_result

from inspector.answer import compose
from inspector.model import Call, Executor
from inspector.protocols import alicia


def make_call(executor=Executor.CLIENT, *, timeout_ms=5000, ts=1000.0, tool="read_local_file", conv="conv_1"):
    request = make_request("toolreq_1", tool, group=conv, ts=ts, executor=executor, timeout_ms=timeout_ms)
    request.extra["conversationId"] = conv
    return Call(request)


def kinds(issues):
    return [issue.kind for issue in issues]


def test_success_envelope_is_exactly_the_spec_shape():
    call = make_call()
    review = compose.review(call, compose.success({"content": "hi", "size": 2}), now=1001.0, stanza_id=4)
    assert review.sendable and not review.issues
    assert msgpack.unpackb(review.data) == {
        "stanzaId": 4,
        "conversationId": "conv_1",
        "type": 7,
        "meta": {},
        "body": {
            "id": "toolreq_1",
            "requestId": "toolreq_1",
            "conversationId": "conv_1",
            "success": True,
            "result": {"content": "hi", "size": 2},
        },
    }
    # both readers find the request: the document's by id, the Go server's by requestId
    (result,) = alicia.decode_packet(review.data)
    assert result.call_id == "toolreq_1" and "resultId" not in result.extra
    assert list(review.envelope) == ["stanzaId", "conversationId", "type", "meta", "body"]
    assert '"stanzaId": 4' in review.preview_json()
    assert review.size == len(review.data)


def test_error_codes_use_the_spec_templates():
    call = make_call(timeout_ms=5000)
    unknown = compose.review(call, compose.unknown_tool(call), now=1001.0, stanza_id=1)
    body = msgpack.unpackb(unknown.data)["body"]
    assert body == {
        "id": "toolreq_1",
        "requestId": "toolreq_1",
        "conversationId": "conv_1",
        "success": False,
        "errorCode": "unknown_tool",
        "errorMessage": "Tool 'read_local_file' is not supported by this client",
        "error": "Tool 'read_local_file' is not supported by this client",
    }
    timed = msgpack.unpackb(compose.review(call, compose.timeout(call), now=1001.0, stanza_id=1).data)["body"]
    assert timed["errorCode"] == "timeout"
    assert timed["errorMessage"] == "Tool execution exceeded timeout of 5000ms"
    # a missing message takes the template; a given one may use the placeholders
    default = compose.review(call, compose.failure("invalid_parameters"), now=1001.0, stanza_id=1)
    assert "read_local_file" in msgpack.unpackb(default.data)["body"]["errorMessage"]
    custom = compose.review(
        call,
        compose.failure("execution_error", "{toolName} failed after {timeoutMs}ms"),
        now=1001.0,
        stanza_id=1,
    )
    assert msgpack.unpackb(custom.data)["body"]["errorMessage"] == "read_local_file failed after 5000ms"


def test_custom_code_is_allowed_with_a_note_and_partial_results_are_kept():
    call = make_call()
    review = compose.review(
        call, compose.failure("quota_exceeded", None, result={"used": 3}), now=1001.0, stanza_id=1
    )
    assert review.sendable
    assert kinds(review.notes) == ["no_message", "custom_code"]
    body = msgpack.unpackb(review.data)["body"]
    assert body == {
        "id": "toolreq_1",
        "requestId": "toolreq_1",
        "conversationId": "conv_1",
        "success": False,
        "result": {"used": 3},
        "errorCode": "quota_exceeded",
        "error": "quota_exceeded",  # the coded generation's string error: the code when there is no message
    }


def test_result_must_be_a_map():
    call = make_call()
    for value in ([1, 2], "text", 3, None):
        review = compose.review(call, compose.success(value), now=1001.0, stanza_id=1)
        assert not review.sendable and kinds(review.refusals) == ["not_a_map"]
    assert not compose.review(call, compose.failure("custom"), now=1001.0, stanza_id=1).sendable
    assert not compose.review(call, compose.failure(""), now=1001.0, stanza_id=1).sendable


def test_server_requests_are_refused_with_the_reason_and_either_gets_a_note():
    server = compose.review(make_call(Executor.SERVER), compose.success({}), now=1001.0, stanza_id=1)
    assert kinds(server.refusals) == ["server"]
    assert "MUST NOT" in server.refusals[0].message
    assert compose.answerable(make_call(Executor.SERVER)) is not None
    assert compose.answerable(make_call(Executor.CLIENT)) is None
    either = compose.review(make_call(Executor.EITHER), compose.success({}), now=1001.0, stanza_id=1)
    assert either.sendable and kinds(either.notes) == ["either"]


def test_over_64000_bytes_is_refused_before_sending():
    call = make_call()
    small = compose.review(call, compose.success({"content": "x" * 63_000}), now=1001.0, stanza_id=1)
    assert small.sendable
    big = compose.review(call, compose.success({"content": "x" * 64_000}), now=1001.0, stanza_id=1)
    assert kinds(big.refusals) == ["too_large"]
    assert "64,000" in big.refusals[0].message and big.size > 64_000


def test_a_duplicate_is_refused_and_late_needs_confirmation():
    call = make_call(timeout_ms=5000, ts=1000.0)
    fresh = compose.review(call, compose.success({}), now=1004.0, stanza_id=1)
    assert fresh.unconfirmed() == [] and fresh.remaining == 1.0
    late = compose.review(call, compose.success({}), now=1007.5, stanza_id=1)
    assert kinds(late.unconfirmed()) == ["late"] and late.unconfirmed(confirm_late=True) == []
    assert "2.5 s ago" in late.confirmations[0].message
    call.results.append(make_result("toolreq_1", group="conv_1"))
    again = compose.review(call, compose.success({}), now=1001.0, stanza_id=1)
    assert kinds(again.refusals) == ["duplicate"] and not again.sendable
    assert "exactly once per request" in again.refusals[0].message


def test_time_left_text_and_result_parsing():
    call = make_call(timeout_ms=5000, ts=1000.0)
    assert compose.time_left_text(call, 1000.8) == "4.2 s left"
    assert compose.time_left_text(call, 1008.1) == "overdue by 3.1 s"
    assert compose.time_left(call, 1001.0) == 4.0
    assert compose.parse_result('{"a": 1}') == ({"a": 1}, None)
    assert compose.parse_result("  ") == ({}, None)
    value, reason = compose.parse_result('{"a": \n 1,,}')
    assert value is None and "line 2" in reason
    assert "not an array" in compose.parse_result("[1]")[1]


def test_unencodable_values_are_refused_not_raised():
    review = compose.review(make_call(), compose.success({"n": 2**70}), now=1001.0, stanza_id=1)
    assert kinds(review.refusals) == ["unencodable"]
