"""Every Codex CLI / Gemini CLI variant ../shared/reference/agent-formats.md describes, one small record each.

The corpus holds 9 files; the reference describes 18 and more versions. Each test builds the records of
one variant exactly as the reference spells them (field names, text layouts) and checks what a person
looking at the session should see: the call, how it ended, its exit code, its diff, nothing malformed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from inspector.model.call import Call
from inspector.model.details import BashDetail, DisplayDetail, PatchDetail, TextDetail
from inspector.model.events import Event, Malformed, Marker, Message, Outcome, Request, Result, Skipped
from inspector.model.store import CallStore
from inspector.protocols import codex, detect, gemini

SESSION = "019e0000-0000-7000-8000-000000000001"


def env(kind: str, payload: dict[str, Any], second: int = 0) -> dict[str, Any]:
    return {"timestamp": f"2026-05-12T10:00:{second:02d}.000Z", "type": kind, "payload": payload}


def meta(version: str = "0.126.0", **more: Any) -> dict[str, Any]:
    payload = {"id": SESSION, "timestamp": "2026-05-12T10:00:00.000Z", "cwd": "/w", "originator": "codex_cli_rs",
               "cli_version": version, "source": "cli", "model_provider": "openai", **more}  # fmt: skip
    return env("session_meta", payload)


def call(name: str, args: dict[str, Any], call_id: str, second: int = 1) -> dict[str, Any]:
    payload = {"type": "function_call", "name": name, "arguments": json.dumps(args), "call_id": call_id}
    return env("response_item", payload, second)


def custom(name: str, text: str, call_id: str, second: int = 1) -> dict[str, Any]:
    payload = {
        "type": "custom_tool_call",
        "name": name,
        "input": text,
        "call_id": call_id,
        "status": "completed",
    }
    return env("response_item", payload, second)


def output(call_id: str, out: Any, second: int = 2, kind: str = "function_call_output") -> dict[str, Any]:
    return env("response_item", {"type": kind, "call_id": call_id, "output": out}, second)


def event(payload: dict[str, Any], second: int = 2) -> dict[str, Any]:
    return env("event_msg", payload, second)


def write(tmp_path: Path, records: list[Any], name: str = "rollout-2026-05-12T10-00-00-x.jsonl") -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def load(path: Path, module: Any = codex) -> tuple[list[Event], CallStore]:
    assert detect(str(path)).NAME == module.NAME
    events = list(module.read(str(path)))
    store = CallStore()
    store.ingest_many(events)
    store.end()
    assert not [e for e in events if isinstance(e, Malformed)], [
        e for e in events if isinstance(e, Malformed)
    ]
    return events, store


def calls(store: CallStore) -> dict[str, Call]:
    return {c.call_id: c for c in store.all_calls()}


def first(store: CallStore, call_id: str) -> Result:
    result = calls(store)[call_id].result
    assert result is not None, f"{call_id} has no result"
    return result


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


def exec_text(code: int | None, body: str, session: int | None = None) -> str:
    state = (
        f"Process exited with code {code}"
        if session is None
        else f"Process running with session ID {session}"
    )
    return f"Chunk ID: 1a2b3c\nWall time: 1.0010 seconds\n{state}\nOriginal token count: 3\nOutput:\n{body}"


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


# -- Codex: other tools -----------------------------------------------------------------------------


def test_codex_view_image_list_output(tmp_path: Path) -> None:
    image = [{"type": "input_image", "image_url": "data:image/jpeg;base64," + "A" * 5000}]
    records = [
        meta("0.115.0"),
        call("view_image", {"path": "/w/shot.png"}, "call_i"),
        output("call_i", image),
    ]
    _, store = load(write(tmp_path, records))
    got = first(store, "call_i")
    assert got.outcome is Outcome.SUCCESS
    assert "base64" not in json.dumps(got.data) and "image" in str(got.data)


def test_codex_code_mode_exec_and_wait(tmp_path: Path) -> None:
    """0.145 code mode: ``exec`` (custom tool, JavaScript) and ``wait``; list outputs."""
    js = 'const r = await tools.exec_command({cmd: "npm test"});'
    item = json.dumps({"chunk_id": "ab", "wall_time_seconds": 1.2, "exit_code": 0, "output": "ok"})
    records = [
        meta("0.145.0"),
        custom("exec", js, "call_f"),
        output(
            "call_f",
            [
                {"type": "input_text", "text": "Script failed\nWall time 0.3 seconds"},
                {"type": "input_text", "text": item},
            ],
            kind="custom_tool_call_output",
        ),  # fmt: skip
        custom("exec", js, "call_ok", 3),
        output(
            "call_ok",
            [
                {"type": "input_text", "text": "Script completed\nWall time 1.3 seconds"},
                {"type": "input_text", "text": item.replace('"exit_code": 0', '"exit_code": 2')},
            ],
            4,
            kind="custom_tool_call_output",
        ),  # fmt: skip
        custom("exec", js, "call_run", 5),
        output(
            "call_run",
            [{"type": "input_text", "text": "Script running with cell ID 7\nWall time 10 seconds"}],
            6,
            kind="custom_tool_call_output",
        ),  # fmt: skip
        call("wait", {"cell_id": 7}, "call_wait", 7),
        output(
            "call_wait",
            [
                {"type": "input_text", "text": "Script completed\nWall time 3 seconds"},
                {"type": "input_text", "text": item},
            ],
            8,
        ),  # fmt: skip
    ]
    _, store = load(write(tmp_path, records))
    failed, done = first(store, "call_f"), first(store, "call_ok")
    assert failed.outcome is Outcome.ERROR and "Script failed" in (failed.error_message or "")
    # the script completed: a command inside it exiting 2 is the script's business, shown in the text
    assert done.outcome is Outcome.SUCCESS and '"exit_code": 2' in str(done.data)
    assert first(store, "call_run").outcome is Outcome.SUCCESS  # decided by the later wait
    assert first(store, "call_wait").outcome is Outcome.SUCCESS


def test_codex_patch_apply_end_changes_are_a_diff(tmp_path: Path) -> None:
    """0.126/0.145 ``patch_apply_end``: ``changes`` (add content / update unified_diff) as a real diff;
    a 0.145 ``exec-<uuid>`` id (a patch applied from code mode) goes to the ``exec`` call running it."""
    patch = "*** Begin Patch\n*** Add File: a.py\n+x = 1\n*** End Patch"
    changes = {"/w/a.py": {"type": "add", "content": "x = 1\n"},
               "/w/b.py": {"type": "update", "unified_diff": "@@ -1,2 +1,2 @@\n a\n-b\n+c\n", "move_path": None}}  # fmt: skip
    records = [
        meta("0.126.0"),
        custom("apply_patch", patch, "call_p"),
        event(
            {
                "type": "patch_apply_end",
                "call_id": "call_p",
                "turn_id": "t",
                "stdout": "Success.",
                "stderr": "",
                "success": True,
                "changes": changes,
            }
        ),  # fmt: skip
        output(
            "call_p",
            json.dumps(
                {
                    "output": "Success. Updated the following files:\nA a.py\nM b.py\n",
                    "metadata": {"exit_code": 0, "duration_seconds": 0.0},
                }
            ),
            3,
            kind="custom_tool_call_output",
        ),  # fmt: skip
        custom("exec", "await tools.apply_patch(`" + patch + "`)", "call_x", 4),
        event(
            {
                "type": "patch_apply_end",
                "call_id": "exec-0c9e4d1e-1111-4222-8333-444455556666",
                "turn_id": "t",
                "stdout": "",
                "stderr": "",
                "success": True,
                "changes": {"/w/b.py": changes["/w/b.py"]},
            },
            5,
        ),  # fmt: skip
        output(
            "call_x",
            [{"type": "input_text", "text": "Script completed\nWall time 0.1 seconds"}],
            6,
            kind="custom_tool_call_output",
        ),  # fmt: skip
    ]
    _, store = load(write(tmp_path, records))
    assert store.orphans == []
    p = first(store, "call_p")
    assert p.outcome is Outcome.SUCCESS and p.has_diff and isinstance(p.details, DisplayDetail)
    paths = [d.path for s in p.details.segments for d in s.diffs]
    assert paths == ["/w/a.py", "/w/b.py"]
    x = first(store, "call_x")
    assert x.has_diff and isinstance(x.details, PatchDetail) and x.details.path == "/w/b.py"
    assert [line.kind for h in x.details.hunks for line in h.lines] == [" ", "-", "+"]


def test_codex_apply_patch_outputs_by_version(tmp_path: Path) -> None:
    """0.77+ ``apply_patch`` custom tool: a rejected patch fails; 0.145's text output ``Exit code: 0 ...``
    succeeds and shows the patch as a diff."""
    patch = "*** Begin Patch\n*** Update File: a.py\n@@\n-x\n+y\n*** End Patch"
    records = [
        meta("0.77.0"),
        custom("apply_patch", patch, "call_p"),
        output(
            "call_p",
            "apply_patch verification failed: Failed to find expected lines in a.py",
            3,
            kind="custom_tool_call_output",
        ),  # fmt: skip
        custom("apply_patch", patch, "call_q", 4),
        output(
            "call_q",
            "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nSuccess. Updated the following files:\nM a.py\n",
            5,
            kind="custom_tool_call_output",
        ),  # fmt: skip
    ]
    _, store = load(write(tmp_path, records))
    assert first(store, "call_p").outcome is Outcome.ERROR
    q = first(store, "call_q")
    assert q.outcome is Outcome.SUCCESS and q.has_diff and isinstance(q.details, PatchDetail)
    assert q.data.startswith("Success.")


def test_codex_mcp_tool_call_end_and_mcp_errors(tmp_path: Path) -> None:
    """0.121 ``mcp_tool_call_end`` (result Ok content, duration); legacy MCP tools ``server__tool``
    whose output is a JSON list of content items, or ``tool call error: ...``."""
    records = [
        meta("0.121.0"),
        call("context7__get-library-docs", {"id": "/react"}, "call_m"),
        event(
            {
                "type": "mcp_tool_call_end",
                "call_id": "call_m",
                "invocation": {
                    "server": "context7",
                    "tool": "get-library-docs",
                    "arguments": {"id": "/react"},
                },
                "duration": {"secs": 1, "nanos": 250000000},
                "result": {"Ok": {"content": [{"type": "text", "text": "React docs"}]}},
            }
        ),  # fmt: skip
        output("call_m", json.dumps([{"type": "text", "text": "React docs"}]), 3),
        call("task-master-ai__next_task", {}, "call_e", 4),
        output("call_e", "tool call error: tool call failed for `task-master-ai/next_task`", 5),
        call("memory__add_observations", {}, "call_only_end", 6),
        event(
            {
                "type": "mcp_tool_call_end",
                "call_id": "call_only_end",
                "invocation": {"server": "memory", "tool": "add_observations"},
                "duration": {"secs": 0, "nanos": 1000000},
                "result": {"Err": "connection closed"},
            },
            7,
        ),  # fmt: skip
    ]
    _, store = load(write(tmp_path, records))
    m = first(store, "call_m")
    assert m.outcome is Outcome.SUCCESS and m.extra["duration_s"] == 1.25 and m.data == "React docs"
    assert first(store, "call_e").outcome is Outcome.ERROR
    only = first(store, "call_only_end")
    assert only.outcome is Outcome.ERROR and "connection closed" in (only.error_message or "")


def test_codex_web_search_call_and_end(tmp_path: Path) -> None:
    """0.126: ``web_search_end`` (call_id ws_..., query) comes just before the ``web_search_call`` item,
    which has no call_id and no output."""
    action = {"type": "search", "query": "codex rollout", "queries": ["codex rollout"]}
    records = [
        meta("0.126.0"),
        event(
            {"type": "web_search_end", "call_id": "ws_0585923a", "query": "codex rollout", "action": action}
        ),
        env("response_item", {"type": "web_search_call", "status": "completed", "action": action}, 2),
    ]
    _, store = load(write(tmp_path, records))
    found = calls(store)
    assert list(found) == ["ws_0585923a"]
    assert (
        found["ws_0585923a"].tool == "web_search" and first(store, "ws_0585923a").outcome is Outcome.SUCCESS
    )


def test_codex_spawn_and_wait_agent(tmp_path: Path) -> None:
    """0.126 multi-agent: ``spawn_agent`` / ``wait_agent`` with ``collab_agent_spawn_end`` /
    ``collab_waiting_end`` events; the new thread is named on the spawn's result."""
    records = [
        meta("0.126.0"),
        call("spawn_agent", {"agent_type": "default", "message": "review"}, "call_s"),
        event(
            {
                "type": "collab_agent_spawn_end",
                "call_id": "call_s",
                "sender_thread_id": SESSION,
                "new_thread_id": "019e-child",
                "new_agent_nickname": "Russell",
                "new_agent_role": "default",
                "prompt": "review",
            }
        ),  # fmt: skip
        output("call_s", json.dumps({"agent_id": "019e-child", "nickname": "Russell"}), 3),
        call("wait_agent", {"targets": ["019e-child"], "timeout_ms": 60000}, "call_w", 4),
        event(
            {
                "type": "collab_waiting_end",
                "sender_thread_id": SESSION,
                "call_id": "call_w",
                "agent_statuses": [{"thread_id": "019e-child", "status": {"completed": "done"}}],
            },
            5,
        ),  # fmt: skip
        output("call_w", json.dumps({"status": {"019e-child": {"completed": "done"}}}), 6),
    ]
    _, store = load(write(tmp_path, records))
    spawn = first(store, "call_s")
    assert spawn.outcome is Outcome.SUCCESS and spawn.extra["new_thread_id"] == "019e-child"
    assert first(store, "call_w").outcome is Outcome.SUCCESS


