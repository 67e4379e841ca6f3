"""RAP: the spec's examples, routing by group and id, display segments, errors, and bad records."""

from __future__ import annotations

import json

import pytest

from inspector import protocols
from inspector.model import CallStore, Malformed, Message, Outcome, Request, Result, Skipped, State
from inspector.model.details import DisplayDetail, TextDetail
from inspector.protocols import rap
from inspector.sources import files, session

INVOKE = {
    "operation": "subscribe_github_events",
    "arguments": {"owner": "acme", "repo": "api", "event_type": "pull_request"},
    "id": "call_abc123",
    "call_id": None,
    "callback_url": "https://agent.example.com/callback",
    "group_id": "thread_xyz",
    "thread_ancestors": ["thread_root", "thread_parent"],
    "user_id": "user_42",
}
PATCH = '--- src/main.rs\n+++ src/main.rs\n@@ -1,3 +1,4 @@\n fn main() {\n+    println!("hello");\n }'


def result(text="done", call_id="call_abc123", group="thread_xyz", **extra):
    return {"type": "tool_result", "group_id": group, "id": call_id, "text": text, **extra}


def write_lines(tmp_path, records, name="log.jsonl"):
    path = tmp_path / name
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in records) + "\n")
    return str(path)


def load(path):
    store = CallStore()
    store.ingest_many(rap.read(path))
    return store


@pytest.fixture
def examples(corpus):
    return str(corpus / "rap" / "rap_spec_examples.jsonl")


# -- the spec's own examples ---------------------------------------------------------------------


def test_every_spec_example_line_loads(examples):
    lines = [line for line in open(examples, encoding="utf-8") if line.strip()]
    events = list(rap.read(examples))
    assert len(events) == len(lines)
    assert not [e for e in events if isinstance(e, Malformed)]
    wheres = [e.where if isinstance(e, Skipped) else e.raw.where for e in events]
    assert wheres == [f"line {n}" for n in range(1, len(lines) + 1)]
    kinds = {type(e).__name__ if not isinstance(e, Message) else e.kind for e in events}
    assert kinds >= {
        "Request",
        "Result",
        "subscription_event",
        "oauth",
        "user_choice",
        "view_update",
        "cancel_tool_call",
        "close_thread",
        "migrate",
        "user_choice_response",
        "Skipped",
    }


def test_spec_invocation_becomes_a_request(examples):
    request = next(e for e in rap.read(examples) if isinstance(e, Request) and "thread_ancestors" in e.extra)
    assert (request.call_id, request.tool, request.group) == (
        "call_abc123",
        "subscribe_github_events",
        "thread_xyz",
    )
    assert request.params == {"owner": "acme", "repo": "api", "event_type": "pull_request"}
    assert request.executor is None and request.timeout_ms is None and request.deadline is None
    assert request.summary == "owner=acme repo=api event_type=pull_request"
    assert request.extra == {
        "callback_url": "https://agent.example.com/callback",
        "user_id": "user_42",
        "thread_ancestors": ["thread_root", "thread_parent"],
        "http": "POST https://tool.example.com/invoke",
    }
    assert request.violation is None


def test_spec_diff_example_renders_hunks_with_line_numbers(examples):
    diff_result = next(e for e in rap.read(examples) if isinstance(e, Result) and e.has_diff)
    detail = diff_result.details
    assert isinstance(detail, DisplayDetail) and detail.text == "Replaced text in src/main.rs"
    assert [s.type for s in detail.segments] == ["diff", "text"]
    assert detail.preferred() is detail.segments[0]
    (file_diff,) = detail.segments[0].diffs
    assert file_diff.path == "src/main.rs" and (file_diff.added, file_diff.removed) == (1, 0)
    (hunk,) = file_diff.hunks
    assert (hunk.old_start, hunk.old_lines, hunk.new_start, hunk.new_lines) == (1, 3, 1, 4)
    assert [(line.kind, line.text, line.old_no, line.new_no) for line in hunk.lines] == [
        (" ", "fn main() {", 1, 1),
        ("+", '    println!("hello");', None, 2),
        (" ", "}", 2, 3),
    ]


