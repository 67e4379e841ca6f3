"""A Claude Code line of ASCII bytes is decoded to the keys its reader uses (claude/shape.py): the events
are those of the whole parse, for every real transcript and for odd records, and a byte that is not
UTF-8 is still read as U+FFFD and said wherever it stands, in a key the shape keeps or not."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from claude_records_factory import SID, call, record, use, write

import inspector.protocols.claude.shape as claude_shape
from inspector.model import Malformed, Message, Request, Result
from inspector.protocols import claude, detect

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / ".." / "shared" / "corpus" / "claude"
FIXTURES = ROOT / "tests" / "fixtures"


def transcripts() -> list[Path]:
    """The corpus's Claude Code files and every fixture detected as one."""
    found = sorted(CORPUS.rglob("*.jsonl")) if CORPUS.is_dir() else []
    for path in sorted(FIXTURES.rglob("*.jsonl")):
        try:
            if detect(str(path)).name == "claude":
                found.append(path)
        except Exception:  # noqa: BLE001 - a fixture of no format at all is not this test's
            continue
    return found


def read_both_ways(path: Path, monkeypatch: pytest.MonkeyPatch, details: bool) -> tuple[list[str], list[str]]:
    """The events of ``path`` as read, and as read with every line refused by the shape (the whole parse
    for each, as before it), compared by their repr (every field, places included)."""
    shaped = [repr(event) for event in claude.read(str(path), details=details)]
    calls = []

    def refused(line: object) -> dict[str, object]:
        calls.append(line)
        raise ValueError("refused")

    with monkeypatch.context() as patched:
        patched.setattr(claude_shape, "decode", refused)
        patched.setattr(claude_shape, "decode_bare", refused)
        whole = [repr(event) for event in claude.read(str(path), details=details)]
    return shaped, whole


TRANSCRIPTS = transcripts()


@pytest.mark.skipif(
    not TRANSCRIPTS, reason="no Claude Code transcript (../shared/corpus/claude, tests/fixtures)"
)
def test_every_real_transcript_reads_the_same_through_the_shape(monkeypatch):
    lines = 0
    for path in TRANSCRIPTS:
        for details in (True, False):
            shaped, whole = read_both_ways(path, monkeypatch, details)
            assert shaped == whole, (path, details)
        lines += sum(1 for line in path.read_bytes().splitlines() if line.strip())
    # the corpus's thousands of lines when it is here; the fixtures' hundreds on a clone without ../shared
    assert lines > (1000 if CORPUS.is_dir() else 300)


