"""Codex, Gemini and Claude Code files an attacker wrote (issue 9): wrong types, numbers past any float,
lone surrogates and nesting no parser follows cost one record at most, never the file or a traceback."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from hostile_io import HEADLESS, claude_pair, jsonl, rap_request, rap_result, run_cli

from inspector.model.details import PersistedDetail

ROOT = Path(__file__).resolve().parents[2]
SESSION = {"id": "019e0000-0000-7000-8000-00000000000a", "timestamp": "2026-05-12T10:00:00.000Z"}
HEADER = {"sessionId": "9330d511-0000-0000-0000-00000000000a", "projectHash": "ab12", "kind": "main"}


def _codex(*records: dict) -> list[dict]:
    good = [
        _envelope(
            "response_item", {"type": "function_call", "name": "shell", "arguments": "{}", "call_id": "ok"}
        ),
        _envelope(
            "response_item", {"type": "function_call_output", "call_id": "ok", "output": "Exit code: 0"}
        ),
    ]
    return [_envelope("session_meta", {**SESSION, "cli_version": "0.126.0"}), *records, *good]


def _envelope(kind: str, payload: dict) -> dict:
    return {"timestamp": "2026-05-12T10:00:01.000Z", "type": kind, "payload": payload}


def _exec(call_id: str, arguments: str) -> dict:
    payload = {"type": "function_call", "name": "exec_command", "arguments": arguments, "call_id": call_id}
    return _envelope("response_item", payload)


def _dumped(path: Path) -> dict[str, dict]:
    for command in HEADLESS:  # each one ends well, and its output is valid UTF-8 (run_cli checks)
        code, _, err = run_cli(*command, str(path))
        assert code in (0, 1), (command, err)
    _, out, _ = run_cli("dump", "--json", str(path))
    return {obj["id"]: obj for obj in map(json.loads, out.splitlines())}


def test_codex_lone_surrogates_are_replaced_where_the_record_is_read(tmp_path):
    arguments = json.dumps({"cmd": "ls \ud800"})  # a surrogate inside the arguments string too
    output = _envelope("response_item", {"type": "function_call_output", "call_id": "s1", "output": "\udc00"})
    path = jsonl(tmp_path / "rollout.jsonl", _codex(_exec("s1", arguments), output))
    calls = _dumped(path)
    assert calls["s1"]["params"] == {"cmd": "ls \ufffd"} and calls["s1"]["results"][0]["data"] == "\ufffd"
    assert "ok" in calls


def test_codex_durations_and_exit_codes_past_any_number_keep_the_call(tmp_path):
    huge_end = {"type": "exec_command_end", "call_id": "d1", "exit_code": 10**400}
    huge_end["duration"] = {"secs": 10**400, "nanos": 1e308}
    too_long = {"type": "function_call_output", "call_id": "d2", "output": "Exit code: " + "9" * 5000}
    records = [_exec("d1", "{}"), _envelope("event_msg", huge_end), _exec("d2", "{}")]
    path = jsonl(tmp_path / "rollout.jsonl", _codex(*records, _envelope("response_item", too_long)))
    calls = _dumped(path)
    assert calls["d1"]["state"] == "failed" and calls["d1"]["results"][0]["error_code"] == str(10**400)
    assert calls["d2"]["state"] == "succeeded" and "ok" in calls  # no exit code Python can read


def test_codex_arguments_nested_past_any_parser_are_kept_as_text(tmp_path):
    deep = "[" * 100_000 + "]" * 100_000
    output = _envelope("response_item", {"type": "function_call_output", "call_id": "n1", "output": deep})
    path = jsonl(tmp_path / "rollout.jsonl", _codex(_exec("n1", deep), output))
    calls = _dumped(path)
    assert calls["n1"]["params"] == deep and calls["n1"]["state"] == "succeeded"


def test_gemini_rewind_and_status_of_the_wrong_type(tmp_path):
    entry = {"id": "g1", "name": "read_file", "args": {}, "status": ["success"]}
    entry["result"] = [{"functionResponse": {"id": "g1", "name": "read_file", "response": {"error": "x"}}}]
    message = {"id": "m1", "timestamp": "2026-04-25T08:00:01.000Z", "type": "gemini", "content": ""}
    later = {**message, "id": "m2", "toolCalls": [{**entry, "id": "g2", "status": "success"}]}
    for rewind in ([], {"a": 1}):
        path = jsonl(
            tmp_path / "session.jsonl", [HEADER, {**message, "toolCalls": [entry]}, {"$rewindTo": rewind}]
        )
        assert _dumped(path) == {}  # an id that names no message: the CLI's loader keeps none
        path = jsonl(
            tmp_path / "session.jsonl",
            [HEADER, {"$rewindTo": rewind}, {**message, "toolCalls": [entry]}, later],
        )
        calls = _dumped(path)
        assert calls["g1"]["state"] == "failed" and calls["g2"]["state"] == "succeeded"


def test_claude_persisted_output_of_a_size_past_any_float_keeps_the_result(tmp_path):
    stub = f"<persisted-output>\nOutput too large ({'9' * 400}MB). Full output saved to: ../../etc/passwd\n"
    stub += "\nPreview (first 2KB):\nabc\n</persisted-output>"
    path = jsonl(tmp_path / "s.jsonl", claude_pair("x1", {"command": "ls"}, stub))
    calls = _dumped(path)
    assert calls["x1"]["state"] == "succeeded"


def test_a_saved_output_that_is_a_fifo_or_a_device_is_refused_not_waited_on(tmp_path):
    signal.alarm(10)  # the read used to wait for a writer forever
    os.mkfifo(tmp_path / "x1.txt")
    assert PersistedDetail("x1.txt", str(tmp_path / "x1.txt")).read(100) == (
        None,
        0,
        "is a FIFO (named pipe), not a regular file",
    )
    (tmp_path / "zero.txt").symlink_to("/dev/zero")
    assert PersistedDetail("zero.txt", str(tmp_path / "zero.txt")).read(100)[2] == (
        "is a character device, not a regular file"
    )
    signal.alarm(0)


def test_text_the_terminal_cannot_encode_is_escaped_not_a_traceback(tmp_path):
    path = jsonl(tmp_path / "s.jsonl", claude_pair("x1", {"command": "Zürich ☃"}, "ok"))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "ascii"}
    for command in (["stats"], ["dump"]):
        args = [sys.executable, "-m", "inspector", *command, str(path)]
        proc = subprocess.run(args, capture_output=True, env=env, timeout=60)
        assert proc.returncode == 0 and b"Traceback" not in proc.stderr, proc.stderr
    assert b"Z\\xfcrich \\u2603" in proc.stdout


def test_an_item_nested_past_the_parser_costs_only_itself_in_a_json_document(tmp_path):
    deep = "[" * 100_000 + "]" * 100_000
    records = [rap_request("c1"), rap_result("c1"), deep, rap_request("c2"), rap_result("c2")]
    array = tmp_path / "rap.json"
    array.write_text(
        "[\n" + ",\n".join(r if isinstance(r, str) else json.dumps(r) for r in records) + "\n]\n"
    )
    assert set(_dumped(array)) == {"c1", "c2"}
    entry = {"id": "g1", "name": "read_file", "args": {}, "status": "success"}
    message = {"id": "m1", "timestamp": "2026-04-25T08:00:01.000Z", "type": "gemini", "toolCalls": [entry]}
    later = {**message, "id": "m2", "toolCalls": [{**entry, "id": "g2"}]}
    messages = [json.dumps(message, indent=2), deep, json.dumps(later, indent=2)]
    document = tmp_path / "session.json"
    for extra in ("", f'"deep": {deep},\n'):  # a message too deep, then a header field too deep
        items = messages if not extra else messages[::2]
        head = json.dumps(HEADER, indent=2)[:-2]
        document.write_text(f'{head},\n{extra}"messages": [\n' + ",\n".join(items) + "\n]\n}\n")
        assert set(_dumped(document)) == {"g1", "g2"}


def test_a_one_line_gemini_document_loses_only_its_message_nested_too_deeply(tmp_path):
    """The whole ``{..., "messages": [...]}`` on one line (no indent), one message too deep: the
    messages around it are still read, and the deep one is named where it is (read with a stand-in past
    200 levels, and said)."""
    deep = "[" * 100_000 + "]" * 100_000
    entry = {"id": "g1", "name": "read_file", "args": {}, "status": "success"}
    message = {"id": "m1", "timestamp": "2026-04-25T08:00:01.000Z", "type": "gemini", "toolCalls": [entry]}
    later = {**message, "id": "m2", "toolCalls": [{**entry, "id": "g2"}]}
    document = tmp_path / "session-2026-04-25T08-00-9330d511.json"
    head = json.dumps(HEADER)[:-1]
    for extra in ("", f'"deep": {deep}, '):  # a message too deep, then a header field too deep
        items = [json.dumps(message), deep, json.dumps(later)] if not extra else [json.dumps(message)]
        document.write_text(f'{head}, {extra}"messages": [' + ", ".join(items) + "]}\n")
        assert set(_dumped(document)) == ({"g1", "g2"} if not extra else {"g1"})
    document.write_text(f'{head}, "messages": [{json.dumps(message)}, {deep}]}}\n')
    _, out, _ = run_cli("check", str(document))
    assert "line 1 messages[1]: malformed record: held a value nested 100000 levels deep" in out  # read, said


def test_a_path_with_escapes_is_named_inertly_when_it_cannot_be_opened(tmp_path):
    for path in (tmp_path / "missing\x1b]0;pwned\x07\x1b[2J", tmp_path / "folder\u202e\x9b"):
        if "folder" in path.name:
            path.mkdir()
        code, out, err = run_cli("check", str(path))
        assert code == 2 and err.startswith("inspector: ") and len(err.splitlines()) == 1
        assert not any(ch in err for ch in "\x1b\x07\u202e\x9b"), err
