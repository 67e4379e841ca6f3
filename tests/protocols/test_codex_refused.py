"""Codex calls that never ran: arguments that did not parse, or a call no handler takes, are failures.

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