def test_odd_records_read_the_same_through_the_shape(tmp_path, monkeypatch):
    copy = {  # a subagent's message copied into a progress record
        "type": "progress",
        "data": {
            "type": "agent_progress",
            "agentId": "a1",
            "message": {
                "type": "assistant",
                "uuid": "p-1",
                "message": {"content": [use("toolu_p", "Bash", {"command": "pwd"})]},
            },
        },
        "parentToolUseID": "toolu_task",
        "sessionId": SID,
        "timestamp": "2025-06-01T10:00:02.000Z",
    }
    boundary = {
        "type": "system",
        "subtype": "compact_boundary",
        "content": "Conversation compacted",
        "compactMetadata": {"trigger": "auto", "preTokens": 1200},
        "sessionId": SID,
        "timestamp": "2025-06-01T10:00:03.000Z",
    }
    records = [
        *call("toolu_task", "Task", {"prompt": "p", "description": "d"}, "done", {"agentId": "a1"}),
        copy,
        boundary,
        record("user", "the summary", isCompactSummary=True),
        record("user", [{"type": "text", "text": "aside"}], isSidechain=True, agentId="ag", parentUuid=None),
        record("user", [{"type": "text", "text": "meta"}], isMeta=True),
        record(
            "assistant",
            [{"type": "thinking", "thinking": "…", "signature": "s"}, {"type": "text", "text": "é"}],
        ),
        record("user", [{"type": "image", "source": {"type": "base64", "data": "QUJD" * 500}}]),
        record("assistant", "plain text", usage={"input_tokens": 3}),
        {"type": "summary", "summary": "A summary", "leafUuid": "u"},
        {"type": "attachment", "attachment": {"x": 1}, "sessionId": SID},
        {"type": "user", "message": "not an object"},  # refused by the shape: the whole parse says why
        {"type": "assistant", "message": {"content": 7}},
        record("assistant", ["a block that is no object", {"type": None}]),
        {"type": 5},
        b"[1, 2]",
        b"{not json",
        b'{"type":"user","message":{"content":"x"},"zz":NaN}',  # refused: msgspec reads no NaN
        record("assistant", [use("toolu_big", "Bash", {"n": 1})], extra="E"),
        record("assistant", [use("toolu_lone", "Bash", {"s": "S"})], z="S"),
        *call("toolu_long", "Write", {"content": "x" * 70_000}),  # past 64 KB: the whole parse
        *call("toolu_dup", "Bash", {"command": "a"}),
        # toolUseResult of every kind (a read without details keeps a few keys of an object only)
        *call(
            "toolu_e1",
            "Edit",
            {"file_path": "/a"},
            "ok",
            {
                "filePath": "/a",
                "oldString": "x",
                "originalFile": "x\n" * 50,
                "structuredPatch": [{"oldStart": 1, "lines": ["-x", "+y"]}],
            },
        ),
        *call("toolu_e2", "Edit", {"file_path": "/a"}, "ok", {"filePath": "/a", "structuredPatch": []}),
        *call("toolu_e3", "Write", {"file_path": "/b"}, "ok", {"type": "create", "filePath": "/b"}),
        *call("toolu_e4", "Write", {"file_path": "/b"}, "ok", {"structuredPatch": ["no hunk", {"lines": 3}]}),
        *call("toolu_e5", "MultiEdit", {"file_path": "/c"}, "ok", {"type": "update", "structuredPatch": 7}),
        *call(
            "toolu_t2",
            "Task",
            {"prompt": "q", "description": "e"},
            "done",
            {
                "status": "completed",
                "agentId": "a2",
                "content": [{"type": "text", "text": "report"}],
                "totalToolUseCount": 3,
            },
        ),
        *call("toolu_w", "Workflow", {"name": "w"}, "started", {"runId": "run-1", "output": "o" * 300}),
        *call("toolu_s1", "Bash", {"command": "x"}, "Error: no", "Error: no"),
        *call("toolu_s2", "Bash", {"command": "x"}, "out", [{"type": "text", "text": "out"}]),
        *call("toolu_s3", "Bash", {"command": "x"}, "out", 12),
        *call("toolu_s4", "Bash", {"command": "x"}, "out", toolUseResult=None),
        *call(
            "toolu_s5", "Bash", {"command": "x"}, "out", {"stdout": "o" * 200, "stderr": "", "x": {"y": [1]}}
        ),
    ]
    path = write(tmp_path / "session.jsonl", records)
    data = path.read_bytes()
    data = data.replace(b'"extra":"E"', b'"extra":' + b"9" * 5000)  # an integer past Python's digits
    data = data.replace(b'"z":"S"', b'"z":"\\ud800"').replace(b'{"s":"S"}', b'{"s":"\\udc00"}')  # lone halves
    data = data.replace(b'"sessionId":', b'"type":"user","sessionId":', 1)  # a key written twice
    data += json.dumps(record("assistant", [use("toolu_n", "Bash", {"n": 1})])).encode() + b"\n"
    path.write_bytes(data.replace(b'"n": 1', b'"n": ' + b"8" * 5000))
    for details in (True, False):
        shaped, whole = read_both_ways(path, monkeypatch, details)
        assert shaped == whole, details
    events = list(claude.read(str(path)))
    called = {e.call_id for e in events if isinstance(e, Request)}
    assert called >= {"toolu_task", "toolu_p", "toolu_big", "toolu_lone", "toolu_long", "toolu_n"}
    malformed = [(e.where, e.reason) for e in events if isinstance(e, Malformed)]
    assert [where for where, _ in malformed] == [f"line {n}" for n in (13, 14, 15, 15, 16, 17, 18)]
    assert "not JSON" in malformed[-1][1]


