"""Paths in a Claude session's summaries are shown relative to the session's working directory."""

from __future__ import annotations

from claude_records_factory import call, write

from inspector.model import Request
from inspector.protocols import claude


def summaries(tmp_path, *calls) -> dict[str, str]:
    path = write(tmp_path / "s.jsonl", [r for c in calls for r in c])  # the factory's records have cwd /w
    return {e.call_id: e.summary for e in claude.read(str(path)) if isinstance(e, Request)}


def test_paths_under_the_working_directory_are_relative_others_stay_whole(tmp_path):
    found = summaries(
        tmp_path,
        call("t1", "Read", {"file_path": "/w/src/app.py"}),
        call("t2", "Edit", {"file_path": "/etc/hosts", "old_string": "a", "new_string": "b"}),
        call("t3", "Grep", {"pattern": "TODO", "path": "/w"}),
        call("t4", "Glob", {"pattern": "**/*.py", "path": "/w/tests"}),
        call("t5", "Read", {"file_path": "/wx/other.py"}),
        call("t6", "Bash", {"command": "cat /w/src/app.py"}),
    )
    assert found == {
        "t1": "src/app.py",
        "t2": "/etc/hosts",
        "t3": "TODO  in .",
        "t4": "**/*.py  in tests",
        "t5": "/wx/other.py",
        "t6": "cat /w/src/app.py",  # a command is shown as it was typed
    }


def test_a_windows_session_is_relative_too_whatever_the_separator_or_case(tmp_path):
    cwd = {"cwd": "C:\\Users\\Max\\Desktop\\TokenBBQ"}  # as Claude Code on Windows writes it
    found = summaries(
        tmp_path,
        call("w1", "Read", {"file_path": "C:\\Users\\Max\\Desktop\\TokenBBQ\\src\\app.ts"}, **cwd),
        call("w2", "Edit", {"file_path": "c:/users/max/desktop/tokenbbq/README.md"}, **cwd),
        call("w3", "Grep", {"pattern": "TODO", "path": "C:\\Users\\Max\\Desktop\\TokenBBQ"}, **cwd),
        call("w4", "Read", {"file_path": "C:\\Users\\Max\\Desktop\\TokenBBQ2\\a.ts"}, **cwd),
        call("w5", "Read", {"file_path": "D:\\data\\a.csv"}, **cwd),
        call("w6", "Read", {"file_path": "/etc/hosts"}, **cwd),
    )
    assert found == {
        "w1": "src\\app.ts",
        "w2": "README.md",
        "w3": "TODO  in .",
        "w4": "C:\\Users\\Max\\Desktop\\TokenBBQ2\\a.ts",  # a sibling whose name starts the same
        "w5": "D:\\data\\a.csv",
        "w6": "/etc/hosts",
    }