def test_spec_error_examples_are_failures(examples):
    results = [e for e in rap.read(examples) if isinstance(e, Result)]
    failed = [r for r in results if r.outcome is Outcome.ERROR]
    assert [r.error_message for r in failed] == [
        "Error: API rate limit exceeded. Retry after 60 seconds.",
        "Error: GitHub authorization was denied by the user. Please try again and grant the requested permissions.",
        "Error: User choice flow failed. Please try again.",
    ]
    assert all(r.outcome is Outcome.SUCCESS and r.error_message is None for r in results if r not in failed)


def test_spec_image_content_result(examples):
    image = next(e for e in rap.read(examples) if isinstance(e, Result) and "content" in e.extra)
    assert image.data == image.extra["content"] and image.outcome is Outcome.SUCCESS
    assert isinstance(image.details, TextDetail)
    assert image.details.text.startswith('Read image file "logo.png"')
    assert "[image image/png" in image.details.text


def test_spec_file_threads_notifications_under_the_call(examples):
    store = load(examples)
    first = store.find("thread_xyz", "call_abc123")
    kinds = [child.kind for child in first.children]
    assert kinds.count("subscription_event") == 3 and "oauth" in kinds and "cancel_tool_call" in kinds
    assert "user_choice" in kinds and "user_choice_response" in kinds
    assert first.state() is State.SUCCEEDED and first.duplicates == len(first.results) - 1 >= 1
    assert store.skipped == {"display_segment": 3, "toolset_definition": 3}
    assert not store.orphans and not store.malformed


def test_sniff_and_detect(examples, tmp_path):
    assert rap.sniff(examples, open(examples, "rb").read()) == 60
    assert protocols.detect(examples) is rap.FORMAT
    other = write_lines(tmp_path, [{"hello": "world"}])
    assert rap.sniff(other, open(other, "rb").read()) == 0


# -- routing ------------------------------------------------------------------------------------


def test_unknown_id_is_an_orphan(tmp_path):
    store = load(write_lines(tmp_path, [INVOKE, result(call_id="call_nobody")]))
    assert [o.call_id for o in store.orphans] == ["call_nobody"]
    assert store.find("thread_xyz", "call_abc123").state() is State.PENDING


def test_same_id_in_another_group_is_an_orphan(tmp_path):
    store = load(write_lines(tmp_path, [INVOKE, result(group="thread_other")]))
    assert len(store.orphans) == 1 and store.orphans[0].result.group == "thread_other"


def test_duplicate_result_is_counted_and_the_first_decides(tmp_path):
    path = write_lines(tmp_path, [INVOKE, result("first"), result("Error: second")])
    store = load(path)
    call = store.find("thread_xyz", "call_abc123")
    assert call.duplicates == 1 and store.duplicate_results == 1
    assert call.state() is State.SUCCEEDED and call.result.data == "first"


def test_error_prefix_is_a_failure_and_only_the_prefix(tmp_path):
    path = write_lines(
        tmp_path,
        [
            result("Error: boom", call_id="a"),
            result("No Error: here", call_id="b"),
            result("error: lower case", call_id="c"),
        ],
    )
    a, b, c = rap.read(path)
    assert a.outcome is Outcome.ERROR and a.error_message == "Error: boom" and a.data == "Error: boom"
    assert b.outcome is Outcome.SUCCESS and c.outcome is Outcome.SUCCESS


def test_cancel_is_a_message_under_the_call_not_a_result(tmp_path):
    cancel = {"thread_id": "thread_xyz", "tool_call_id": "call_abc123"}
    store = load(write_lines(tmp_path, [INVOKE, cancel]))
    call = store.find("thread_xyz", "call_abc123")
    (child,) = call.children
    assert child.kind == "cancel_tool_call" and child.group == "thread_xyz"
    assert call.state() is State.PENDING and not call.results


def test_subscription_flags_and_final_event(tmp_path):
    event = {
        "type": "subscription_event",
        "group_id": "thread_xyz",
        "tool_call_id": "call_abc123",
        "text": "exit 0",
        "associative": True,
        "final": True,
    }
    path = write_lines(tmp_path, [INVOKE, result("Subscribed", subscription=True), event])
    _req, res, msg = rap.read(path)
    assert res.extra["subscription"] is True
    assert msg.parent_id == "call_abc123" and msg.extra["final"] is True and msg.extra["associative"] is True


def test_user_choice_text_marks_the_default(tmp_path):
    choice = {
        "type": "user_choice",
        "group_id": "g",
        "id": "c",
        "prompt": "Allow?",
        "choices": ["Yes", "No"],
        "default": 1,
        "response_url": "http://x/r",
    }
    (msg,) = rap.read(write_lines(tmp_path, [choice]))
    assert msg.text == "Allow?\n  0. Yes\n> 1. No" and msg.parent_id == "c"