def test_codex_guardian_assessment(tmp_path: Path) -> None:
    """0.126 ``guardian_assessment`` (automatic review): its verdict and rationale go on the command's
    result; a refused command is denied."""
    action = {"type": "command", "source": "unified_exec", "command": "/bin/zsh -lc 'curl x'", "cwd": "/w"}
    records = [
        meta("0.126.0"),
        call("exec_command", {"cmd": "curl x"}, "call_g"),
        event(
            {
                "type": "guardian_assessment",
                "id": "g1",
                "target_item_id": "call_g",
                "turn_id": "t",
                "status": "in_progress",
                "action": action,
            }
        ),  # fmt: skip
        event(
            {
                "type": "guardian_assessment",
                "id": "g1",
                "target_item_id": "call_g",
                "turn_id": "t",
                "status": "denied",
                "risk_level": "high",
                "rationale": "Sends data to an unknown host.",
                "decision_source": "agent",
                "action": action,
            },
            3,
        ),  # fmt: skip
        output(
            "call_g",
            'exec_command failed for `curl x`: CreateProcess { message: "Rejected(\\"This action '
            'was rejected due to unacceptable risk.\\")" }',
            4,
        ),  # fmt: skip
    ]
    _, store = load(write(tmp_path, records))
    got = first(store, "call_g")
    assert got.outcome is Outcome.DENIED
    assert "Sends data to an unknown host." in got.extra["review"]


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


