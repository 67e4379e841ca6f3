"""Codex calls that never ran are failures, and a poll that failed decides nothing but itself.

Calls that never ran: arguments that did not parse, or a call no handler takes.

codex-rs answers such a call with an output item of its own text instead of running anything
(tools/handlers ``parse_arguments``: ``failed to parse function arguments: {serde error}``, shown with
Display or, in ``shell_command``, Debug; ``failed to parse apply_patch: {err}``; the router's
``unsupported call: {name}`` and ``unsupported custom tool call: {name}``). Codex 0.40 wrote the
first of these for a corrupt ``function_call`` of the model, and the inspector said "succeeded".
"""

from __future__ import annotations

import json

import pytest
from agent_records import call, calls, env, load, meta, output, write
from hostile_io import run_cli

from inspector.model.call import State

CORRUPT = '{"command":["bash","-lc","ls -la src"],"workdir":"/home/dev/app","timeout_ms":120'
REFUSALS = {
    "display": "failed to parse function arguments: EOF while parsing an object at line 1 column 82",
    "missing field": "failed to parse function arguments: missing field `command` at line 1 column 31",
    "debug": 'failed to parse function arguments: Error("expected value", line: 1, column: 1)',
    "patch": "failed to parse apply_patch: invalid hunk at line 3, '@@ -1 +1' is not a valid hunk header",
    "unsupported": "unsupported call: browser.open",
    "unsupported custom": "unsupported custom tool call: apply_diff",
}


def rollout(tmp_path, text: str):
    bad = env(
        "response_item",
        {"type": "function_call", "name": "shell", "arguments": CORRUPT, "call_id": "call_bad"},
        1,
    )
    return write(
        tmp_path,
        [
            meta("0.40.0"),
            env("turn_context", {"cwd": "/home/dev/app", "approval_policy": "on-request", "model": "gpt-5"}),
            bad,
            output("call_bad", text, 2),
            call("shell", {"command": ["bash", "-lc", "ls src"]}, "call_ok", 3),
            output("call_ok", json.dumps({"output": "main.rs\n", "metadata": {"exit_code": 0}}), 4),
        ],
    )


@pytest.mark.parametrize("kind", sorted(REFUSALS))
def test_a_call_codex_refused_failed(tmp_path, kind):
    _, store = load(rollout(tmp_path, REFUSALS[kind]))
    found = calls(store)
    bad = found["call_bad"]
    assert bad.state() is State.FAILED
    assert bad.result.error_message == REFUSALS[kind]
    assert found["call_ok"].state() is State.SUCCEEDED


def test_the_headless_commands_say_it_failed(tmp_path):
    path = rollout(tmp_path, REFUSALS["display"])
    code, out, _ = run_cli("dump", "--json", str(path))
    rows = {row["id"]: row for row in map(json.loads, out.splitlines())}
    assert rows["call_bad"]["state"] == "failed"
    assert rows["call_ok"]["state"] == "succeeded"
    code, out, _ = run_cli("stats", "--json", str(path))
    assert json.loads(out)["states"]["failed"] == 1


def test_a_command_whose_output_merely_mentions_it_still_succeeded(tmp_path):
    text = json.dumps(
        {"output": "grep: failed to parse function arguments: in log\n", "metadata": {"exit_code": 0}}
    )
    _, store = load(rollout(tmp_path, text))
    assert calls(store)["call_bad"].state() is State.SUCCEEDED


# -- a failed poll is the poll's failure ----------------------------------------------------------------
# Codex code mode (0.128): an exec_command left running answers "Process running with session ID N"; the
# model then calls ``wait`` with ``cell_id`` N, which is no cell: code mode answers "Script failed" with
# "exec cell N not found". Only a ``write_stdin`` for session N, or the process's own exec_command_end,
# says how the process ended.