def test_view_update_patch_is_parsed(tmp_path):
    view = {"type": "view_update", "group_id": "g", "view_type": "diff", "content": {"patch": PATCH}}
    (msg,) = rap.read(write_lines(tmp_path, [view]))
    assert msg.kind == "view_update" and msg.extra["diffs"][0].hunks[0].new_lines == 4


def test_unknown_message_type_is_kept_visible(tmp_path):
    (msg,) = rap.read(write_lines(tmp_path, [{"type": "progress", "group_id": "g", "id": "c", "pct": 50}]))
    assert isinstance(msg, Message) and msg.kind == "rap_unknown" and msg.extra["type"] == "progress"
    assert "pct: 50" in msg.text and msg.parent_id == "c"


# -- timestamps, layouts ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value, expected",
    [
        ("2026-11-01T10:00:01.500Z", 1793527201.5),
        (1793527201.5, 1793527201.5),
        (1793527201500, 1793527201.5),
        ("1793527201.5", 1793527201.5),
        ("yesterday", None),
        (True, None),
    ],
)
def test_timestamps(tmp_path, value, expected):
    (res,) = rap.read(write_lines(tmp_path, [{"ts": value, **result()}]))
    assert res.ts == (pytest.approx(expected) if expected is not None else None)


def test_no_timestamp_means_none(tmp_path):
    (res,) = rap.read(write_lines(tmp_path, [result()]))
    assert res.ts is None


def test_json_array_document(tmp_path):
    path = tmp_path / "log.json"
    path.write_text(json.dumps([INVOKE, result("ok")], indent=2))
    req, res = rap.read(str(path))
    assert isinstance(req, Request) and isinstance(res, Result)
    assert req.raw.where == "line 2 item 1" and res.raw.where.endswith("item 2")
    assert json.loads(res.raw.read()) == result("ok")


def test_single_object_document(tmp_path):
    path = tmp_path / "one.json"
    path.write_text(json.dumps(INVOKE, indent=4))
    (req,) = rap.read(str(path))
    assert req.call_id == "call_abc123" and json.loads(req.raw.read()) == INVOKE


def test_array_on_one_line(tmp_path):
    path = write_lines(tmp_path, [json.dumps([INVOKE, result("é ok")], ensure_ascii=False)])
    req, res = rap.read(path)
    assert res.data == "é ok" and res.raw.where == "line 1 item 2"
    assert rap.redecode(res.raw)[0].data == "é ok"


def test_redecode_matches_and_session_hydrates(tmp_path):
    path = write_lines(
        tmp_path,
        [
            INVOKE,
            result(
                "Replaced", display_as=[{"type": "diff", "content": {"path": "src/main.rs", "patch": PATCH}}]
            ),
        ],
    )
    store = CallStore(keep_payloads=False)
    files.load([path], store)
    call = store.find("thread_xyz", "call_abc123")
    assert call.request.params is None and call.result.details is None
    request, (fresh,) = session.hydrate(call)
    assert request.params == INVOKE["arguments"] and fresh.has_diff and fresh.data == "Replaced"


