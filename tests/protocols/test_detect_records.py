"""Detection never hangs on one first line: a Gemini JSONL log without its header line, and a first line
cut short or of another kind in front of any format's records.

Gemini CLI JSONL logs (``chats/session-*.jsonl``) were seen whose first line is already a message with
``toolCalls``: no ``{"sessionId", "projectHash", ...}`` header. ``dump``, ``stats`` and ``check`` refused
them (exit 2) unless ``--format gemini`` was given.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from agent_records import g_call, g_msg
from hostile_io import run_cli

from inspector import protocols
from inspector.sources.agent_sessions import find_gemini

GEMINI_CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "gemini"


def headerless(folder: Path) -> Path:
    """A Gemini CLI JSONL log whose first line is a message with toolCalls (no header line)."""
    shell = g_call(
        "ku16wmft",
        "run_shell_command",
        {"command": "npm test", "description": "Run the tests"},
        "success",
        {"output": "Output: 12 passing\nExit Code: 0\nProcess Group PGID: 20528"},
        second=5,
    )
    read = g_call(
        "r7p2xq0a",
        "read_file",
        {"absolute_path": "C:\\work\\app\\src\\index.ts"},
        "error",
        {"error": "File not found: C:\\work\\app\\src\\index.ts"},
        second=9,
    )
    records = [
        g_msg("74777dc4-fee6-43cf-9d18-be5521511bc1", "gemini", "", [shell], second=4),
        {"$set": {"lastUpdated": "2026-04-25T08:00:05.000Z"}},
        g_msg("083181c4-8e03-4191-87d6-3a861fef48b7", "user", [{"text": "now read index.ts"}], second=7),
        {"$set": {"lastUpdated": "2026-04-25T08:00:07.000Z"}},
        g_msg("9b1e0d55-2c4a-4f7e-8a31-0c6f5d2b7e19", "gemini", "", [read], second=8),
        {"$set": {"lastUpdated": "2026-04-25T08:00:09.000Z"}},
    ]
    path = folder / "session-2026-04-25T08-00-e435870b.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.mark.parametrize("where", ["chats", "elsewhere"])
def test_a_gemini_log_without_its_header_is_gemini(tmp_path, where):
    folder = tmp_path / "tmp" / "d5eebbf4" / "chats" if where == "chats" else tmp_path / "exports"
    path = headerless(folder)
    assert protocols.detect(str(path)).name == "gemini"
    code, out, err = run_cli("stats", "--json", str(path))
    assert code == 0, err
    figures = json.loads(out)
    assert figures["calls"] == 2
    code, out, _ = run_cli("dump", "--json", str(path))
    rows = {row["id"]: row["state"] for row in map(json.loads, out.splitlines())}
    assert rows == {"ku16wmft": "succeeded", "r7p2xq0a": "failed"}
    code, out, _ = run_cli("check", str(path))
    assert code == 0 and "ok: 2 call(s)" in out
    if where == "chats":  # the session browser lists it with its calls
        [info] = find_gemini(str(tmp_path / "tmp"))
        assert info.path == str(path) and info.tool_calls == 2


def test_the_folder_layout_makes_a_first_user_message_enough(tmp_path):
    path = tmp_path / "chats" / "session-2026-04-25T08-00-e435870b.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(g_msg("u1", "user", [{"text": "hello"}])) + "\n", encoding="utf-8")
    assert protocols.get("gemini").sniff(str(path), path.read_bytes()) > protocols.get("gemini").sniff(
        str(tmp_path / "x.jsonl"), path.read_bytes()
    )
    assert protocols.detect(str(path)).name == "gemini"


@pytest.mark.parametrize(
    "name", ["session-2026-04-25T08-23-e435870b.jsonl", "session-2026-04-25T08-46-c737eb36.jsonl"]
)
def test_a_real_log_with_its_header_line_taken_off_reads_the_same_calls(tmp_path, name):
    found = sorted(GEMINI_CORPUS.glob(f"*{name}")) if GEMINI_CORPUS.is_dir() else []
    if not found:
        pytest.skip("../shared/corpus/gemini is not present")
    whole = tmp_path / "whole" / "chats" / name
    whole.parent.mkdir(parents=True)
    shutil.copy(found[0], whole)
    cut = tmp_path / "cut" / "chats" / name
    cut.parent.mkdir(parents=True)
    lines = whole.read_bytes().splitlines(keepends=True)
    assert b'"projectHash"' in lines[0]
    cut.write_bytes(b"".join(lines[1:]))
    assert protocols.detect(str(cut)).name == "gemini"
    _, whole_out, _ = run_cli("dump", "--json", str(whole))
    _, cut_out, _ = run_cli("dump", "--json", str(cut))
    ids = [json.loads(line)["id"] for line in whole_out.splitlines()]
    assert ids and [json.loads(line)["id"] for line in cut_out.splitlines()] == ids


# -- every line format: a first line cut short (a partial write), or of another kind, hides nothing ----

CUT = '{"timestamp":"2026-05-12T10:00:00.000Z","type":"session_me'
RECORDS = {
    "codex": [
        {
            "timestamp": "2026-05-12T10:00:01.000Z",
            "type": "response_item",
            "payload": {"type": "function_call", "name": "shell", "arguments": "{}", "call_id": "c1"},
        },
    ],  # fmt: skip
    "claude": [
        {"type": "user", "sessionId": "s1", "uuid": "u2", "message": {"role": "user", "content": "hi"}},
    ],
    "gemini": [
        {
            "sessionId": "e435870b-a192",
            "projectHash": "d5ee",
            "startTime": "2026-04-25T08:23:24.509Z",
            "lastUpdated": "2026-04-25T08:23:24.509Z",
            "kind": "main",
        },
        g_msg("m1", "user", [{"text": "hi"}]),
    ],  # fmt: skip
    "alicia": [
        {
            "stanzaId": 3,
            "conversationId": "c1",
            "type": 20,
            "meta": {},
            "body": {"id": "t1", "toolName": "x"},
        },
    ],
    "rap": [
        {"type": "tool_call", "tool_call_id": "t2", "thread_id": "th", "name": "x", "arguments": {}},
    ],
    "lmkit": [
        {"Id": "k2", "Name": "get_weather", "ArgumentsJson": "{}"},
    ],
}


@pytest.mark.parametrize("name", sorted(RECORDS))
@pytest.mark.parametrize("first", ["cut short", "another kind"])
def test_a_first_line_never_decides_alone(tmp_path, name, first):
    line = CUT if first == "cut short" else json.dumps({"note": "exported by a tool", "version": 2})
    path = tmp_path / "case.jsonl"
    path.write_text(line + "\n" + "".join(json.dumps(r) + "\n" for r in RECORDS[name]), encoding="utf-8")
    assert protocols.detect(str(path)).name == name
