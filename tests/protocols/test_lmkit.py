"""LM-Kit: ToolCall / ToolCallResult in both key styles, every result type, containers, bad records."""

from __future__ import annotations

import json

import pytest

from inspector import protocols
from inspector.model import CallStore, Malformed, Outcome, Request, Result, State
from inspector.protocols import lmkit
from inspector.sources import files, session


def call(call_id="call_1", name="get_weather", args='{"city": "Paris"}', **extra):
    return {"Id": call_id, "Name": name, "ArgumentsJson": args, **extra}


def res(call_id="call_1", type_=0, payload='{"tempC": 18}', name="get_weather", **extra):
    return {"ToolCallId": call_id, "ToolName": name, "Type": type_, "ResultJson": payload, **extra}


def write_lines(tmp_path, records, name="tools.jsonl"):
    path = tmp_path / name
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in records) + "\n")
    return str(path)


def one(tmp_path, record):
    (event,) = lmkit.read(write_lines(tmp_path, [record]))
    return event


def test_pascal_case_pair_threads(tmp_path):
    path = write_lines(tmp_path, [call(), res()])
    store = CallStore()
    store.ingest_many(lmkit.read(path))
    (item,) = store.items
    assert (item.call_id, item.tool, item.group) == ("call_1", "get_weather", "")
    assert item.request.params == {"city": "Paris"} and item.request.summary == "city=Paris"
    assert item.request.ts is None and item.request.timeout_ms is None and item.request.executor is None
    assert item.state() is State.SUCCEEDED and item.result.data == {"tempC": 18}
    assert item.result.tool == "get_weather"


def test_camel_case_keys(tmp_path):
    path = write_lines(
        tmp_path,
        [
            {"id": "c2", "name": "search", "argumentsJson": '{"q": "x"}'},
            {"toolCallId": "c2", "toolName": "search", "type": "success", "resultJson": "[1, 2]"},
        ],
    )
    req, result = lmkit.read(path)
    assert req.params == {"q": "x"} and result.data == [1, 2] and result.outcome is Outcome.SUCCESS


@pytest.mark.parametrize(
    "type_, outcome",
    [
        (0, Outcome.SUCCESS),
        (1, Outcome.ERROR),
        (2, Outcome.CANCELED),
        (3, Outcome.TIMEOUT),
        (4, Outcome.DENIED),
        ("Success", Outcome.SUCCESS),
        ("ERROR", Outcome.ERROR),
        ("Canceled", Outcome.CANCELED),
        ("cancelled", Outcome.CANCELED),
        ("timeout", Outcome.TIMEOUT),
        ("Denied", Outcome.DENIED),
        ("3", Outcome.TIMEOUT),
    ],
)
def test_result_types_by_number_and_name(tmp_path, type_, outcome):
    event = one(tmp_path, res(type_=type_, payload="null"))
    assert event.outcome is outcome and event.error_code is None


@pytest.mark.parametrize("type_", [5, -1, "Exploded", True, None, 1.5, [0]])
def test_unknown_type_is_an_error_with_a_visible_reason(tmp_path, type_):
    event = one(tmp_path, res(type_=type_))
    assert isinstance(event, Result) and event.outcome is Outcome.ERROR
    assert event.error_code == "unknown_result_type"
    assert "unknown result Type" in event.error_message and "treated as Error" in event.error_message
    assert event.data == {"tempC": 18}


def test_missing_type_is_unknown(tmp_path):
    record = res()
    del record["Type"]
    event = one(tmp_path, record)
    assert event.error_code == "unknown_result_type" and "Type missing" in event.error_message


def test_error_payload(tmp_path):
    payload = json.dumps(
        {"error": {"message": "File not found", "code": "ENOENT", "type": "IOError", "data": {"path": "/x"}}}
    )
    event = one(tmp_path, res(type_="Error", payload=payload))
    assert (event.error_code, event.error_message) == ("ENOENT", "File not found")
    assert event.extra["error_type"] == "IOError" and event.extra["error_data"] == {"path": "/x"}


def test_unknown_type_keeps_the_payload_message(tmp_path):
    event = one(tmp_path, res(type_=9, payload='{"error": {"message": "boom", "code": "E1"}}'))
    assert event.error_message.endswith(": boom") and event.extra["payload_error_code"] == "E1"


@pytest.mark.parametrize(
    "type_, payload, message",
    [
        (2, {"canceled": {"reason": "user left", "by": "user"}}, "canceled by user: user left"),
        (2, {"canceled": {}}, "canceled"),
        (3, {"timeout": {"durationMs": 30000}}, "timed out after 30000 ms"),
        (3, {"timeout": {"durationMs": 12.5}}, "timed out after 12.5 ms"),
        (3, {}, "timed out"),
        (4, {"denied": {"tool": "rm", "reason": "policy"}}, "denied (rm): policy"),
        (1, {"error": "plain words"}, "plain words"),
        (1, {"oops": 1}, "{oops: 1}"),
    ],
)
def test_payload_messages(tmp_path, type_, payload, message):
    event = one(tmp_path, res(type_=type_, payload=json.dumps(payload)))
    assert event.error_message == message


def test_blank_json_is_normalised(tmp_path):
    req, result = lmkit.read(write_lines(tmp_path, [call(args="  "), res(payload="")]))
    assert req.params == {} and req.violation is None and result.data is None


def test_invalid_json_strings_are_kept_and_noted(tmp_path):
    req, ok, failed = lmkit.read(
        write_lines(
            tmp_path,
            [call(args="{city: Paris"), res(payload="sunny, 18C"), res(type_=1, payload="disk on fire")],
        )
    )
    assert req.params == "{city: Paris" and "ArgumentsJson is not valid JSON" in req.violation
    assert ok.outcome is Outcome.SUCCESS and ok.data == "sunny, 18C" and "not valid JSON" in ok.extra["note"]
    assert failed.error_message == "disk on fire"


