"""Where Codex and Gemini sessions are looked for, and which files count as sessions."""

from __future__ import annotations

import json
import os

from inspector.sources import agent_sessions as agents


def test_the_codex_folder_comes_from_the_option_then_the_variable_then_codex_home(monkeypatch, tmp_path):
    monkeypatch.setenv("INSPECTOR_CODEX_DIR", str(tmp_path / "env"))
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "home"))
    assert agents.codex_dir(str(tmp_path / "opt")) == str(tmp_path / "opt")
    assert agents.codex_dir() == str(tmp_path / "env")
    monkeypatch.delenv("INSPECTOR_CODEX_DIR")
    assert agents.codex_dir() == os.path.join(str(tmp_path / "home"), "sessions")
    monkeypatch.delenv("CODEX_HOME")
    assert agents.codex_dir() == os.path.expanduser(os.path.join("~", ".codex", "sessions"))


def test_the_gemini_folder_comes_from_the_option_then_the_variable(monkeypatch, tmp_path):
    monkeypatch.setenv("INSPECTOR_GEMINI_DIR", str(tmp_path / "env"))
    assert agents.gemini_dir(str(tmp_path / "opt")) == str(tmp_path / "opt")
    assert agents.gemini_dir() == str(tmp_path / "env")
    monkeypatch.delenv("INSPECTOR_GEMINI_DIR")
    assert agents.gemini_dir() == os.path.expanduser(os.path.join("~", ".gemini", "tmp"))


def test_only_rollouts_and_chat_sessions_are_listed_and_a_bad_one_is_listed_without_figures(tmp_path):
    day = tmp_path / "codex" / "2026" / "01" / "02"
    day.mkdir(parents=True)
    meta = {
        "timestamp": "2026-01-02T10:00:00Z",
        "type": "session_meta",
        "payload": {"id": "s", "cwd": "/w/app"},
    }
    (day / "rollout-1.jsonl").write_text(json.dumps(meta) + "\n")
    (day / "notes.jsonl").write_text("{}\n")
    (day / "rollout-2.jsonl").write_bytes(b"\xff\xfe not json\n")
    chats = tmp_path / "gemini" / ("ab" * 32) / "chats"
    chats.mkdir(parents=True)
    (chats / "session-1.json").write_text(json.dumps({"sessionId": "g", "projectHash": "h", "messages": []}))
    (chats.parent / "logs.json").write_text("[]")
    codex = agents.find_codex(str(tmp_path / "codex"))
    assert sorted(os.path.basename(s.path) for s in codex) == ["rollout-1.jsonl", "rollout-2.jsonl"]
    good = next(s for s in codex if s.path.endswith("rollout-1.jsonl"))
    assert (good.agent, good.project, good.tool_calls) == ("Codex", "app", 0)
    gemini = agents.find_gemini(str(tmp_path / "gemini"))
    assert [(s.agent, s.project, s.tool_calls) for s in gemini] == [("Gemini", "ab" * 6, 0)]
    assert agents.find_codex(str(tmp_path / "nowhere")) == []


def test_a_gemini_sub_agent_file_is_not_a_session_of_its_own_and_its_calls_count_in_the_parent(tmp_path):
    """gemini-cli (packages/core/src/services/chatRecordingService.ts) keeps a sub-agent's file in
    ``chats/<main session id>/<agent id>.jsonl``; its own session list skips ``kind: "subagent"``."""
    chats = tmp_path / ("ab" * 32) / "chats"
    (chats / "main-1").mkdir(parents=True)
    entry = {"id": "c1", "name": "codebase_investigator", "args": {}, "status": "success", "agentId": "a-1"}
    inner = {**entry, "id": "c2", "name": "read_file"}
    del inner["agentId"]

    def lines(header: dict, entries: list) -> str:
        message = {
            "id": "m1",
            "timestamp": "2026-04-25T08:00:01.000Z",
            "type": "gemini",
            "toolCalls": entries,
        }
        return json.dumps(header) + "\n" + json.dumps(message) + "\n"

    main = {
        "sessionId": "main-1",
        "projectHash": "h",
        "startTime": "2026-04-25T08:00:00.000Z",
        "kind": "main",
    }
    (chats / "session-2026-04-25T08-00-main-1.jsonl").write_text(lines(main, [entry]))
    agent = {**main, "sessionId": "a-1", "kind": "subagent"}
    (chats / "main-1" / "a-1.jsonl").write_text(lines(agent, [inner]))
    found = agents.find_gemini(str(tmp_path))
    assert [(os.path.basename(s.path), s.tool_calls) for s in found] == [
        ("session-2026-04-25T08-00-main-1.jsonl", 2)
    ]