# -- Gemini CLI -------------------------------------------------------------------------------------

G_HEADER = {"sessionId": "9330d511-aaaa-bbbb-cccc-000000000001", "projectHash": "ab12", "startTime":
            "2026-04-25T08:00:00.000Z", "lastUpdated": "2026-04-25T08:00:09.000Z", "kind": "main"}  # fmt: skip


def g_call(call_id: str, name: str, args: dict[str, Any], status: str, response: dict[str, Any] | None,
           display: Any = None, second: int = 2) -> dict[str, Any]:  # fmt: skip
    entry: dict[str, Any] = {"id": call_id, "name": name, "args": args, "status": status,
                             "timestamp": f"2026-04-25T08:00:{second:02d}.000Z", "resultDisplay": display,
                             "displayName": name, "description": "", "renderOutputAsMarkdown": True}  # fmt: skip
    if response is not None:
        entry["result"] = [{"functionResponse": {"id": call_id, "name": name, "response": response}}]
    return entry


def g_msg(
    message_id: str, kind: str, content: Any, calls: list[Any] | None = None, second: int = 1
) -> dict[str, Any]:
    message: dict[str, Any] = {"id": message_id, "timestamp": f"2026-04-25T08:00:{second:02d}.000Z", "type": kind,
                               "content": content}  # fmt: skip
    if kind == "gemini":
        message.update(thoughts=[], tokens={"input": 1, "output": 1, "cached": 0, "thoughts": 0, "tool": 0,
                                            "total": 2}, model="gemini-2.5-pro")  # fmt: skip
    if calls is not None:
        message["toolCalls"] = calls
    return message


