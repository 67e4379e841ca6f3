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
    return {**entry, "agentId": agent} if agent else entry


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


def _doc(path: Path, session: str, start: str, messages: list[Any], kind: str = "subagent") -> Path:
    """A JSON document session as the CLI wrote them in 2026-04 (header fields first, kind at the end)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {"sessionId": session, "projectHash": "ab12", "startTime": start, "lastUpdated": start,
           "messages": messages, "directories": ["/w"], "kind": kind}  # fmt: skip
    path.write_text(json.dumps(doc, indent=2))
    return path


def _memory(call_id: str, second: int, status: str = "success") -> dict[str, Any]:
    text = "Subagent 'save_memory' finished.\nTermination Reason: GOAL\nResult:\nsaved"
    return g_call(call_id, "save_memory", {"request": "remember it"}, status, {"output": text}, second=second)


def test_a_sub_agent_file_no_call_names_nests_under_the_call_running_when_it_started(tmp_path: Path) -> None:
    """gemini-cli of 2026-04 (real: LAF-US/IDAHO-VAULT, 30 of 130 calls): ``save_memory`` and
    ``codebase_investigator`` calls carry no ``agentId``; their sub-agents' JSON documents sit in
    ``chats/<main session id>/<short id>.json``. Each is read, under the call whose span (its message's
    time to its end) holds the sub-agent's ``startTime``, the tightest one; a file that started while no
    call ran shows at the top level; another folder (``skill-extraction-*``) is not this session's."""
    chats = tmp_path / "chats"
    main = _doc(chats / "session-2026-04-25T08-00-9330d511.json", MAIN, "2026-04-25T08:00:00.000Z", [
        g_msg("m1", "user", "remember two things", None, 1),
        g_msg("m2", "gemini", "", [_memory("c_mem1", 20, "cancelled")], 10),
        g_msg("m3", "gemini", "", [_memory("c_mem2", 40), _ran("c_look", "", 45)], 30),
        g_msg("m4", "gemini", "done", None, 50),
    ], kind="main")  # fmt: skip
    read = g_call("s_read", "read_file", {"file_path": "/w/GEMINI.md"}, "success", {"output": "x"}, second=12)
    _doc(
        chats / MAIN / "xb7gtb.json",
        "xb7gtb",
        "2026-04-25T08:00:11.000Z",
        [g_msg("a", "gemini", "", [read], 12)],
    )
    edit = g_call("s_edit", "replace", {"file_path": "/w/GEMINI.md"}, "success", {"output": "ok"}, second=36)
    _doc(
        chats / MAIN / "xs82vp.json",
        "xs82vp",
        "2026-04-25T08:00:35.000Z",
        [g_msg("b", "gemini", "", [edit], 36)],
    )
    late = g_call("s_late", "glob", {"pattern": "*"}, "success", {"output": "a"}, second=56)
    _doc(
        chats / MAIN / "zz0000.json",
        "zz0000",
        "2026-04-25T08:00:55.000Z",
        [g_msg("c", "gemini", "", [late], 56)],
    )
    other = g_call("s_other", "glob", {"pattern": "*"}, "success", {"output": "a"}, second=12)
    _doc(chats / "skill-extraction-1" / "q1.json", "q1", "2026-04-25T08:00:11.000Z",
         [g_msg("d", "gemini", "", [other], 12)])  # fmt: skip
    _, store = load(main, gemini)
    got = calls(store)
    assert got["s_read"].parent is got["c_mem1"]  # the cancelled call's sub-agent is still there
    assert got["s_edit"].parent is got["c_mem2"]  # c_look's span holds it too, but c_mem2's is tighter
    assert got["s_late"].parent is None  # started after every call had ended: shown, not lost
    assert "s_other" not in got and not store.orphans and store.malformed == []


def test_a_sub_agent_whose_header_leads_with_a_long_field_still_nests(tmp_path: Path) -> None:
    """The sub-agent's start is looked up in its file's head (issue 25): a leading field past the 64 KB
    head hid it, and a sub-agent no agentId names is placed by it: its calls were no longer nested
    under the call that ran it."""
    chats = tmp_path / "chats"
    path = _main(chats, _ran("c_agent", "", 6))  # no agentId: its start decides
    read = g_call("c_read", "read_file", {"file_path": "/w/parse.py"}, "success", {"output": "x"}, second=3)
    header = {"padding": "x" * 100_000, "sessionId": AGENT, "projectHash": "ab12",
              "startTime": "2026-04-25T08:00:06.000Z", "kind": "subagent", "directories": ["/w"]}  # fmt: skip
    write(chats / MAIN, [header, g_msg("s2", "gemini", "", [read], 3)], f"{AGENT}.jsonl")
    _, store = load(path, gemini)
    got = calls(store)
    assert got["c_read"].parent is got["c_agent"]
