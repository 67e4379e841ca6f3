"""Finding Claude Code sessions in a folder: newest first, subagent files left out, tool calls counted."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from inspector.model import CallStore
from inspector.sources import claude_scan, claude_sessions
from inspector.sources.claude_sessions import SessionInfo, count_tool_calls, default_dir, find_sessions
from inspector.sources.files import load

ROOT = Path(__file__).resolve().parents[2]
CLAUDE = ROOT / ".." / "shared" / "corpus" / "claude"
USE = '{"type":"tool_use","id":"t%d","name":"Bash","input":{}}'


def session(path: Path, calls: int, mtime: float, first: int = 0) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    body = ",".join(USE % i for i in range(first, first + calls))
    path.write_text('{"type":"assistant","message":{"content":[' + body + "]}}\n")
    os.utime(path, (mtime, mtime))
    return path


def test_sessions_newest_first_without_subagent_files(tmp_path):
    projects = tmp_path / "projects"
    old = session(projects / "-home-a" / "s1.jsonl", 2, 1_000)
    new = session(projects / "-home-b" / "s2.jsonl", 0, 3_000)
    mid = session(projects / "-home-a" / "s3.jsonl", 5, 2_000)
    session(projects / "-home-a" / "agent-1234.jsonl", 9, 4_000)
    session(projects / "-home-a" / "s1" / "subagents" / "agent-abcd.jsonl", 9, 5_000, first=100)
    (projects / "-home-a" / "notes.txt").write_text("x")
    found = find_sessions(str(tmp_path))
    lone = found.pop(0)  # a 2.0.x agent file beside the sessions that names no session: a row, marked
    assert lone.path == str(projects / "-home-a" / "agent-1234.jsonl") and lone.tool_calls == 9
    assert "missing" in lone.title and "do not name" in lone.title and lone.opens() == [lone.path]
    assert found == [
        SessionInfo("/home/b", str(new), 3_000, new.stat().st_size, 0),  # the path the folder's name encodes
        SessionInfo("/home/a", str(mid), 2_000, mid.stat().st_size, 5),
        SessionInfo("/home/a", str(old), 1_000, old.stat().st_size, 2 + 9),  # its subagent's calls too
    ]
    assert [info.tool_calls for info in find_sessions(str(projects), count_calls=False)] == [None] * 4
    assert find_sessions(str(tmp_path / "missing")) == []


def test_counting_sees_a_marker_split_between_blocks(tmp_path, monkeypatch):
    path = session(tmp_path / "p" / "s.jsonl", 50, 1)
    monkeypatch.setattr(claude_scan, "_BLOCK", 7)
    assert count_tool_calls(str(path)) == 50
    assert count_tool_calls(str(tmp_path / "nope.jsonl")) is None


def test_the_folder_comes_from_the_environment_then_the_configuration(tmp_path, monkeypatch):
    dot_claude = tmp_path / ".claude"
    (dot_claude / "projects").mkdir(parents=True)
    monkeypatch.setenv(claude_sessions.ENV, str(dot_claude))
    assert default_dir("/elsewhere") == str(dot_claude / "projects")
    monkeypatch.setenv(claude_sessions.ENV, str(tmp_path / "flat"))
    assert default_dir() == str(tmp_path / "flat")
    monkeypatch.delenv(claude_sessions.ENV)
    assert default_dir(str(tmp_path / "configured")) == str(tmp_path / "configured")
    assert default_dir().endswith(os.path.join(".claude", "projects"))  # a path only: nothing is read there


@pytest.mark.skipif(not CLAUDE.is_dir(), reason="../shared/corpus/claude is not present")
def test_the_corpus_sessions():
    found = find_sessions(str(CLAUDE))
    lone = [info for info in found if info.paths]  # 2.0.x agent files of 10 missing sessions, a row each
    assert len(lone) == 10 and all("missing" in info.title for info in lone)
    assert sum(len(info.paths) for info in lone) == 26 and sum(info.tool_calls or 0 for info in lone) == 31
    names = [Path(info.path).name for info in found if not info.paths]
    assert len(names) == 14 and not any(name.startswith("agent-") for name in names)
    assert [info.modified for info in found] == sorted((info.modified for info in found), reverse=True)
    worktrees = next(
        info for info in found if info.path.endswith("ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl")
    )
    assert worktrees.project == "/experiments/worktrees" and worktrees.tool_calls == 40 + 77  # + subagents/


@pytest.mark.skipif(not CLAUDE.is_dir(), reason="../shared/corpus/claude is not present")
def test_the_browser_counts_what_opening_the_session_shows_nested_calls_included():
    """The issue's case: a 2.0.55 session showed 108 where it holds 123 (15 in a project-level agent file)."""
    for info in find_sessions(str(CLAUDE)):
        store = CallStore()
        load(info.opens(), store)
        assert info.tool_calls == store.call_count, info.path
    deep = next(
        info
        for info in find_sessions(str(CLAUDE))
        if info.path.endswith("a7da6a22-facc-4fcd-8bab-f83c87862004.jsonl")
    )
    assert deep.tool_calls == 123