# -- bad records ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "record, reason",
    [
        ("not json at all", "not JSON"),
        ("[1, 2", "not JSON"),
        ('"a string"', "must be a JSON object"),
        ({"hello": "world"}, "no 'type' and no 'operation'"),
        ({"type": 5, "id": "x"}, "'type' must be a string"),
        ({"type": "tool_result", "group_id": "g", "text": "x"}, "missing 'id'"),
        ({"type": "tool_result", "group_id": "g", "id": "", "text": "x"}, "empty 'id'"),
        ({"type": "tool_result", "group_id": 7, "id": "x", "text": "x"}, "'group_id' must be a string"),
        ({"type": "tool_result", "group_id": "g", "id": "x", "text": ["x"]}, "'text' must be a string"),
        (
            {"type": "tool_result", "group_id": "g", "id": "x", "display_as": "diff"},
            "'display_as' must be an array",
        ),
        ({"type": "tool_result", "group_id": "g", "id": "x", "display_as": [7]}, "display_as[0]"),
        ({"type": "tool_result", "group_id": "g", "id": "x", "content": [{"text": "no type"}]}, "content[0]"),
        (
            {"type": "tool_result", "group_id": "g", "id": "x", "text": "t", "subscription": "yes"},
            "'subscription'",
        ),
        ({**INVOKE, "arguments": [1]}, "'arguments' must be an object"),
        ({**INVOKE, "operation": None}, "missing 'operation'"),
        ({**INVOKE, "thread_ancestors": "root"}, "'thread_ancestors'"),
        ({"type": "subscription_event", "group_id": "g", "text": "x"}, "missing 'tool_call_id'"),
        (
            {"type": "user_choice", "group_id": "g", "id": "c", "prompt": "p", "choices": [], "default": 0},
            "'choices'",
        ),
        (
            {
                "type": "user_choice",
                "group_id": "g",
                "id": "c",
                "prompt": "p",
                "choices": ["a"],
                "default": 3,
            },
            "'default'",
        ),
        ({"type": "oauth", "group_id": "g", "id": "c"}, "missing 'auth_url'"),
        ({"source": "x", "http": None, "body": [1]}, "the body must be a JSON object"),
    ],
)
def test_bad_records_become_malformed_and_the_rest_loads(tmp_path, record, reason):
    path = write_lines(tmp_path, [INVOKE, record, result("after")])
    events = list(rap.read(path))
    assert [type(e) for e in events] == [Request, Malformed, Result]
    bad = events[1]
    assert bad.where == "line 2" and reason in bad.reason and bad.source == path
    assert bad.raw.offset == len(json.dumps(INVOKE)) + 1


def test_an_invalid_utf8_line_is_read_with_u_fffd_and_said(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(
        json.dumps(INVOKE).encode()
        + b"\n"
        + json.dumps(result()).encode().replace(b'"}', b'\xff"}', 1)
        + b"\n"
    )
    events = list(rap.read(str(path)))
    assert [type(e) for e in events] == [Request, Malformed, Result]
    assert "invalid UTF-8" in events[1].reason and events[1].where == "line 2"
    assert "\ufffd" in repr(events[2])


def test_deep_nesting_is_malformed(tmp_path):
    path = write_lines(tmp_path, ["[" * 10_000 + "]" * 10_000, result()])
    *bad, ok = rap.read(path)  # read with a stand-in past 200 levels, and said; it is no RAP message
    assert all(isinstance(b, Malformed) for b in bad) and isinstance(ok, Result)
    assert any("levels deep: what is past 200" in b.reason for b in bad)


def test_missing_group_and_text_are_noted_not_fatal(tmp_path):
    bare = {"operation": "ping", "id": "p1"}
    (req, res) = rap.read(write_lines(tmp_path, [bare, {"type": "tool_result", "id": "p1"}]))
    assert req.violation == "invocation without arguments, callback_url, group_id" and req.params == {}
    assert res.group == "" and res.data is None and "neither" in res.extra["violation"]


def test_broken_document_keeps_the_items_before_the_break(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("[\n" + json.dumps(INVOKE) + ",\n" + json.dumps(result())[:-5] + "\n]\n")
    req, bad = rap.read(str(path))
    assert isinstance(req, Request) and isinstance(bad, Malformed) and bad.where == "line 3 item 2"


def test_session_text_stays_data(tmp_path):
    nasty = {**INVOKE, "arguments": {"cmd": "\x1b[31m[bold]red[/bold]\u202e"}}
    (req,) = rap.read(write_lines(tmp_path, [nasty]))
    assert "\x1b" not in req.summary and "\u202e" not in req.summary
    assert req.params["cmd"].startswith("\x1b")  # the data itself is untouched


def test_decode_line_follows_a_growing_file(tmp_path):
    from inspector.sources import tail

    first = (json.dumps(INVOKE) + "\n").encode()
    second = (json.dumps([result("one"), result("two")]) + "\n").encode()
    path = tmp_path / "grow.jsonl"
    path.write_bytes(first + second)
    assert tail.supports_follow(rap.FORMAT)
    events = tail.decode_lines(rap.FORMAT, [first, second, b"oops\n"], 1, str(path), 0)
    assert [type(e) for e in events] == [Request, Result, Result, Malformed]
    assert [e.raw.where for e in events[:3]] == ["line 1", "line 2 item 1", "line 2 item 2"]
    assert events[2].raw.offset > len(first) and json.loads(events[2].raw.read()) == result("two")
    assert events[3].where == "line 3"
