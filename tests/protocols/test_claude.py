"""Claude Code transcripts from handwritten records: pairing, details per tool, outcomes, messages, bad lines."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest
from claude_records_factory import SID, call, record, result, use, write

import inspector.protocols.claude.records as claude_records
from inspector.model import CallStore, Malformed, Message, Outcome, Request, Result, Skipped
from inspector.model.details import (
    BashDetail,
    FetchDetail,
    FileDetail,
    FileListDetail,
    PatchDetail,
    SearchDetail,
    TaskDetail,
    TextDetail,
    TodoDetail,
)
from inspector.protocols import claude, detect
from inspector.protocols.claude.details import summarize
from inspector.sources.files import load
from inspector.sources.session import hydrate


def events_of(tmp_path, records, name="session.jsonl"):
    return list(claude.read(str(write(tmp_path / name, records))))


def only(events, kind):
    found = [event for event in events if isinstance(event, kind)]
    assert len(found) == 1, found
    return found[0]


# -- pairing -----------------------------------------------------------------------------------------


def test_a_tool_use_and_its_tool_result_become_one_threaded_call(tmp_path):
    structured = {
        "stdout": "a\nb",
        "stderr": "warn",
        "interrupted": False,
        "isImage": False,
        "returnCodeInterpretation": "No matches",
        "backgroundTaskId": "bg1",
    }
    path = write(
        tmp_path / "s.jsonl",
        call("toolu_1", "Bash", {"command": "ls -la\n/tmp", "timeout": 5}, "a\nb", structured),
    )
    events = list(claude.read(str(path)))
    request, answer = only(events, Request), only(events, Result)
    assert (request.call_id, request.tool, request.group, request.sender) == (
        "toolu_1",
        "Bash",
        SID,
        "assistant",
    )
    assert request.executor is None and request.timeout_ms is None and request.parent_id is None
    assert request.params == {"command": "ls -la\n/tmp", "timeout": 5}
    assert request.summary == "ls -la⏎/tmp"
    assert request.ts == datetime(2025, 6, 1, 10, 0, tzinfo=timezone.utc).timestamp()
    assert (answer.call_id, answer.group, answer.sender, answer.tool) == ("toolu_1", SID, "user", "Bash")
    assert answer.outcome is Outcome.SUCCESS and answer.data == "a\nb"
    assert answer.ts - request.ts == pytest.approx(1.5)
    assert answer.details == BashDetail("a\nb", "warn", False, "No matches", "bg1")
    store = CallStore()
    store.ingest_many(events)
    assert store.call_count == 1 and not store.orphans
    assert store.items[0].result is answer


def test_every_event_points_at_its_line_and_decodes_again_alone(tmp_path):
    records = call(
        "toolu_1",
        "Read",
        {"file_path": "/a.py"},
        "x",
        {"type": "text", "file": {"filePath": "/a.py", "content": "x", "numLines": 1}},
    )
    path = write(tmp_path / "s.jsonl", [b"", *records])
    lines = path.read_bytes().split(b"\n")
    for event in claude.read(str(path)):
        raw = event.raw
        number = int(raw.where.split()[1])
        assert raw.source == str(path) and raw.protocol == "claude"
        assert raw.read() == lines[number - 1]
        again = claude.redecode(raw)
        assert [type(e) for e in again] == [type(event)]
        assert again[0].call_id == event.call_id
    assert [e.raw.where for e in claude.read(str(path))] == ["line 2", "line 3"]


def test_dropped_payloads_come_back_from_the_file(tmp_path):
    structured = {
        "filePath": "/a.py",
        "oldString": "a",
        "newString": "b",
        "originalFile": "a\n",
        "structuredPatch": [
            {"oldStart": 1, "oldLines": 1, "newStart": 1, "newLines": 1, "lines": ["-a", "+b"]}
        ],
        "userModified": False,
        "replaceAll": False,
    }
    path = write(
        tmp_path / "s.jsonl",
        call(
            "toolu_e",
            "Edit",
            {"file_path": "/a.py", "old_string": "a", "new_string": "b"},
            "updated",
            structured,
        ),
    )
    store = CallStore(keep_payloads=False)
    load([str(path)], store)
    stored = store.items[0]
    assert stored.request.params is None and stored.result.details is None and stored.has_diff
    request, results = hydrate(stored)
    assert request.params["old_string"] == "a"
    assert isinstance(results[0].details, PatchDetail) and results[0].details.hunks[0].lines[1].text == "b"


# -- details -----------------------------------------------------------------------------------------

PATCH = [{"oldStart": 3, "oldLines": 2, "newStart": 3, "newLines": 2, "lines": [" keep", "-old", "+new"]}]
DETAILS = {
    "edit": (
        "Edit",
        {"file_path": "/f"},
        {
            "filePath": "/f",
            "oldString": "old",
            "newString": "new",
            "originalFile": "",
            "structuredPatch": PATCH,
            "userModified": True,
            "replaceAll": False,
        },
    ),
    "multiedit": (
        "MultiEdit",
        {"file_path": "/f"},
        {
            "filePath": "/f",
            "edits": [],
            "originalFileContents": "",
            "structuredPatch": PATCH,
            "userModified": False,
        },
    ),
    "write-create": (
        "Write",
        {"file_path": "/n"},
        {"type": "create", "filePath": "/n", "content": "hi\n", "structuredPatch": []},
    ),
    "write-update": (
        "Write",
        {"file_path": "/n"},
        {
            "type": "update",
            "filePath": "/n",
            "content": "hi\n",
            "originalFile": "ho\n",
            "structuredPatch": PATCH,
        },
    ),
    "read": (
        "Read",
        {"file_path": "/r"},
        {
            "type": "text",
            "file": {"filePath": "/r", "content": "abc", "startLine": 4, "numLines": 1, "totalLines": 9},
        },
    ),
    "read-image": (
        "Read",
        {"file_path": "/i.png"},
        {
            "type": "image",
            "file": {
                "type": "image/png",
                "base64": "iVBOR",
                "originalSize": 10,
                "dimensions": {"width": 1, "height": 1},
            },
        },
    ),
    "todo": (
        "TodoWrite",
        {"todos": []},
        {
            "oldTodos": [],
            "newTodos": [
                {"content": "Fix", "status": "in_progress", "activeForm": "Fixing"},
                {"content": "Test", "status": 3},
            ],
        },
    ),
    "glob": (
        "Glob",
        {"pattern": "*.py"},
        {"filenames": ["a.py", 7], "numFiles": 1, "durationMs": 2, "truncated": True},
    ),
    "grep": (
        "Grep",
        {"pattern": "x"},
        {"mode": "content", "numFiles": 1, "filenames": [], "content": "a:1:x", "numLines": 1},
    ),
    "fetch": (
        "WebFetch",
        {"url": "https://e"},
        {"url": "https://e", "code": 200, "codeText": "OK", "bytes": 9, "durationMs": 3, "result": "body"},
    ),
    "search": (
        "WebSearch",
        {"query": "q"},
        {"query": "q", "results": [{"title": "t"}], "durationSeconds": 1.5},
    ),
    "task": (
        "Task",
        {"description": "Explore", "prompt": "Look"},
        {
            "status": "completed",
            "prompt": "Look",
            "agentId": "ab12",
            "content": [{"type": "text", "text": "Done"}],
            "totalDurationMs": 40,
            "totalTokens": 99,
            "totalToolUseCount": 3,
        },
    ),
    "string": ("Bash", {"command": "false"}, "Error: Exit code 1"),
}


@pytest.mark.parametrize("name", sorted(DETAILS))
def test_structured_results_become_typed_details(tmp_path, name):
    tool, params, structured = DETAILS[name]
    answer = only(events_of(tmp_path, call("toolu_d", tool, params, "text", structured)), Result)
    detail = answer.details
    expected_diff = name in ("edit", "multiedit", "write-update")
    assert answer.has_diff is expected_diff
    if name in ("edit", "multiedit", "write-update"):
        assert isinstance(detail, PatchDetail) and [line.kind for line in detail.hunks[0].lines] == [
            " ",
            "-",
            "+",
        ]
        assert detail.hunks[0].lines[2].new_no == 4 and detail.user_modified is (name == "edit")
    elif name == "write-create":
        assert detail == PatchDetail("/n", [], kind="create", content="hi\n")
    elif name == "read":
        assert detail == FileDetail("/r", "abc", 4, 1, 9)
    elif name == "read-image":
        assert (
            detail.is_image and detail.mime == "image/png" and detail.path == "/i.png" and not detail.content
        )
    elif name == "todo":
        assert isinstance(detail, TodoDetail) and detail.old == []
        assert [(t.content, t.status, t.active_form) for t in detail.new] == [
            ("Fix", "in_progress", "Fixing"),
            ("Test", "pending", ""),
        ]
    elif name == "glob":
        assert detail == FileListDetail(["a.py"], 1, True)
    elif name == "grep":
        assert isinstance(detail, FileListDetail) and detail.content == "a:1:x" and detail.mode == "content"
    elif name == "fetch":
        assert detail == FetchDetail("https://e", 200, "OK", 9, 3.0, "body")
    elif name == "search":
        assert detail == SearchDetail("q", [{"title": "t"}], 1.5)
    elif name == "task":
        assert detail == TaskDetail("ab12", "completed", "Explore", "Look", "Done", 3, 40.0, 99)
    else:
        assert detail == TextDetail("Error: Exit code 1")


def test_details_come_from_the_shape_when_the_request_is_unknown(tmp_path):
    tool, params, structured = DETAILS["edit"]
    answer_record = call("toolu_x", tool, params, "ok", structured)[1]
    answer = only(events_of(tmp_path, [answer_record]), Result)
    assert answer.tool == "" and isinstance(answer.details, PatchDetail) and answer.has_diff


def test_list_content_is_kept_as_it_is(tmp_path):
    blocks = [{"type": "text", "text": "one"}, {"type": "tool_reference", "name": "X"}]
    answer = only(
        events_of(
            tmp_path, call("toolu_l", "mcp__x__y", {"a": 1}, blocks, [{"type": "text", "text": "one"}])
        ),
        Result,
    )
    assert answer.data == blocks and answer.details == TextDetail("one")


# -- outcomes ----------------------------------------------------------------------------------------

REJECTED = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a "
    "file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the "
    "user to tell you how to proceed."
)


@pytest.mark.parametrize(
    ("content", "is_error", "expected", "message"),
    [
        ("Exit code 2\nboom\nmore\nand more", True, Outcome.ERROR, "Exit code 2\nboom\nmore"),
        (
            "<tool_use_error>File has not been read yet.</tool_use_error>",
            True,
            Outcome.ERROR,
            "File has not been read yet.",
        ),
        ([{"type": "text", "text": "failed in a block"}], True, Outcome.ERROR, "failed in a block"),
        ("", True, Outcome.ERROR, "error"),
        ("[Request interrupted by user for tool use]", True, Outcome.CANCELED, "interrupted by the user"),
        ("[Request interrupted by user]", None, Outcome.CANCELED, "interrupted by the user"),
        (REJECTED, True, Outcome.DENIED, REJECTED),
        (
            REJECTED.replace(
                "STOP what you are doing and wait for the user to tell you how to proceed.",
                "The user provided the following reason for the rejection:  use pnpm",
            ),
            True,
            Outcome.DENIED,
            "rejected by the user: use pnpm",
        ),
        (
            "The user doesn't want to take this action right now. STOP what you are doing.",
            True,
            Outcome.DENIED,
            None,
        ),
        (
            "Claude requested permissions to use WebSearch, but you haven't granted it yet.",
            True,
            Outcome.DENIED,
            None,
        ),
        ("This command requires approval", True, Outcome.DENIED, None),
        ("Permission to use Bash with command rm -rf / has been denied.", True, Outcome.DENIED, None),
        ("fine", False, Outcome.SUCCESS, None),
    ],
)
def test_outcomes(tmp_path, content, is_error, expected, message):
    answer = only(
        events_of(tmp_path, call("toolu_o", "Bash", {"command": "x"}, content, is_error=is_error)), Result
    )
    assert answer.outcome is expected
    if message is not None:
        assert answer.error_message == message
    if expected is Outcome.ERROR and isinstance(content, str) and content.startswith("Exit code"):
        assert answer.error_code == "exit 2"


# -- summaries ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tool", "params", "summary"),
    [
        ("Read", {"file_path": "/a/b.py", "limit": 3}, "/a/b.py"),
        ("Write", {"file_path": "/n.txt", "content": "x" * 5000}, "/n.txt"),
        ("Grep", {"pattern": "TODO", "path": "src"}, "TODO  in src"),
        ("Task", {"description": "Survey", "prompt": "long"}, "Survey"),
        ("Agent", {"prompt": "only a prompt"}, "only a prompt"),
        ("WebFetch", {"url": "https://x.y", "prompt": "p"}, "https://x.y"),
        (
            "TodoWrite",
            {"todos": [{"content": "a", "status": "in_progress"}, {"content": "b"}]},
            "2 todos, doing: a",
        ),
        ("mcp__srv__tool", {"b": [1, 2], "a": "\x1b[31m"}, '{"b":[1,2],"a":"\\u001b[31m"}'),
        ("Bash", {"command": "echo " + "y" * 300}, "echo " + "y" * 114 + "…"),
        ("Odd", None, "null"),
    ],
)
def test_summaries(tool, params, summary):
    assert summarize(tool, params) == summary


# -- messages and record kinds -----------------------------------------------------------------------


def test_conversation_text_becomes_messages_and_other_records_are_skipped(tmp_path):
    records = [
        record("user", "Fix the bug"),
        record(
            "assistant",
            [
                {"type": "thinking", "thinking": "hmm"},
                {"type": "text", "text": "On it."},
                use("toolu_1", "Bash", {"command": "ls"}),
            ],
        ),
        record("user", [result("toolu_1", "ok")]),
        record("user", [{"type": "text", "text": "[Request interrupted by user for tool use]"}]),
        record("user", "<command-name>/clear</command-name>", isMeta=True),
        record("user", [{"type": "text", "text": "see"}, {"type": "image", "source": {"data": "AAAA"}}]),
        record("assistant", [{"type": "text", "text": "z" * 50_000}]),
        {"type": "summary", "summary": "Fixing a bug", "leafUuid": "x"},
        {
            "type": "system",
            "content": "\x1b[1mPostToolUse:Bash\x1b[22m done",
            "toolUseID": "toolu_1",
            "sessionId": SID,
            "timestamp": "2025-06-01T10:00:02.000Z",
            "level": "info",
        },
        {"type": "system", "subtype": "turn_duration", "durationMs": 5},
        {"type": "file-history-snapshot", "messageId": "m", "snapshot": {}},
        {"type": "brand-new-kind", "x": 1},
        {"type": "progress", "data": {"type": "hook_progress"}},
    ]
    events = events_of(tmp_path, records)
    messages = [(e.kind, e.text[:40], e.sender) for e in events if isinstance(e, Message)]
    assert messages == [
        ("user", "Fix the bug", "user"),
        ("assistant", "On it.", "assistant"),
        ("interrupt", "[Request interrupted by user for tool us", "user"),
        ("user", "see\n[image]", "user"),
        ("assistant", "z" * 40, "assistant"),
        ("summary", "Fixing a bug", ""),
        ("system", "PostToolUse:Bash done", "system"),
    ]
    long_text = [e for e in events if isinstance(e, Message) and e.text.startswith("zzz")][0]
    assert len(long_text.text) == claude_records.TEXT_LIMIT
    system = [e for e in events if isinstance(e, Message) and e.kind == "system"][0]
    assert system.parent_id == "toolu_1"
    assert sorted(e.kind for e in events if isinstance(e, Skipped)) == [
        "brand-new-kind",
        "file-history-snapshot",
        "meta",
        "progress",
        "system turn_duration",
        "thinking",
    ]
    store = CallStore()
    store.ingest_many(events)
    assert store.calls[("", SID, "toolu_1")].children == [system]  # the hook message sits under its call


# -- bad input ---------------------------------------------------------------------------------------


def test_bad_lines_become_malformed_and_the_rest_still_loads(tmp_path):
    good = call("toolu_g", "Bash", {"command": "ls"})
    records = [
        b"{not json",
        b"[1, 2]",
        b'"text"',
        b"\xff\xfe{}",
        {"type": 5},
        {"type": "user", "message": "hi"},
        {"type": "assistant", "message": {"content": 7}},
        record(
            "assistant",
            [
                {"type": "tool_use", "name": "Bash"},
                {"type": "tool_use", "id": "t", "name": 3},
                "block",
                {"type": None},
            ],
        ),
        record("user", [{"type": "tool_result", "tool_use_id": ["x"]}]),
        {"type": "summary", "summary": {"x": 1}},
        b"   ",
        *good,
    ]
    events = events_of(tmp_path, records)
    malformed = [e for e in events if isinstance(e, Malformed)]
    assert [m.where for m in malformed] == [
        "line 1",
        "line 2",
        "line 3",
        "line 4",
        "line 5",
        "line 6",
        "line 7",
        "line 8",
        "line 8",
        "line 8",
        "line 8",
        "line 9",
        "line 10",
    ]
    assert all(m.reason and m.source.endswith("session.jsonl") and m.raw is not None for m in malformed)
    assert "not JSON" in malformed[0].reason and "UTF-8" in malformed[3].reason
    assert only(events, Request).call_id == "toolu_g" and only(events, Result).outcome is Outcome.SUCCESS


def test_a_missing_file_raises_oserror():
    with pytest.raises(OSError):
        list(claude.read("/nonexistent/session.jsonl"))


def test_lines_split_across_tiny_blocks_keep_exact_offsets(tmp_path, monkeypatch):
    monkeypatch.setattr(claude, "BLOCK", 5)
    monkeypatch.setattr(claude, "_POOL", [])
    records = call("toolu_a", "Write", {"file_path": "/x", "content": "é" * 3000}) + call(
        "toolu_b", "LS", {"path": "/"}
    )
    body = b"\xef\xbb\xbf" + b"\r\n".join(
        json.dumps(r).encode() for r in records
    )  # CRLF, BOM, no final newline
    path = tmp_path / "s.jsonl"
    path.write_bytes(body)
    events = list(claude.read(str(path)))
    assert [type(e).__name__ for e in events] == ["Request", "Result", "Request", "Result"]
    for event, original in zip(events, records, strict=True):
        assert json.loads(event.raw.read()) == original
    assert events[0].params["content"] == "é" * 3000


def test_line_ends_of_every_kind_leave_exactly_the_record(tmp_path):
    """A record's place ends before its line end: LF, CRLF, several CRs before the LF, a last line
    with CRs and no LF; lines of CRs alone are blank."""
    records = call("toolu_a", "LS", {"path": "/"}) + call("toolu_b", "LS", {"path": "/x"})
    ends = [b"\n", b"\r\n\r\r\n", b"\r\r\n\n", b"\r\r"]
    body = b"".join(json.dumps(r).encode() + end for r, end in zip(records, ends, strict=True))
    path = tmp_path / "s.jsonl"
    path.write_bytes(body)
    events = list(claude.read(str(path)))
    assert [type(e).__name__ for e in events] == ["Request", "Result", "Request", "Result"]
    for event, original in zip(events, records, strict=True):
        assert event.raw.read() == json.dumps(original).encode()
    assert [e.raw.where for e in events] == ["line 1", "line 2", "line 4", "line 6"]


def test_a_file_read_alone_marks_each_new_session_once_whatever_its_records_session_ids(tmp_path):
    """A record of a session already seen is not asked of the resume (a short cut): a session id that
    is no text (a list, a number, none, empty) never marks, a new one marks once, an old one again never."""
    sids = ["s-one", ["s-one"], 5, None, "", "s-two", "s-one", {"a": 1}, "s-two", "s-three"]
    records = [record("user", f"text {n}", sessionId=sid) for n, sid in enumerate(sids)]
    path = write(tmp_path / "s.jsonl", records)
    events = list(claude.read(str(path)))
    markers = [e for e in events if type(e).__name__ == "Marker"]
    assert [(m.kind, m.group) for m in markers] == [("resume", "s-two"), ("resume", "s-three")]
    assert [m.raw.where for m in markers] == ["line 6", "line 10"]
    assert len([e for e in events if type(e) is Message]) == len(sids)
    assert not [e for e in events if isinstance(e, (Malformed, Skipped))]


# -- sniffing ----------------------------------------------------------------------------------------


def test_sniff_recognises_transcripts_by_content(tmp_path):
    path = write(
        tmp_path / "any-name.log",
        [
            {"type": "file-history-snapshot", "messageId": "m", "snapshot": {}},
            *call("toolu_s", "Bash", {"command": "ls"}),
        ],
    )
    assert claude.sniff(str(path), path.read_bytes()) == 80
    assert detect(str(path)) is claude.FORMAT
    giant = json.dumps(record("user", "x" * 100_000)).encode()[:65536]  # the head cuts the first record
    assert claude.sniff("f", giant) == 45
    for other in (
        b'{"type": "user", "body": {}}\n',
        b'{"ToolCallId": "c", "ResultJson": "{}"}\n',
        b"\x00\x01",
        b'{"callback_url": "x", "tool_call_id": "y"}\n',
        b"",
    ):
        assert claude.sniff("f", other) == 0
