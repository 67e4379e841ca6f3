"""A Claude Code session rewritten into its own file (2.0.29-2.0.31 on a resume): each call once, a marker.

The fixture follows what the real files do, record by record: after line N the file repeats lines 1..N
(or a part of them) with new ``uuid``s, the same ``message.id``s, the same tool_use ids and inputs and
the same tool_results; the copies keep their original timestamps or all carry one timestamp.
"""

from __future__ import annotations

import copy
import json
import uuid as uuidlib
from pathlib import Path

import pytest
from hostile_io import run_cli

from inspector.model import CallStore, Marker
from inspector.model.stats import problems
from inspector.sources.files import load

SID = "6a7f3c2e-51d0-4b8e-9f61-2d0c7a1b9e44"
VERSION = "2.0.30"


def _record(kind: str, content, ts: str, message_id: str | None = None, **extra) -> dict:
    message: dict = {"role": kind, "content": content}
    if kind == "assistant":
        message = {
            "model": "claude-sonnet-4-5-20250929",
            "id": message_id,
            "type": "message",
            "role": "assistant",
            "content": content,
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 4, "output_tokens": 120, "service_tier": "standard"},
        }
    base = {
        "parentUuid": None,
        "isSidechain": False,
        "userType": "external",
        "cwd": "C:\\Users\\dev\\shop",
        "sessionId": SID,
        "version": VERSION,
        "gitBranch": "main",
        "message": message,
        "type": kind,
        "uuid": str(uuidlib.uuid4()),
        "timestamp": ts,
    }
    if kind == "assistant":
        base["requestId"] = f"req_{message_id}"
    base.update(extra)
    return base


def _use(call_id: str, name: str, params: dict) -> dict:
    return {"type": "tool_use", "id": call_id, "name": name, "input": params}


def _answer(call_id: str, content, ts: str, structured=None, is_error: bool = False) -> dict:
    block = {"tool_use_id": call_id, "type": "tool_result", "content": content}
    if is_error:
        block["is_error"] = True
    record = _record("user", [block], ts)
    if structured is not None:
        record["toolUseResult"] = structured
    return record


def original() -> list[dict]:
    """A short session: a prompt, four calls (one failing) and a closing text."""
    return [
        _record("user", "fix the failing checkout test", "2025-11-03T09:14:02.118Z"),
        _record(
            "assistant", [{"type": "text", "text": "Let me look."}], "2025-11-03T09:14:05.310Z", "msg_01AAA"
        ),
        _record(
            "assistant",
            [_use("toolu_01Read", "Read", {"file_path": "C:\\Users\\dev\\shop\\checkout.py"})],
            "2025-11-03T09:14:05.902Z",
            "msg_01AAA",
        ),
        _answer(
            "toolu_01Read",
            "     1\tdef total(cart):\n     2\t    return sum(cart)\n",
            "2025-11-03T09:14:06.020Z",
        ),
        _record(
            "assistant",
            [
                _use(
                    "toolu_01Bash",
                    "Bash",
                    {"command": "pytest -q tests/test_checkout.py", "description": "Run"},
                ),
                _use("toolu_01Grep", "Grep", {"pattern": "def total", "path": "C:\\Users\\dev\\shop"}),
            ],
            "2025-11-03T09:14:09.441Z",
            "msg_01BBB",
        ),
        _answer(
            "toolu_01Bash",
            "1 failed",
            "2025-11-03T09:14:12.870Z",
            {"stdout": "1 failed", "stderr": "", "interrupted": False, "isImage": False},
            is_error=True,
        ),
        _answer("toolu_01Grep", "Found 1 file\ncheckout.py", "2025-11-03T09:14:12.990Z"),
        _record(
            "assistant",
            [
                _use(
                    "toolu_01Edit", "Edit", {"file_path": "checkout.py", "old_string": "a", "new_string": "b"}
                )
            ],
            "2025-11-03T09:14:20.001Z",
            "msg_01CCC",
        ),
        _answer("toolu_01Edit", "The file checkout.py has been updated.", "2025-11-03T09:14:20.300Z"),
        _record("assistant", [{"type": "text", "text": "Fixed."}], "2025-11-03T09:14:22.000Z", "msg_01DDD"),
    ]


def copies(records: list[dict], one_time: str | None) -> list[dict]:
    """The records again as the rewrite writes them: new uuids (parents relinked), the rest the same."""
    out, renamed = [], {}
    for record in records:
        again = copy.deepcopy(record)
        renamed[record["uuid"]] = again["uuid"] = str(uuidlib.uuid4())
        again["parentUuid"] = renamed.get(record["parentUuid"]) if record["parentUuid"] else None
        if one_time is not None:
            again["timestamp"] = one_time
        out.append(again)
    return out


def after() -> list[dict]:
    """What the session does after the rewrite: one new call, answered."""
    return [
        _record("user", "now run the whole suite", "2025-11-03T10:02:00.000Z"),
        _record(
            "assistant",
            [_use("toolu_02Bash", "Bash", {"command": "pytest -q", "description": "Run all"})],
            "2025-11-03T10:02:03.000Z",
            "msg_02AAA",
        ),
        _answer("toolu_02Bash", "42 passed", "2025-11-03T10:02:09.000Z"),
    ]


def write(path: Path, records: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records), encoding="utf-8")
    return path