def g_document(tmp_path: Path, messages: list[Any], name: str = "session-2026-04-25T08-00-9330d511.json",
               **more: Any) -> Path:  # fmt: skip
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({**G_HEADER, **more, "messages": messages}, indent=2), encoding="utf-8")
    return path


def g_lines(tmp_path: Path, records: list[Any]) -> Path:
    return write(tmp_path, [G_HEADER, *records], "session-2026-04-25T08-00-9330d511.jsonl")


def texts(events: list[Event]) -> list[tuple[str, str]]:
    return [(e.kind, e.text) for e in events if isinstance(e, Message)]


def test_gemini_json_document_and_jsonl_layouts_and_both_user_content_shapes(tmp_path: Path) -> None:
    """JSON document (Dec 2025/Jan 2026: user content a string) and JSON Lines (Apr 2026: a list of parts)."""
    ls = g_call("run_shell_command-1766612345678-3f9a2b", "run_shell_command", {"command": "ls"}, "success",
                {"output": "Command: ls\nDirectory: (root)\nOutput: a\nError: (none)\nExit Code: 0\nSignal: 0"})  # fmt: skip
    doc = g_document(
        tmp_path / "a", [g_msg("m1", "user", "list the files"), g_msg("m2", "gemini", "", [ls], 2)]
    )
    events, store = load(doc, gemini)
    assert texts(events) == [("user", "list the files")]
    assert first(store, ls["id"]).outcome is Outcome.SUCCESS
    parts = [{"text": "list the "}, {"text": "files"}]
    lines = g_lines(tmp_path / "b", [g_msg("m1", "user", parts), g_msg("m2", "gemini", "", [ls], 2)])
    events, store = load(lines, gemini)
    assert texts(events) == [("user", "list the \nfiles")]
    assert list(calls(store)) == [ls["id"]]