@pytest.mark.skipif(not CLAUDE.is_dir(), reason="../shared/corpus/claude is not present")
def test_each_session_has_its_title_or_its_first_typed_prompt():
    titles = {Path(info.path).name[:8]: info.title for info in find_sessions(str(CLAUDE))}
    # the newest summary record of a 1.0.x session; 2.0.55's summary record
    assert titles["fe5e1c67"] == "Empty Repo Setup: CLAUDE.md Foundation Created"
    assert titles["a7da6a22"] == "Claude Code CLI Tool Development Summary"
    # the first prompt, not the /clear caveat, the command echo or an IDE selection note
    assert titles["f852ad25"].startswith("Can you please read @public/tokenizer.css")
    assert titles["cb2e607c"].startswith("How can I make this possible to install as a library with `uv`")
    assert titles["7acd37a8"].startswith("OK, so this was just so you know what there is now")  # after /init
    assert titles["5c0375b4"].startswith("/orchestrator @CLAUDE.md")  # a slash command with arguments
    assert titles["ef958aa1"].startswith("OK, we're going to make a little experiment here.")


def test_a_rename_beats_claudes_own_title_and_both_beat_the_prompt(tmp_path, monkeypatch):
    path = tmp_path / "p" / "s.jsonl"
    path.parent.mkdir()
    prompt = '{"type":"user","message":{"role":"user","content":"fix the parser"},"sessionId":"s"}'
    records = [
        prompt,
        '{"type":"ai-title","aiTitle":"Parser fix","sessionId":"s"}',
        '{"type":"ai-title","aiTitle":"Fix the parser race","sessionId":"s"}',
    ]
    path.write_text("\n".join(records) + "\n")
    assert find_sessions(str(tmp_path))[0].title == "Fix the parser race"
    records.append('{"type":"custom-title","customTitle":"auth \\u001b[31mrefactor","sessionId":"s"}')
    records.append('{"type":"ai-title","aiTitle":"later AI title","sessionId":"s"}')
    path.write_text("\n".join(records) + "\n")
    monkeypatch.setattr(claude_scan, "_BLOCK", 5)  # records cut between blocks are still read whole
    assert (
        find_sessions(str(tmp_path))[0].title == "auth \x1b[31mrefactor"
    )  # kept as data; the table escapes it
    path.write_text(prompt + "\n")
    assert find_sessions(str(tmp_path))[0].title == "fix the parser"


def test_a_project_shows_as_the_path_its_name_encodes_best_effort(tmp_path):
    from inspector.sources.claude_sessions import project_path

    # no such folder here: each '-' is read as '/'
    assert project_path("-src-deep-manifest") == "/src/deep/manifest"
    # a folder of this machine that encodes to the name wins: its '-', '.', '_' and spaces come back
    real = tmp_path / "my-app_v2.0" / "sub dir"
    real.mkdir(parents=True)
    encoded = "".join(c if c.isalnum() and c.isascii() else "-" for c in str(real))
    assert project_path(encoded) == str(real)
    assert project_path("plain-name") == "plain-name"  # not an encoded path: as it is