def rewritten(tmp_path: Path, variant: str) -> Path:
    first = original()
    if variant == "whole, original times":
        again = copies(first, None)
    elif variant == "whole, one time":
        again = copies(first, "2025-11-03T10:01:30.512Z")
    else:  # a part: from the Bash/Grep turn on
        again = copies(first[4:], None)
    return write(tmp_path / "proj" / f"{SID}.jsonl", first + again + after())


def loaded(path: Path) -> CallStore:
    store = CallStore(keep_payloads=False)
    load([str(path)], store)
    return store


VARIANTS = ["whole, original times", "whole, one time", "a part"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_call_once_answered_once_without_violation(tmp_path, variant):
    store = loaded(rewritten(tmp_path, variant))
    calls = list(store.all_calls())
    assert [c.call_id for c in calls] == [
        "toolu_01Read",
        "toolu_01Bash",
        "toolu_01Grep",
        "toolu_01Edit",
        "toolu_02Bash",
    ]
    assert all(len(c.results) == 1 for c in calls)
    assert store.duplicate_results == 0
    assert not [c for c in calls if c.request.violation]
    assert problems(store, store.end_clock().now()) == []
    assert calls[1].state().name == "FAILED"  # the first answer decides, as before


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_marker_row_says_where_the_rewrite_begins(tmp_path, variant):
    path = rewritten(tmp_path, variant)
    store = loaded(path)
    markers = [item for item in store.items if isinstance(item, Marker) and item.kind == "rewrite"]
    assert len(markers) == 1
    marker = markers[0]
    lines = path.read_text().splitlines()
    # the first repeated record known as one: the copy of line 2's text (whole) or of line 5's call
    # (a part), after 10 lines
    assert marker.raw.where == ("line 11" if variant == "a part" else "line 12")
    assert "rewritten" in marker.text
    assert "4 repeated call(s)" in marker.body or variant == "a part"
    texts = [
        item.text for item in store.items if type(item).__name__ == "Message" and item.kind == "assistant"
    ]
    assert texts == ["Let me look.", "Fixed."]  # the assistant's words once, as its calls
    at = store.items.index(marker)
    # everything before the marker is the first writing; the new call comes after it
    new = next(i for i, item in enumerate(store.items) if getattr(item, "call_id", "") == "toolu_02Bash")
    assert at < new
    assert json.loads(lines[int(marker.raw.where.split()[1]) - 1])["uuid"] not in {
        json.loads(line)["uuid"] for line in lines[:10]
    }


@pytest.mark.parametrize("variant", VARIANTS)
def test_check_and_stats_count_the_session_as_it_ran(tmp_path, variant):
    path = rewritten(tmp_path, variant)
    code, out, err = run_cli("check", str(path))
    assert code == 0, out + err
    assert "ok: 5 call(s)" in out
    code, out, _ = run_cli("stats", "--json", str(path))
    figures = json.loads(out)
    assert figures["calls"] == 5
    code, out, _ = run_cli("dump", "--json", str(path))
    assert [json.loads(line)["id"] for line in out.splitlines()] == [
        "toolu_01Read",
        "toolu_01Bash",
        "toolu_01Grep",
        "toolu_01Edit",
        "toolu_02Bash",
    ]


def test_a_repeated_id_with_another_input_is_still_a_duplicate(tmp_path):
    first = original()
    again = copies(first, None)
    for record in again:
        for block in record["message"]["content"] if isinstance(record["message"]["content"], list) else []:
            if block.get("id") == "toolu_01Read":
                block["input"] = {"file_path": "C:\\Users\\dev\\shop\\other.py"}
    store = loaded(write(tmp_path / f"{SID}.jsonl", first + again))
    dupes = [c for c in store.all_calls() if c.request.violation]
    assert [c.call_id for c in dupes] == ["toolu_01Read"]
    assert "duplicate request id" in dupes[0].request.violation


def test_a_repeated_result_with_other_content_is_still_a_duplicate(tmp_path):
    first = original()
    second = _answer("toolu_01Grep", "Found 2 files", "2025-11-03T09:15:00.000Z")
    store = loaded(write(tmp_path / f"{SID}.jsonl", [*first, second]))
    assert store.duplicate_results == 1
    assert not [item for item in store.items if isinstance(item, Marker)]


# -- rewritten while it is followed ------------------------------------------------------------------


def test_a_rewrite_written_while_the_file_is_followed_shows_each_call_once(tmp_path):
    """The load reads the first writing; the follow (FileTail + the format's line decoder, as the app
    runs them) then sees the copies and the new call appended: each call once, no violation."""
    from inspector import protocols
    from inspector.sources.tail import FileTail, decode_lines

    path = write(tmp_path / "proj" / f"{SID}.jsonl", original())
    store = CallStore(keep_payloads=False)
    load([str(path)], store)
    tail = FileTail.at_end(str(path))
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(
            "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in copies(original_of(path), None))
        )
        fh.write("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in after()))
    chunk = tail.read()
    events = decode_lines(protocols.get("claude"), chunk.lines, chunk.first_line, str(path), chunk.offset)
    for event in events:
        store.ingest(event)
    calls = list(store.all_calls())
    assert [c.call_id for c in calls][-1] == "toolu_02Bash" and len(calls) == 5
    assert store.duplicate_results == 0 and not [c for c in calls if c.request.violation]
    assert [item for item in store.items if isinstance(item, Marker) and item.kind == "rewrite"]


def original_of(path: Path) -> list[dict]:
    """The records the file holds now (the copies must repeat them, uuids and all, before renaming)."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