def test_arguments_that_are_not_an_object_are_flagged(tmp_path):
    req = one(tmp_path, call(args="[1, 2]"))
    assert req.params == [1, 2] and "not a JSON object" in req.violation


def test_group_and_timestamp_keys(tmp_path):
    req, result = lmkit.read(
        write_lines(
            tmp_path,
            [
                call(ConversationId="conv-9", Timestamp="2026-11-01T10:00:00Z"),
                res(sessionId="conv-9", timestamp=1793527201500),
            ],
        )
    )
    assert req.group == result.group == "conv-9"
    assert req.ts == pytest.approx(1793527200.0) and result.ts == pytest.approx(1793527201.5)


def test_container_document_with_lists(tmp_path):
    doc = {
        "conversationId": "conv-1",
        "tags": ["a", "b"],
        "meta": {"model": "x"},
        "toolCalls": [call(), call("call_2", "search", "")],
        "results": [res(), res("call_2", "Timeout", '{"timeout": {"durationMs": 5}}', "search")],
    }
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(doc, indent=2))
    events = list(lmkit.read(str(path)))
    assert [type(e) for e in events] == [Request, Request, Result, Result]
    assert all(e.group == "conv-1" for e in events)
    assert [e.raw.where.split(" ", 2)[2] for e in events] == [
        "toolCalls[0]",
        "toolCalls[1]",
        "results[0]",
        "results[1]",
    ]
    assert json.loads(events[3].raw.read()) == doc["results"][1]
    assert lmkit.redecode(events[3].raw)[0].outcome is Outcome.TIMEOUT


def test_bad_item_in_a_container(tmp_path):
    events = list(lmkit.read(write_lines(tmp_path, [{"toolCalls": [call(), 7, call("call_2")]}])))
    assert [type(e) for e in events] == [Request, Malformed, Request]
    assert events[1].where == "line 1 toolCalls[1]" and "must be a JSON object" in events[1].reason


def test_plain_array_document(tmp_path):
    path = tmp_path / "arr.json"
    path.write_text(json.dumps([call(), res(type_=4, payload='{"denied": {"tool": "t", "reason": "no"}}')]))
    req, result = lmkit.read(str(path))
    assert (
        isinstance(req, Request)
        and result.outcome is Outcome.DENIED
        and result.error_message == "denied (t): no"
    )


def test_sniff_and_detect(tmp_path):
    path = write_lines(tmp_path, [call(), res()])
    assert lmkit.sniff(path, open(path, "rb").read()) == 60
    assert protocols.detect(path) is lmkit.FORMAT
    camel = write_lines(tmp_path, [{"toolCallId": "a", "type": 0, "resultJson": "1"}], "camel.jsonl")
    assert protocols.detect(camel) is lmkit.FORMAT
    assert lmkit.sniff(path, b'{"hello": "world"}\n') == 0


def test_session_hydrates_dropped_payloads(tmp_path):
    path = write_lines(tmp_path, [call(), res()])
    store = CallStore(keep_payloads=False)
    files.load([path], store)
    (item,) = store.items
    assert item.request.params is None and item.result.data is None
    request, (result,) = session.hydrate(item)
    assert request.params == {"city": "Paris"} and result.data == {"tempC": 18}


@pytest.mark.parametrize(
    "record, reason",
    [
        ("{not json", "not JSON"),
        ("42", "must be a JSON object"),
        ({"hello": "world"}, "not an LM-Kit ToolCall or ToolCallResult"),
        ({"Id": 7, "Name": "x", "ArgumentsJson": "{}"}, "ToolCall Id must be a string"),
        ({"Id": "", "Name": "x", "ArgumentsJson": "{}"}, "empty ToolCall Id"),
        ({"Id": "a", "ArgumentsJson": "{}"}, "missing ToolCall Name"),
        ({"ToolCallId": None, "Type": 0, "ResultJson": "1"}, "missing ToolCallId"),
        ({"ToolCallId": "a", "ToolName": ["x"], "Type": 0, "ResultJson": "1"}, "ToolName must be a string"),
        ({"toolCalls": [1]}, "holds no list of them"),
    ],
)
def test_bad_records_become_malformed_and_the_rest_loads(tmp_path, record, reason):
    events = list(lmkit.read(write_lines(tmp_path, [call(), record, res()])))
    assert [type(e) for e in events] == [Request, Malformed, Result]
    assert reason in events[1].reason and events[1].where.startswith("line 2")


def test_deep_nesting_in_arguments_is_a_note_not_a_crash(tmp_path):
    deep = "[" * 5000 + "]" * 5000
    req = one(tmp_path, call(args=deep))
    assert req.params == deep and "nested too deeply" in req.violation


def test_decode_line_follows_a_growing_file(tmp_path):
    from inspector.sources import tail

    lines = [
        (json.dumps(r) + "\n").encode()
        for r in (call(), {"conversationId": "c", "results": [res(), res("call_9")]}, "not json")
    ]
    path = tmp_path / "grow.jsonl"
    path.write_bytes(b"".join(lines))
    events = tail.decode_lines(lmkit.FORMAT, lines, 1, str(path), 0)
    assert [type(e) for e in events] == [Request, Result, Result, Malformed]
    assert events[2].raw.where == "line 2 results[1]" and events[2].group == "c"
    assert json.loads(events[2].raw.read()) == res("call_9")
