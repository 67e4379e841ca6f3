"""Codex CLI shell outputs and session records of ../shared/reference/agent-formats.md, one small record each.

The corpus holds 9 files; the reference describes 18 and more versions. Each test builds the records of
one variant exactly as the reference spells them (field names, text layouts) and checks what a person
looking at the session should see: the call, how it ended, its exit code, its diff, nothing malformed.
Other Codex tools and events: test_agent_variants_tools.py; Gemini CLI: test_agent_variants_gemini.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agent_records import (
    SESSION,
    call,
    calls,
    env,
    event,
    exec_text,
    first,
    load,
    meta,
    output,
    write,
)

from inspector.model.details import BashDetail
from inspector.model.events import Malformed, Marker, Message, Outcome, RawRef, Request, Result, Skipped
from inspector.model.store import CallStore
from inspector.protocols import codex

# -- Codex: shell outputs by version ---------------------------------------------------------------


def test_codex_legacy_shell_json_output_and_refusal(tmp_path: Path) -> None:
    """legacy/0.40/0.58/0.121 ``shell``: the output is JSON in a string; errors may be plain text."""
    ok = json.dumps({"output": "a.txt\nb.txt\n", "metadata": {"exit_code": 0, "duration_seconds": 0.2}})
    bad = json.dumps(
        {"output": "ls: nope: No such file\n", "metadata": {"exit_code": 2, "duration_seconds": 0.1}}
    )
    records = [
        {"id": SESSION, "timestamp": "2025-09-10T10:00:00.000Z", "instructions": None, "git": {}},
        {"record_type": "state"},
        {
            "type": "function_call",
            "name": "shell",
            "arguments": json.dumps({"command": ["ls"]}),
            "call_id": "c1",
        },
        {"type": "function_call_output", "call_id": "c1", "output": ok},
        {
            "type": "function_call",
            "name": "shell",
            "arguments": json.dumps({"command": ["ls", "nope"]}),
            "call_id": "c2",
        },  # fmt: skip
        {"type": "function_call_output", "call_id": "c2", "output": bad},
        {
            "type": "function_call",
            "name": "shell",
            "arguments": json.dumps({"command": ["rm", "-rf", "x"]}),
            "call_id": "c3",
        },  # fmt: skip
        {"type": "function_call_output", "call_id": "c3", "output": "exec command rejected by user"},
        {"type": "function_call", "name": "shell", "arguments": "{}", "call_id": "c4"},
        {"type": "function_call_output", "call_id": "c4", "output": "error: Failed to find expected lines"},
    ]
    _, store = load(write(tmp_path, records, "example.jsonl"))
    one, two, three, four = (first(store, c) for c in ("c1", "c2", "c3", "c4"))
    assert one.outcome is Outcome.SUCCESS and one.extra["duration_s"] == 0.2
    assert isinstance(one.details, BashDetail) and one.details.stdout == "a.txt\nb.txt\n"  # not the JSON
    assert two.outcome is Outcome.ERROR and two.error_code == "2"
    assert isinstance(two.details, BashDetail) and two.details.exit_code == 2
    assert three.outcome is Outcome.DENIED
    assert four.outcome is Outcome.ERROR and "Failed to find" in (four.error_message or "")


def test_codex_077_shell_command_text(tmp_path: Path) -> None:
    """0.77 ``shell_command``: ``Exit code: N\\nWall time: X seconds\\nOutput:\\n...``."""
    records = [
        meta("0.77.0"),
        call("shell_command", {"command": "pytest -q", "workdir": "/w"}, "call_a"),
        output("call_a", "Exit code: 1\nWall time: 2.5 seconds\nOutput:\n1 failed\n"),
        call("shell_command", {"command": "true", "workdir": "/w"}, "call_b", 3),
        output("call_b", "Exit code: 0\nWall time: 0.1 seconds\nOutput:\n", 4),
    ]
    _, store = load(write(tmp_path, records))
    a, b = first(store, "call_a"), first(store, "call_b")
    assert a.outcome is Outcome.ERROR and a.error_code == "1" and a.extra["duration_s"] == 2.5
    assert isinstance(a.details, BashDetail) and a.details.stdout == "1 failed\n"
    assert b.outcome is Outcome.SUCCESS
    assert calls(store)["call_a"].request.params["command"] == "pytest -q"


def test_codex_exec_command_exit_code(tmp_path: Path) -> None:
    """0.115/0.126/0.145 ``exec_command``: ``Process exited with code N``."""
    records = [
        meta("0.115.0"),
        call("exec_command", {"cmd": "make", "workdir": "/w", "yield_time_ms": 1000}, "call_a"),
        output("call_a", "Command: make\n" + exec_text(127, "make: not found\n")),
        call("exec_command", {"cmd": "ls", "workdir": "/w"}, "call_b", 3),
        output("call_b", exec_text(0, "a\n"), 4),
    ]
    _, store = load(write(tmp_path, records))
    a, b = first(store, "call_a"), first(store, "call_b")
    assert a.outcome is Outcome.ERROR and a.error_code == "127"
    assert isinstance(a.details, BashDetail) and a.details.stdout == "make: not found\n"
    assert b.outcome is Outcome.SUCCESS and b.extra["duration_s"] == 1.001


def test_codex_exec_command_still_running_is_decided_by_a_later_write_stdin(tmp_path: Path) -> None:
    """``Process running with session ID N``: the command has no exit code yet, so its call stays open
    (its output so far shown under it) until a later ``write_stdin`` output for session N says how it
    exited; a process never reported as exited stays open at the end of the file."""
    records = [
        meta("0.126.0"),
        call("exec_command", {"cmd": "python slow.py", "yield_time_ms": 1000}, "call_run"),
        output("call_run", exec_text(None, "starting\n", session=43282)),
        call("exec_command", {"cmd": "node server.js"}, "call_srv", 3),
        output("call_srv", exec_text(None, "listening on 3100\n", session=6167), 4),
        call("write_stdin", {"session_id": 43282, "chars": "", "yield_time_ms": 1000}, "call_poll", 5),
        output("call_poll", exec_text(1, "Error: path not found\n"), 6),
    ]
    events, store = load(write(tmp_path, records))
    run = first(store, "call_run")
    assert run.outcome is Outcome.ERROR and run.error_code == "1"
    assert isinstance(run.details, BashDetail) and "Error: path not found" in run.details.stdout
    assert "starting" in run.details.stdout
    server = calls(store)["call_srv"]
    assert server.result is None  # still running when the session ended: no exit code to show
    notes = [c for c in server.children if isinstance(c, Message)]
    assert notes and "session 6167" in notes[0].text and "listening on 3100" in notes[0].text
    assert first(store, "call_poll").outcome is Outcome.ERROR  # its own text says exit 1


def test_codex_exec_command_running_then_exec_command_end(tmp_path: Path) -> None:
    """0.121/0.126: the ``exec_command_end`` of a background process (after its output) decides it."""
    records = [
        meta("0.126.0"),
        call("exec_command", {"cmd": "sleep 2; false"}, "call_bg"),
        output("call_bg", exec_text(None, "", session=52365)),
        event(
            {
                "type": "exec_command_end",
                "call_id": "call_bg",
                "process_id": "52365",
                "command": ["/bin/zsh", "-lc", "sleep 2; false"],
                "cwd": "/w",
                "source": "unified_exec_startup",
                "stdout": "",
                "stderr": "",
                "aggregated_output": "boom\n",
                "exit_code": 1,
                "duration": {"secs": 2, "nanos": 5000000},
                "status": "failed",
            },
            5,
        ),  # fmt: skip
    ]
    _, store = load(write(tmp_path, records))
    bg = first(store, "call_bg")
    assert bg.outcome is Outcome.ERROR and bg.error_code == "1"
    assert bg.extra["duration_s"] == 2.005


def test_codex_exec_command_end_before_output_and_without_output(tmp_path: Path) -> None:
    """``exec_command_end`` (exit_code, duration {secs, nanos}, status failed) gives the exit code and the
    duration; one whose call never got an output item still ends the call."""
    end = {"type": "exec_command_end", "command": ["/bin/zsh", "-lc", "rg x"], "cwd": "/w", "source": "agent",
           "stdout": "", "stderr": "", "aggregated_output": "", "exit_code": 1,
           "duration": {"secs": 0, "nanos": 4500000}, "status": "failed"}  # fmt: skip
    records = [
        meta("0.121.0"),
        call("exec_command", {"cmd": "rg x"}, "call_a"),
        event({**end, "call_id": "call_a"}),
        output("call_a", exec_text(1, ""), 3),
        call("exec_command", {"cmd": "rg y"}, "call_b", 4),
        event(
            {**end, "call_id": "call_b", "exit_code": 0, "status": "completed", "aggregated_output": "y\n"}, 5
        ),
    ]
    _, store = load(write(tmp_path, records))
    a, b = first(store, "call_a"), first(store, "call_b")
    assert a.outcome is Outcome.ERROR and a.error_code == "1" and a.extra["duration_s"] == 0.0045
    assert b.outcome is Outcome.SUCCESS and isinstance(b.details, BashDetail) and b.details.stdout == "y\n"


def test_codex_user_shell_command_is_a_user_message_not_an_orphan(tmp_path: Path) -> None:
    """``source: user_shell``: a command the user typed (``!cmd``); its call_id matches no call."""
    records = [
        meta("0.126.0"),
        event(
            {
                "type": "exec_command_end",
                "call_id": "call_user1",
                "command": ["/bin/zsh", "-lc", "git status"],
                "cwd": "/w",
                "source": "user_shell",
                "stdout": "",
                "stderr": "",
                "aggregated_output": "command aborted by user",
                "exit_code": -1,
                "duration": {"secs": 1, "nanos": 0},
                "status": "failed",
            }
        ),  # fmt: skip
    ]
    events, store = load(write(tmp_path, records))
    assert store.orphans == [] and list(store.all_calls()) == []
    said = [e for e in events if isinstance(e, Message) and e.kind == "user_shell"]
    assert len(said) == 1 and said[0].sender == "user"
    assert "git status" in said[0].text and "-1" in said[0].text and "command aborted by user" in said[0].text


def test_codex_turn_aborted_cancels_open_calls(tmp_path: Path) -> None:
    records = [
        meta("0.58.0"),
        call("shell", {"command": ["sleep", "100"]}, "call_a"),
        call("shell", {"command": ["ls"]}, "call_b", 1),
        output("call_b", json.dumps({"output": "", "metadata": {"exit_code": 0, "duration_seconds": 0}})),
        event({"type": "turn_aborted", "reason": "interrupted"}, 3),
    ]
    events, store = load(write(tmp_path, records))
    assert first(store, "call_a").outcome is Outcome.CANCELED
    assert first(store, "call_b").outcome is Outcome.SUCCESS
    assert any(isinstance(e, Marker) and "interrupted" in e.text for e in events)


def test_codex_turn_aborted_while_following_cancels_when_the_next_turn_starts(tmp_path: Path) -> None:
    """Following a live rollout: the interrupted call is canceled as soon as the next turn starts, not
    left pending until a file end that never comes; its late output, if any, is not a second result."""
    records = [
        meta("0.77.0"),
        call("shell_command", {"command": "sleep 100"}, "call_a"),
        event({"type": "turn_aborted", "reason": "interrupted"}, 3),
        event({"type": "user_message", "message": "try again"}, 4),
        output("call_a", "aborted by user", 5),
    ]
    path = tmp_path / "rollout-live.jsonl"
    store = CallStore()
    for number, record in enumerate(records, 1):
        line = (json.dumps(record) + "\n").encode()
        raw = RawRef(str(path), f"line {number}", 0, len(line) - 1, protocol="codex")
        for item in codex.decode_line(line, raw):
            store.ingest(item)
        if number == 4:
            assert first(store, "call_a").outcome is Outcome.CANCELED
    assert len(calls(store)["call_a"].results) == 1 and store.orphans == []


def test_codex_compacted_and_world_state(tmp_path: Path) -> None:
    """0.145 ``compacted`` (with replacement_history items) and ``world_state`` records are not malformed,
    and the history they carry is not read as new calls."""
    history = [{"type": "function_call", "name": "shell", "arguments": "{}", "call_id": "call_old"}]
    records = [
        meta("0.145.0"),
        env("compacted", {"message": "Summary of the work so far", "replacement_history": history}, 1),
        event({"type": "context_compacted"}, 1),
        env("world_state", {"cwd": "/w", "files": []}, 2),
    ]
    events, store = load(write(tmp_path, records))
    assert list(store.all_calls()) == []
    marks = [e for e in events if isinstance(e, Marker) and e.kind == "compaction"]
    assert len(marks) == 1 and "Summary of the work so far" in marks[0].body


def test_codex_session_meta_repeated_on_resume(tmp_path: Path) -> None:
    records = [meta("0.145.0"), call("exec_command", {"cmd": "ls"}, "call_a")]
    for n in range(5):
        again = meta("0.145.0", memory_mode="on")
        again["timestamp"] = f"2026-05-12T11:0{n}:00.000Z"
        records.append(again)
    records.append(output("call_a", exec_text(0, ""), 9))
    events, store = load(write(tmp_path, records))
    assert len([e for e in events if isinstance(e, Marker) and e.kind == "session"]) == 1
    assert len(list(store.all_calls())) == 1 and first(store, "call_a").outcome is Outcome.SUCCESS
    assert all(isinstance(e, Skipped) for e in events if getattr(e, "where", "").startswith("line") and
               not isinstance(e, (Request, Result, Message)))  # fmt: skip


def test_codex_non_openai_call_ids_and_parallel_calls(tmp_path: Path) -> None:
    """0.121 with a non-OpenAI provider: ids ``functions.<name>:<n>``; up to 6 calls open at once."""
    ids = [f"functions.shell:{n}" for n in range(6)]
    records: list[Any] = [meta("0.121.0", model_provider="ollama-launch")]
    records += [call("shell", {"command": ["echo", str(n)]}, i, 1) for n, i in enumerate(ids)]
    done = [
        json.dumps({"output": f"{n}\n", "metadata": {"exit_code": n % 2, "duration_seconds": 0}})
        for n in range(6)
    ]
    records += [output(i, done[n], 2) for n, i in reversed(list(enumerate(ids)))]
    _, store = load(write(tmp_path, records))
    assert list(calls(store)) == ids
    assert [first(store, i).outcome for i in ids] == [Outcome.SUCCESS, Outcome.ERROR] * 3


def test_codex_file_ending_mid_call(tmp_path: Path) -> None:
    records = [meta("0.115.0"), call("exec_command", {"cmd": "make"}, "call_a")]
    path = write(tmp_path, records)
    with path.open("a", encoding="utf-8") as fh:
        fh.write(
            '{"timestamp":"2026-05-12T10:00:02.000Z","type":"response_item","payload":{"type":"function_c'
        )
    events = list(codex.read(str(path)))
    store = CallStore()
    store.ingest_many(events)
    assert calls(store)["call_a"].result is None
    assert len([e for e in events if isinstance(e, Malformed)]) == 1  # the cut line, and only it


def test_codex_thread_rolled_back_is_a_marker(tmp_path: Path) -> None:
    """``EventMsg::ThreadRolledBack { num_turns }`` (openai/codex, ``rollback_thread``): the calls before
    it stay (they ran), a separator row says the model forgot them; nothing malformed, no orphan."""
    records = [
        meta("0.130.0"),
        call("shell", {"command": ["ls"]}, "call_1", 1),
        output("call_1", "a\nb", 2),
        event({"type": "thread_rolled_back", "num_turns": 2}, 3),
        event({"type": "thread_rolled_back", "num_turns": "x"}, 4),
    ]
    events, store = load(write(tmp_path, records))
    assert len(list(store.all_calls())) == 1 and not store.orphans and not store.malformed
    marks = [e.text for e in events if isinstance(e, Marker) and e.kind == "rollback"]
    assert marks[0].startswith("thread rolled back (2 turns)") and marks[1].startswith(
        "thread rolled back (turns)"
    )