def test_gemini_jsonl_set_and_a_message_rewritten_by_id(tmp_path: Path) -> None:
    """The same message id written again (first without, then with toolCalls): the last one wins."""
    running = g_call("read_file_1777104000000_0", "read_file", {"file_path": "/w/a"}, "executing", None)
    done = g_call("read_file_1777104000000_0", "read_file", {"file_path": "/w/a"}, "success", {"output": "x"})
    records = [
        g_msg("m2", "gemini", "reading"),
        {"$set": {"lastUpdated": "2026-04-25T08:00:03.000Z"}},
        g_msg("m2", "gemini", "reading", [running]),
        g_msg("m2", "gemini", "reading", [done]),
        {"$set": {"lastUpdated": "2026-04-25T08:00:05.000Z"}},
    ]
    events, store = load(g_lines(tmp_path, records), gemini)
    assert list(calls(store)) == ["read_file_1777104000000_0"] and store.duplicate_results == 0
    assert first(store, "read_file_1777104000000_0").outcome is Outcome.SUCCESS
    assert texts(events) == [("assistant", "reading")]


def test_gemini_statuses_and_response_shapes(tmp_path: Path) -> None:
    """success/error/cancelled; response {output}, {error}, both, {} (an MCP call with no output)."""
    denied = "[Operation Cancelled] Reason: User denied execution."
    cancelled = "[Operation Cancelled] Reason: User cancelled the operation."
    entries = [
        g_call("a1b2c3d4", "read_file", {"file_path": "/w/a"}, "success", {"output": "text"}),
        g_call("e5f6g7h8", "read_file", {"file_path": "/w/b"}, "error", {"error": "File not found: /w/b"}),
        g_call("i9j0k1l2", "run_shell_command", {"command": "rm -rf /"}, "cancelled", {"error": denied}),
        g_call("m3n4o5p6", "run_shell_command", {"command": "sleep 9"}, "cancelled", {"error": cancelled}),
        g_call(
            "q7r8s9t0",
            "write_file",
            {"file_path": "/w/c"},
            "error",
            {"output": "partial", "error": "disk full"},
        ),
        g_call("u1v2w3x4", "mcp_postgresql_execute_sql", {"sql": "select 1"}, "success", {}),
    ]
    _, store = load(g_lines(tmp_path, [g_msg("m1", "gemini", "", entries)]), gemini)
    got = {i: first(store, i) for i in calls(store)}
    assert [r.outcome for r in got.values()] == [Outcome.SUCCESS, Outcome.ERROR, Outcome.DENIED, Outcome.CANCELED,
                                                  Outcome.ERROR, Outcome.SUCCESS]  # fmt: skip
    assert "File not found" in (got["e5f6g7h8"].error_message or "")
    assert "disk full" in (got["q7r8s9t0"].error_message or "")


