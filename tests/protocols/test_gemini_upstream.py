"""Gemini CLI shapes the corpus does not hold, taken from the CLI's own sources (google-gemini/gemini-cli,
packages/core/src/services/chatRecordingService.ts and chatRecordingTypes.ts, scheduler/policy.ts)."""

from __future__ import annotations

import json
from pathlib import Path

from agent_records import calls, first, g_call, g_document, g_lines, g_msg, load, texts

from inspector.model.events import Malformed, Outcome, RawRef
from inspector.protocols import gemini


def test_a_history_sync_set_messages_replaces_the_messages(tmp_path: Path) -> None:
    """``{"$set": {"messages": [...]}}`` (updateMessagesFromHistory): the loader clears its messages and
    takes these; a message not in the list is gone, one in it keeps its calls."""
    kept = g_call("c1", "read_file", {"file_path": "/w/a"}, "success", {"output": "a"})
    dropped = g_call("c2", "read_file", {"file_path": "/w/b"}, "success", {"output": "b"})
    records = [
        g_msg("m1", "user", "read a"),
        g_msg("m2", "gemini", "", [kept], 2),
        g_msg("m3", "gemini", "", [dropped], 3),
        {
            "$set": {
                "messages": [g_msg("m1", "user", "read a"), g_msg("m2", "gemini", "", [kept], 2)],
                "lastUpdated": "2026-04-25T08:00:05.000Z",
            }
        },  # fmt: skip
        g_msg("m4", "gemini", "done", second=6),
    ]
    events, store = load(g_lines(tmp_path, records), gemini)
    assert list(calls(store)) == ["c1"] and first(store, "c1").outcome is Outcome.SUCCESS
    assert texts(events) == [("user", "read a"), ("assistant", "done")]


def test_following_a_history_sync_adds_only_what_is_new(tmp_path: Path) -> None:
    path = g_lines(tmp_path, [g_msg("m1", "user", "go")])
    list(gemini.read(str(path)))
    new = g_call("c9", "glob", {"pattern": "*.py"}, "success", {"output": "a.py"})
    line = json.dumps(
        {"$set": {"messages": [g_msg("m1", "user", "go"), g_msg("m2", "gemini", "", [new], 2)]}}
    )
    events = gemini.decode_line(line.encode(), RawRef(str(path), "line 3", protocol="gemini"))
    assert [type(e).__name__ for e in events] == ["Request", "Result"]
    assert [getattr(e, "call_id", None) for e in events] == ["c9", "c9"]


def test_a_rewind_to_an_unknown_id_clears_the_session_as_the_loader_does(tmp_path: Path) -> None:
    call = g_call("c1", "read_file", {"file_path": "/w/a"}, "success", {"output": "a"})
    records = [
        g_msg("m1", "gemini", "", [call]),
        {"$rewindTo": "not-there"},
        g_msg("m2", "user", "again", second=3),
    ]
    events, store = load(g_lines(tmp_path, records), gemini)
    assert list(calls(store)) == [] and texts(events) == [("user", "again")]


def test_result_as_one_part_or_a_string(tmp_path: Path) -> None:
    """``result`` is a PartListUnion: one part object, or a string, besides the usual list of parts."""
    one = g_call("p1", "read_file", {"file_path": "/w/a"}, "error", None)
    one["result"] = {"functionResponse": {"id": "p1", "name": "read_file", "response": {"error": "EACCES"}}}
    text = g_call("p2", "web_fetch", {"url": "https://x"}, "success", None)
    text["result"] = "fetched 3 KB"
    _, store = load(g_document(tmp_path, [g_msg("m1", "gemini", "", [one, text])]), gemini)
    assert first(store, "p1").outcome is Outcome.ERROR and "EACCES" in (
        first(store, "p1").error_message or ""
    )
    assert first(store, "p2").outcome is Outcome.SUCCESS and first(store, "p2").data == "fetched 3 KB"


def test_a_policy_denial_is_denied_and_agent_id_is_kept(tmp_path: Path) -> None:
    """``Tool execution denied by policy.`` (status error) is a refusal; ``agentId`` names the subagent."""
    refused = g_call("d1", "run_shell_command", {"command": "rm -rf /"}, "error",
                     {"error": "Tool execution denied by policy. Destructive commands are blocked."})  # fmt: skip
    agent = g_call("a1", "codebase_investigator", {"objective": "find it"}, "success", {"output": "found"})
    agent["agentId"] = "6f1c2d3e-0000-4000-8000-000000000009"
    _, store = load(g_lines(tmp_path, [g_msg("m1", "gemini", "", [refused, agent])]), gemini)
    assert first(store, "d1").outcome is Outcome.DENIED
    assert calls(store)["a1"].request.extra["agentId"] == agent["agentId"]


def test_unknown_message_types_statuses_and_fields_still_load(tmp_path: Path) -> None:
    """A future message type is shown as its kind, a status still running leaves the call open, unknown
    fields are ignored: nothing is malformed."""
    running = g_call("r1", "run_shell_command", {"command": "make"}, "awaiting_approval", None)
    running["newField"] = {"x": 1}
    records = [g_msg("m1", "notice", "model switched"), g_msg("m2", "gemini", "", [running], 2),
               {"$set": {"memoryScratchpad": {"version": 1}}}]  # fmt: skip
    events, store = load(g_lines(tmp_path, records), gemini)
    assert not [e for e in events if isinstance(e, Malformed)]
    assert texts(events) == [("notice", "model switched")]
    assert calls(store)["r1"].result is None
