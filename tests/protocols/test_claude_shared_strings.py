"""What a Claude Code read keeps of each call shares its strings: a result's id is its request's own,
and senders are one string each, however many records repeat them (a big transcript's calls keep a
copy per record otherwise)."""

from __future__ import annotations

from pathlib import Path

import pytest
from claude_records_factory import call, record, use, write

from inspector.model import CallStore, Message, RawRef
from inspector.model.events import NO_EXTRA
from inspector.sources.files import load


def test_a_result_keeps_its_requests_id_and_senders_are_shared(tmp_path: Path) -> None:
    records = [record("user", "look at the files")]
    for n in range(3):
        records += call(f"toolu_{n:02d}", "Read", {"file_path": f"/w/f{n}"}, content=f"line {n}")
    records.append(record("assistant", [{"type": "text", "text": "done"}]))
    store = CallStore(keep_payloads=False)
    load([str(write(tmp_path / "s.jsonl", records))], store)
    calls = list(store.all_calls())
    assert [c.call_id for c in calls] == ["toolu_00", "toolu_01", "toolu_02"]
    for one in calls:
        assert len(one.results) == 1 and one.results[0].call_id is one.request.call_id
    assert {id(c.request.sender) for c in calls} == {id("assistant")}
    assert {id(c.results[0].sender) for c in calls} == {id("user")}
    messages = [item for item in store.items if isinstance(item, Message)]
    assert [m.kind for m in messages] == ["user", "assistant"]
    assert messages[0].kind is calls[0].results[0].sender and messages[1].kind is calls[0].request.sender


def test_the_calls_of_one_message_share_its_id(tmp_path: Path) -> None:
    uses = [use(f"toolu_{n}", "Read", {"file_path": f"/w/{n}"}) for n in range(2)]
    first = record("assistant", [uses[0]])
    second = record("assistant", [uses[1]])  # Claude Code writes each block of a message as a record
    first["message"]["id"] = second["message"]["id"] = "msg_01"
    store = CallStore(keep_payloads=False)
    load([str(write(tmp_path / "s.jsonl", [first, second]))], store)
    ids = [c.request.message_id for c in store.all_calls()]
    assert ids == ["msg_01", "msg_01"] and ids[0] is ids[1]


def test_events_share_one_empty_extra_that_refuses_writes_and_say_their_line(tmp_path: Path) -> None:
    records = [record("user", "look")]
    records += call("toolu_01", "Read", {"file_path": "/w/a"}, content="a")
    store = CallStore(keep_payloads=False)
    path = write(tmp_path / "s.jsonl", records)
    load([str(path)], store)
    (one,) = store.all_calls()
    message = next(item for item in store.items if isinstance(item, Message))
    events = [one.request, one.results[0], message]
    assert {id(event.extra) for event in events} == {id(NO_EXTRA)} and NO_EXTRA == {}
    with pytest.raises(TypeError):
        one.request.extra["note"] = "x"  # would reach every event: refused
    with pytest.raises(TypeError):
        one.results[0].extra.setdefault("note", "x")
    assert NO_EXTRA == {} and {**one.request.extra, "a": 1} == {"a": 1}
    lines = path.read_bytes().splitlines()
    for event in events:  # the place is kept as a line number and said as before
        assert event.raw is not None and event.raw.where.startswith("line ")
        assert event.raw.read() == lines[int(event.raw.where.split()[1]) - 1]
    assert message.raw is not None and message.raw.where == "line 1"
    assert one.request.raw == RawRef(
        str(path), "line 2", one.request.raw.offset, one.request.raw.length, None, "claude"
    )


def test_repeated_summaries_and_error_messages_are_one_string_each(tmp_path: Path) -> None:
    """A command run again, a file read again, the same error again: one string for all of them (a third
    of a real transcript's summaries and error messages repeat one before them)."""
    records = [record("user", "go")]
    for n in range(3):
        records += call(f"toolu_b{n}", "Bash", {"command": "git status"}, content="clean")
        records += call(
            f"toolu_e{n}",
            "Edit",
            {"file_path": "/w/a.py"},
            content="File has not been read yet.",
            is_error=True,
        )
    records += call("toolu_other", "Bash", {"command": "ls"}, content="a.py")
    store = CallStore(keep_payloads=False)
    load([str(write(tmp_path / "s.jsonl", records))], store)
    calls = {c.call_id: c for c in store.all_calls()}
    bash = [calls[f"toolu_b{n}"].request.summary for n in range(3)]
    errors = [calls[f"toolu_e{n}"].results[0].error_message for n in range(3)]
    assert bash[0] == "git status" and {id(s) for s in bash} == {id(bash[0])}
    assert errors[0] == "File has not been read yet." and {id(e) for e in errors} == {id(errors[0])}
    assert calls["toolu_other"].request.summary == "ls"