def test_gemini_shell_exit_code_only_in_the_text(tmp_path: Path) -> None:
    """Shell calls keep status success when the command fails: older layout ``Exit Code: N`` always
    (0 included), newer layout ``Exit Code: N`` only when N is not 0."""
    old_ok = "Command: ls\nDirectory: (root)\nOutput: a\nError: (none)\nExit Code: 0\nSignal: (none)"
    old_bad = (
        "Command: make\nDirectory: (root)\nOutput: (empty)\nError: make: not found\nExit Code: 127\nSignal: 0"
    )
    new_ok = "Output: built"
    new_bad = "Output: fatal: not a git repository\nExit Code: 128\nProcess Group PGID: 4242"
    entries = [
        g_call(f"run_shell_command_1777104000000_{n}", "run_shell_command", {"command": "x"}, "success", {"output": out})
        for n, out in enumerate((old_ok, old_bad, new_ok, new_bad))
    ]  # fmt: skip
    _, store = load(g_lines(tmp_path, [g_msg("m1", "gemini", "", entries)]), gemini)
    results = [first(store, e["id"]) for e in entries]
    assert [r.outcome for r in results] == [Outcome.SUCCESS, Outcome.ERROR, Outcome.SUCCESS, Outcome.ERROR]
    assert [r.error_code for r in results] == [None, "exit 127", None, "exit 128"]
    assert isinstance(results[3].details, BashDetail) and results[3].details.exit_code == 128