def test_a_byte_not_utf8_where_the_shape_never_looks_is_still_read_as_u_fffd_and_said(tmp_path):
    """msgspec checks no UTF-8 in what it passes over: a bad byte only in a key the shape leaves out (a
    version, an image's data, a message's model, a key no reader knows) is read and said as one in a
    key it keeps (a call's input, a message's text)."""
    image = record("user", [{"type": "image", "source": {"data": "QUJD"}}, {"type": "text", "text": "look"}])
    model = record("assistant", [{"type": "text", "text": "hi"}])
    model["message"]["model"] = "MODEL"
    records = [
        json.dumps(record("assistant", [use("toolu_a", "Bash", {"command": "ls"})], version="VERSION")),
        json.dumps(image),
        json.dumps(record("assistant", [use("toolu_b", "Bash", {"command": "ls"})], zz="1")),
        json.dumps(model),
        json.dumps(record("assistant", [use("toolu_c", "Bash", {"command": "INPUT"})])),
        *call("toolu_d", "Bash", {"command": "pwd"}, "fine"),
    ]
    lines = [line.encode() if isinstance(line, str) else line for line in records]
    lines[0] = lines[0].replace(b"VERSION", b"2\xff0")
    lines[1] = lines[1].replace(b"QUJD", b"QU\xfeJD")
    lines[2] = lines[2].replace(b'"zz"', b'"z\xc3("')
    lines[3] = lines[3].replace(b"MODEL", b"\xed\xa0\x80")  # an encoded surrogate: not UTF-8
    lines[4] = lines[4].replace(b"INPUT", b"l\xe2\x82s")  # a sequence cut short
    events = list(claude.read(str(write(tmp_path / "session.jsonl", lines))))
    assert [e.call_id for e in events if isinstance(e, Request)] == [
        "toolu_a",
        "toolu_b",
        "toolu_c",
        "toolu_d",
    ]
    assert [e.params for e in events if isinstance(e, Request)][2] == {"command": "l\ufffd\ufffds"}
    assert [e.text for e in events if isinstance(e, Message)] == ["[image]\nlook", "hi"]
    malformed = [e for e in events if isinstance(e, Malformed)]
    assert [m.where for m in malformed] == ["line 1", "line 2", "line 3", "line 4", "line 5"]
    assert all("invalid UTF-8" in m.reason for m in malformed)
    assert [e.call_id for e in events if isinstance(e, Result)] == ["toolu_d"]


def test_the_shape_keeps_every_key_the_readers_ask_for():
    """Each key the record readers ask of a record is one the shape keeps (a key left out would read as
    absent from every line the shape decodes)."""
    asked: set[str] = set()
    folder = ROOT / "inspector" / "protocols" / "claude"
    for path in folder.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        asked |= set(re.findall(r"\brecord\.get\(\"(\w+)\"\)", text))
        asked |= set(re.findall(r"\bvalue\.get\(\"(uuid)\"\)", text))
    assert {"type", "message", "sessionId", "uuid", "toolUseResult"} <= asked
    assert asked <= claude_shape.KEYS, asked - claude_shape.KEYS


def test_a_read_without_details_keeps_every_key_asked_of_a_tool_use_result():
    """A read without details decodes an object toolUseResult to shape.ResultFacts: each key its readers
    ask of it (has_diff, the planner's links, a workflow's run) is one kept."""
    import inspect

    from inspector.protocols.claude import details, records, subagents

    asked: set[str] = set()
    for function in (details.has_diff, details._is_patch, records._result, subagents.workflow_run):
        text = inspect.getsource(function)
        asked |= set(re.findall(r"\b(?:structured|value)\.get\(\"(\w+)\"\)", text))
        asked |= set(re.findall(r"\b(?:structured|value)\[\"(\w+)\"\]", text))
        asked |= set(re.findall(r"\"(\w+)\" (?:not )?in value\b", text))
    assert {"structuredPatch", "filePath", "oldString", "type", "agentId", "runId"} <= asked
    assert asked <= set(claude_shape.ResultFacts.__annotations__), asked