def _exec_text(code, body, session=None):
    state = (
        f"Process exited with code {code}"
        if session is None
        else f"Process running with session ID {session}"
    )
    return f"Chunk ID: 9f1c2e\nWall time: 1.0020 seconds\n{state}\nOriginal token count: 4\nOutput:\n{body}"


def _failed_wait(call_id: str, cell: str, second: int):
    text = f"Script failed\nWall time 0.0 seconds\nexec cell {cell} not found"
    return [
        call("wait", {"cell_id": cell, "yield_time_ms": 30000}, call_id, second),
        output(call_id, [{"type": "input_text", "text": text}], second + 1),
    ]


def polled(tmp_path, then: str):
    records = [
        meta("0.128.0"),
        call("exec_command", {"cmd": "cargo build --release", "yield_time_ms": 10000}, "call_build", 1),
        output("call_build", _exec_text(None, "   Compiling app v0.1.0\n", session=12556), 2),
        *_failed_wait("call_wait", "12556", 3),
    ]
    if then == "write_stdin":
        records += [
            call("write_stdin", {"session_id": 12556, "chars": "", "yield_time_ms": 30000}, "call_poll", 5),
            output("call_poll", _exec_text(0, "    Finished release\n"), 6),
        ]
    elif then == "end":
        records.append(
            env(
                "event_msg",
                {
                    "type": "exec_command_end",
                    "call_id": "call_build",
                    "process_id": "12556",
                    "exit_code": 0,
                    "stdout": "",
                    "stderr": "",
                    "aggregated_output": "    Finished release\n",
                    "duration": {"secs": 41, "nanos": 0},
                    "formatted_output": "",
                    "status": "completed",
                },
                5,
            )  # fmt: skip
        )
    return write(tmp_path, records)


@pytest.mark.parametrize("then", ["write_stdin", "end"])
def test_a_failed_wait_does_not_decide_the_exec_command_it_named(tmp_path, then):
    _, store = load(polled(tmp_path, then))
    found = calls(store)
    assert found["call_wait"].state() is State.FAILED  # the poll itself failed
    assert found["call_build"].state() is State.SUCCEEDED
    assert "Finished release" in str(found["call_build"].result.data) or then == "end"


def test_with_nothing_else_the_exec_command_stays_open(tmp_path):
    _, store = load(polled(tmp_path, "nothing"))
    found = calls(store)
    assert found["call_build"].result is None
    code, out, _ = run_cli("dump", "--json", str(polled(tmp_path, "nothing")))
    rows = {row["id"]: row for row in map(json.loads, out.splitlines())}
    assert rows["call_build"]["state"] != "failed"


def test_a_cell_and_a_session_of_the_same_number_are_polled_apart(tmp_path):
    js = 'const r = await tools.exec_command({cmd: "npm test"});'
    records = [
        meta("0.128.0"),
        env(
            "response_item",
            {
                "type": "custom_tool_call",
                "name": "exec",
                "input": js,
                "call_id": "call_cell",
                "status": "completed",
            },
            1,
        ),  # fmt: skip
        output(
            "call_cell",
            [{"type": "input_text", "text": "Script running with cell ID 7\nWall time 10 seconds"}],
            2,
            kind="custom_tool_call_output",
        ),  # fmt: skip
        call("exec_command", {"cmd": "sleep 5"}, "call_proc", 3),
        output("call_proc", _exec_text(None, "", session=7), 4),
        call("write_stdin", {"session_id": 7, "chars": ""}, "call_poll", 5),
        output("call_poll", _exec_text(3, "boom\n"), 6),
        call("wait", {"cell_id": 7}, "call_wait", 7),
        output("call_wait", [{"type": "input_text", "text": "Script completed\nWall time 3 seconds"}], 8),
    ]
    _, store = load(write(tmp_path, records))
    found = calls(store)
    assert found["call_proc"].state() is State.FAILED and found["call_proc"].result.error_code == "3"
    assert found["call_cell"].state() is State.SUCCEEDED
