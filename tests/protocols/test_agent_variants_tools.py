"""Codex CLI tools and events of ../shared/reference/agent-formats.md beside the shell: one small record each."""

from __future__ import annotations

import json
from pathlib import Path

from agent_records import (
    SESSION,
    call,
    calls,
    custom,
    env,
    event,
    first,
    load,
    meta,
    output,
    write,
)

from inspector.model.details import DisplayDetail, PatchDetail
from inspector.model.events import Outcome

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
    assert (got.error_message or "").startswith("automatic review: denied (high risk): Sends data")


def test_codex_shortened_output_keeps_its_failure(tmp_path: Path) -> None:
    """0.4x-0.5x ``shell``: an output Codex shortened for the model starts ``Total output lines: N`` and a
    blank line; the failure text after it (``failed in sandbox: ...``, ``error: ...``, an abort) still ends
    the call badly (real case: Maidang1/madinah 0.46, vitest failing in the sandbox read as succeeded)."""
    records = [
        meta("0.46.0"),
        call("shell", {"command": ["bash", "-lc", "pnpm exec vitest run"]}, "call_s"),
        output("call_s", "Total output lines: 346\n\nfailed in sandbox: FAIL list.test.tsx\n 1 failed", 2),
        call("shell", {"command": ["bash", "-lc", "cat x"]}, "call_e", 3),
        output("call_e", "Total output lines: 900\r\n\r\nerror: Failed to find expected lines", 4),
        call("shell", {"command": ["bash", "-lc", "make"]}, "call_a", 5),
        output("call_a", "Total output lines: 12\n\naborted by user", 6),
        call("shell", {"command": ["bash", "-lc", "seq 1000"]}, "call_ok", 7),
        output("call_ok", "Total output lines: 1000\n\n1\n2\n3\nerror: not at the start", 8),
    ]
    _, store = load(write(tmp_path, records))
    failed = first(store, "call_s")
    assert failed.outcome is Outcome.ERROR and failed.error_message.startswith("failed in sandbox")
    assert first(store, "call_e").outcome is Outcome.ERROR
    assert first(store, "call_a").outcome is Outcome.CANCELED
    assert first(store, "call_ok").outcome is Outcome.SUCCESS