def test_gemini_result_display_shapes(tmp_path: Path) -> None:
    """``resultDisplay``: {fileDiff,...} (a real diff), a string, {summary, files}, {summary, matches},
    and a shell's list of lines of styled spans: each shown as what it says, never as a raw dict."""
    diff = ("Index: a.py\n===================================================================\n--- a.py\tCurrent\n"
            "+++ a.py\tProposed\n@@ -1,2 +1,2 @@\n x = 1\n-y = 2\n+y = 3\n")  # fmt: skip
    file_diff = {"fileDiff": diff, "fileName": "a.py", "filePath": "/w/a.py", "originalContent": "x = 1\ny = 2\n",
                 "newContent": "x = 1\ny = 3\n", "isNewFile": False,
                 "diffStat": {"model_added_lines": 1, "model_removed_lines": 1}}  # fmt: skip
    files = {"summary": "Listed 2 item(s).", "files": ["a.py", "[DIR] src"]}
    matches = {
        "summary": "Found 1 match",
        "matches": [{"filePath": "a.py", "lineNumber": 2, "line": "y = 3"}],
    }
    spans = [[{"text": "total 8", "bold": False, "italic": False, "fg": "", "bg": ""}],
             [{"text": "-rw-r--r-- ", "fg": "#aaa"}, {"text": "a.py", "bold": True}]]  # fmt: skip
    entries = [
        g_call("replace_1_0", "replace", {"file_path": "/w/a.py"}, "success", {"output": "ok"}, file_diff),
        g_call("read_1_1", "read_file", {"file_path": "/w/a.py"}, "success", {"output": "x"}, "Read 2 lines"),
        g_call(
            "ls_1_2", "list_directory", {"dir_path": "/w"}, "success", {"output": "a.py\n[DIR] src"}, files
        ),
        g_call(
            "grep_1_3", "grep_search", {"pattern": "y ="}, "success", {"output": "a.py:2: y = 3"}, matches
        ),
        g_call(
            "sh_1_4",
            "run_shell_command",
            {"command": "ls -l"},
            "success",
            {"output": "Output: total 8"},
            spans,
        ),
        g_call("bg_1_5", "list_background_processes", {}, "success", {"output": "none"}, spans),
    ]
    _, store = load(g_lines(tmp_path, [g_msg("m1", "gemini", "", entries)]), gemini)
    got = {i: first(store, i) for i in calls(store)}
    patch = got["replace_1_0"]
    assert patch.has_diff and isinstance(patch.details, PatchDetail)
    assert [line.kind for h in patch.details.hunks for line in h.lines] == [" ", "-", "+"]
    assert isinstance(got["read_1_1"].details, TextDetail) and got["read_1_1"].details.text == "Read 2 lines"
    listed = got["ls_1_2"].details
    assert isinstance(listed, TextDetail) and listed.text == "Listed 2 item(s).\na.py\n[DIR] src"
    grep = got["grep_1_3"].details
    assert isinstance(grep, TextDetail) and grep.text == "Found 1 match\na.py:2: y = 3"
    assert isinstance(got["sh_1_4"].details, BashDetail)
    styled = got["bg_1_5"].details
    assert isinstance(styled, TextDetail) and styled.text == "total 8\n-rw-r--r-- a.py"


def test_gemini_subagent_file_and_delegate_to_agent(tmp_path: Path) -> None:
    """``kind: subagent`` files live in ``chats/<parentSessionId>/<id>.json``, their ``sessionId`` is the
    short file id and call ids are ``<subagentId>#<turn>-<n>``; the parent's ``delegate_to_agent`` call."""
    parent = "9330d511-aaaa-bbbb-cccc-000000000001"
    delegate = g_call("delegate_to_agent-1766612345678-a1b2c3", "delegate_to_agent",
                      {"agent_name": "codebase_investigator", "objective": "find the parser"}, "success",
                      {"output": "Subagent codebase_investigator finished: the parser is in src/p.ts"})  # fmt: skip
    doc = g_document(tmp_path / "chats", [g_msg("m1", "gemini", "", [delegate])])
    _, store = load(doc, gemini)
    assert calls(store)[delegate["id"]].request.summary == "find the parser"
    assert first(store, delegate["id"]).outcome is Outcome.SUCCESS
    sub = g_call("k3x9q2#0-0", "grep_search", {"pattern": "parse"}, "success", {"output": "src/p.ts:1"})
    path = g_document(tmp_path / "chats" / parent, [g_msg("m1", "user", [{"text": "find the parser"}]),
                      g_msg("m2", "gemini", "", [sub], 2)], name="k3x9q2.json", kind="subagent",
                      sessionId="k3x9q2", directories=["/w"])  # fmt: skip
    events, store = load(path, gemini)
    assert (
        calls(store)["k3x9q2#0-0"].group == "k3x9q2" and first(store, "k3x9q2#0-0").outcome is Outcome.SUCCESS
    )


def test_gemini_info_and_error_messages(tmp_path: Path) -> None:
    records = [
        g_msg("m1", "info", "Request cancelled."),
        g_msg("m2", "error", "[API Error: 429 quota]", second=2),
    ]
    events, _ = load(g_lines(tmp_path, records), gemini)
    assert texts(events) == [("info", "Request cancelled."), ("error", "[API Error: 429 quota]")]
