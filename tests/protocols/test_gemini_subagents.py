"""Gemini CLI sub-agents nested under the call that ran them, built to the shapes the CLI writes
(google-gemini/gemini-cli: packages/core/src/services/chatRecordingService.ts ``initialize`` puts a
sub-agent's file at ``chats/<main session id>/<agent id>.jsonl`` with ``kind: "subagent"``;
agents/local-executor.ts hands every depth the main session's id; core/geminiChat.ts
``recordCompletedToolCalls`` writes the ``agentId`` on the call that ran the sub-agent;
utils/fileUtils.ts ``sanitizeFilenamePart`` makes ids safe for file names)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agent_records import G_HEADER, calls, g_call, g_lines, g_msg, load, write

from inspector.model.events import Message, RawRef
from inspector.model.store import CallStore
from inspector.protocols import gemini

MAIN = str(G_HEADER["sessionId"])
AGENT = "5f0c2b1e-0000-4000-8000-00000000a001"
DEEPER = "5f0c2b1e-0000-4000-8000-00000000a002"


def _ran(call_id: str, agent: str, second: int = 2) -> dict[str, Any]:
    """A call that ran a sub-agent: its result names the agent's end, the record its ``agentId``."""
    text = "Subagent 'codebase_investigator' finished.\nTermination Reason: GOAL\nResult:\nfound it"
    entry = g_call(call_id, "codebase_investigator", {"objective": "find the parser"}, "success",
                   {"output": text}, second=second)  # fmt: skip
    return {**entry, "agentId": agent}


def _agent_file(chats: Path, agent: str, records: list[Any], folder: str = MAIN) -> Path:
    header = {"sessionId": agent, "projectHash": "ab12", "startTime": "2026-04-25T08:00:02.000Z",
              "lastUpdated": "2026-04-25T08:00:05.000Z", "kind": "subagent", "directories": ["/w"]}  # fmt: skip
    return write(chats / folder, [header, *records], f"{agent}.jsonl")


def _main(chats: Path, *entries: dict[str, Any]) -> Path:
    return g_lines(
        chats, [g_msg("m1", "user", "where is the parser?"), g_msg("m2", "gemini", "", list(entries), 6)]
    )


def test_a_sub_agent_file_nests_under_the_call_that_ran_it_at_every_depth(tmp_path: Path) -> None:
    chats = tmp_path / "chats"
    path = _main(chats, _ran("c_agent", AGENT, 6))
    read = g_call("c_read", "read_file", {"file_path": "/w/parse.py"}, "success", {"output": "x"}, second=3)
    _agent_file(chats, AGENT, [g_msg("s1", "user", "find the parser"), g_msg("s2", "gemini", "", [read], 3),
                               g_msg("s3", "gemini", "", [_ran("c_deeper", DEEPER, 4)], 4)])  # fmt: skip
    grep = g_call(
        "c_grep", "grep_search", {"pattern": "def parse"}, "success", {"output": "1 match"}, second=4
    )
    _agent_file(chats, DEEPER, [g_msg("d1", "gemini", "", [grep], 4)])  # beside its parent sub-agent's
    events, store = load(path, gemini)
    got = calls(store)
    assert got["c_read"].parent is got["c_agent"] and got["c_deeper"].parent is got["c_agent"]
    assert got["c_grep"].parent is got["c_deeper"] and got["c_grep"].depth == 2
    assert [c.call_id for c in got.values() if c.parent is None] == ["c_agent"] and not store.orphans
    prompt = next(e for e in events if isinstance(e, Message) and e.text == "find the parser")
    assert prompt.parent_id == "c_agent"


def test_without_the_sub_agent_file_the_call_shows_alone(tmp_path: Path) -> None:
    _, store = load(_main(tmp_path / "chats", _ran("c_agent", AGENT)), gemini)
    assert list(calls(store)) == ["c_agent"] and calls(store)["c_agent"].result is not None


def test_ids_are_looked_for_as_the_cli_names_files_and_a_file_is_read_once(tmp_path: Path) -> None:
    """sanitizeFilenamePart: a character outside [A-Za-z0-9_-] is '_' in the folder and file names. A
    sub-agent naming itself (or one already read) is not read again."""
    chats = tmp_path / "chats"
    odd = "agent.one:1"
    header = {**G_HEADER, "sessionId": "main.session/1"}
    path = write(chats, [header, g_msg("m1", "gemini", "", [_ran("c_agent", odd)])], "session-x.jsonl")
    loop = g_call("c_in", "read_file", {"file_path": "/w/a"}, "success", {"output": "a"}, second=3)
    _agent_file(chats, "agent_one_1", [g_msg("s1", "gemini", "", [loop, _ran("c_self", odd, 4)])],
                folder="main_session_1")  # fmt: skip
    _, store = load(path, gemini)
    got = calls(store)
    assert sorted(got) == ["c_agent", "c_in", "c_self"] and got["c_self"].parent is got["c_agent"]


def test_following_adds_the_sub_agent_of_a_call_written_later(tmp_path: Path) -> None:
    chats = tmp_path / "chats"
    path = _main(chats)
    store = CallStore()
    store.ingest_many(list(gemini.read(str(path))))
    read = g_call("c_read", "read_file", {"file_path": "/w/parse.py"}, "success", {"output": "x"}, second=3)
    _agent_file(chats, AGENT, [g_msg("s1", "gemini", "", [read], 3)])
    line = json.dumps(g_msg("m3", "gemini", "", [_ran("c_agent", AGENT, 7)], 7)).encode()
    events = gemini.decode_line(line, RawRef(str(path), "line 4", protocol="gemini"))
    store.ingest_many(events)
    got = calls(store)
    assert got["c_read"].parent is got["c_agent"]
    again = gemini.decode_line(line, RawRef(str(path), "line 5", protocol="gemini"))
    assert not [e for e in again if getattr(e, "call_id", "") == "c_read"]
