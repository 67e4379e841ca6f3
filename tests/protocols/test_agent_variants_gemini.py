"""Gemini CLI variants of ../shared/reference/agent-formats.md (layouts, statuses, exit codes, displays, subagents)."""

from __future__ import annotations

from pathlib import Path

from agent_records import (
    calls,
    first,
    g_call,
    g_document,
    g_lines,
    g_msg,
    load,
    texts,
)

from inspector.model.details import BashDetail, PatchDetail, TextDetail
from inspector.model.events import Outcome
from inspector.protocols import gemini

# -- Gemini CLI -------------------------------------------------------------------------------------


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
