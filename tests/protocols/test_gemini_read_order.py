"""A Gemini CLI session's messages become events as their records are read (issue 23: the records are not
kept to the end), yet what only the whole file tells still decides: the session's id from a header written
after the messages, a message written again later (its first place, its last record), a rewind of the
message just read, a history sync, and each result's time (the next message's, else lastUpdated, or the
call's own when later)."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

from inspector.model.events import Malformed, Message, Request, Result
from inspector.protocols import gemini

HEADER = {"sessionId": "s9", "projectHash": "p", "startTime": "2026-04-25T08:00:00.000Z", "kind": "main"}


def at(second: int) -> str:
    return f"2026-04-25T08:00:{second:02d}.000Z"


def epoch(second: int) -> float:
    return datetime(2026, 4, 25, 8, 0, second, tzinfo=timezone.utc).timestamp()


def call(call_id: str, second: int, status: str = "success") -> dict:
    entry = {"id": call_id, "name": "run_shell_command", "args": {"command": "ls"}, "timestamp": at(second)}
    entry["status"] = status
    if status == "success":
        response = {"id": call_id, "name": "run_shell_command", "response": {"output": "ok"}}
        entry["result"] = [{"functionResponse": response}]
    return entry


def message(message_id: str, calls: list, second: int | None = None, text: str = "") -> dict:
    out = {"id": message_id, "type": "gemini", "content": text, "toolCalls": calls}
    if second is not None:
        out["timestamp"] = at(second)
    return out


def read(tmp_path: Path, records: list) -> list:
    path = tmp_path / "session.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return list(gemini.read(str(path)))


def test_a_header_written_after_the_messages_still_names_their_session(tmp_path):
    events = read(
        tmp_path,
        [message("m1", [call("c1", 2)], 1, "on it"), message("m2", [call("c2", 4)], 3), HEADER],
    )
    shown = [e for e in events if isinstance(e, (Request, Result, Message))]
    assert len(shown) == 5 and {e.group for e in shown} == {"s9"}


def test_a_message_written_again_later_keeps_its_place_and_takes_its_last_record(tmp_path):
    events = read(
        tmp_path,
        [
            HEADER,
            message("m1", [call("c1", 2, "executing")], 1),
            message("m2", [call("c2", 4)], 3),
            message("m1", [call("c1", 2), call("c3", 2)], 1),
        ],
    )
    assert [(type(e).__name__, e.call_id) for e in events] == [
        ("Request", "c1"),
        ("Result", "c1"),
        ("Request", "c3"),
        ("Result", "c3"),
        ("Request", "c2"),
        ("Result", "c2"),
    ]


def test_each_result_is_known_at_the_next_messages_time_else_last_updated_or_its_calls_own(tmp_path):
    events = read(
        tmp_path,
        [
            HEADER,
            message("m1", [call("c1", 2)], 1),
            message("m2", [call("c2", 3)]),  # no time of its own: m1's result takes lastUpdated
            message("m3", [call("c3", 4), call("c4", 9)], 5),
            {"$set": {"lastUpdated": at(7)}},
            {"$set": {"lastUpdated": "no time"}},  # not a time: the last one that is stands
        ],
    )
    results = {e.call_id: e.ts for e in events if isinstance(e, Result)}
    assert results == {"c1": epoch(7), "c2": epoch(5), "c3": epoch(7), "c4": epoch(9)}


def test_a_rewind_of_the_message_just_read_and_a_history_sync_drop_what_they_drop(tmp_path):
    events = read(
        tmp_path,
        [
            HEADER,
            message("m1", [call("c1", 2)], 1),
            message("m2", [call("c2", 4)], 3),
            {"$rewindTo": "m2"},
            message("m3", [call("c3", 6)], 5),
            {"$set": {"messages": [message("m4", [call("c4", 8)], 7), message("m1", [call("c5", 9)], 8)]}},
            message("m5", [call("c6", 11)], 10),
            message("m6", [], 12, "done"),
            {"$rewindTo": "m6"},
        ],
    )
    assert not [e for e in events if isinstance(e, Malformed)]
    assert [e.call_id for e in events if isinstance(e, Request)] == ["c4", "c5", "c6"]
    assert not [e for e in events if isinstance(e, Message)]
