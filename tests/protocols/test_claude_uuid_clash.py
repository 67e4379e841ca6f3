"""Claude Code files opened together whose records share uuids: a record is skipped as a resumed
session's copy only when it says what the record first holding the uuid said (the fields a real copy
changes left out: sessionId, timestamp, parentUuid, isCompactSummary, a text as a string or a block).
Two files sharing a session id and uuids but holding other calls (a hostile or damaged pair) showed one
file's calls only, and nothing told the user; each file's calls are now shown, under a marker saying so."""

from __future__ import annotations

import copy

from claude_records_factory import call, record, write

import inspector.protocols.common.reread as reread_module
from inspector.model import CallStore
from inspector.model.events import Marker, Request
from inspector.protocols.claude import read, read_set
from inspector.sources.files import load


def session() -> list[dict]:
    records = [record("user", "look around")]
    records += call("toolu_a", "Bash", {"command": "ls"}, "a b")
    records += call("toolu_b", "Read", {"file_path": "/w/x"}, "text")
    return records


def loaded(paths) -> CallStore:
    store = CallStore()
    load([str(p) for p in paths], store)
    return store


def markers(store: CallStore, kind: str) -> list[Marker]:
    return [item for item in store.items if isinstance(item, Marker) and item.kind == kind]


def test_a_file_sharing_uuids_but_holding_other_calls_is_shown_and_said(tmp_path):
    first = session()
    other = copy.deepcopy(first)  # the same session id and uuids; other calls
    other[1]["message"]["content"][0].update(id="toolu_x", input={"command": "rm -rf /tmp/w"})
    other[2]["message"]["content"][0]["tool_use_id"] = "toolu_x"
    other[4]["message"]["content"][0]["content"] = "another answer"  # toolu_b: its id again, another result
    write(tmp_path / "a.jsonl", first)
    write(tmp_path / "b.jsonl", other)
    store = loaded([tmp_path])
    ids = sorted(call.call_id for call in store.calls.values())
    assert ids == ["toolu_a", "toolu_b", "toolu_x"]  # toolu_b's request is the same record: shown once
    # its other answer is shown, from b.jsonl, whose calls are its own: an answer without its request
    assert [(type(i).__name__, i.result.raw.source) for i in store.items if hasattr(i, "result")][-1] == (
        "OrphanResult",
        str(tmp_path / "b.jsonl"),
    )
    (clash,) = markers(store, "uuid-clash")
    assert clash.text == "records of b.jsonl share a uuid with a.jsonl but differ: shown from both"
    assert clash.body.startswith("3 record(s) of b.jsonl carry the uuid of a record of a.jsonl")
    assert not markers(store, "resume")


def test_a_resume_copy_differing_only_where_a_real_copy_does_is_still_skipped(tmp_path):
    earlier = session()
    later_sid = "f5a50440-0000-4000-8000-000000000002"
    copies = copy.deepcopy(earlier)
    for number, again in enumerate(copies):  # what a real copy changes (tests/fixtures/real/SWORDIntel...)
        again.update(timestamp="2025-08-24T19:13:45.029Z", isCompactSummary=False)
        if number == 2:
            again["parentUuid"] = "0000"
    copies[0]["message"]["content"] = [{"type": "text", "text": "look around"}]  # a string, then a block
    later = [*copies, record("user", "go on", sessionId=later_sid)]
    later += call("toolu_d", "Bash", {"command": "pwd"}, sessionId=later_sid)
    write(tmp_path / "a.jsonl", earlier)
    write(tmp_path / "b.jsonl", later)
    store = loaded([tmp_path])
    assert sorted(call.call_id for call in store.calls.values()) == ["toolu_a", "toolu_b", "toolu_d"]
    assert not markers(store, "uuid-clash")
    (resume,) = markers(store, "resume")
    assert "5 repeated records shown once" in resume.text
    assert sum(isinstance(e, Request) for e in read(str(tmp_path / "b.jsonl"))) == 3  # alone: all of it


def test_only_a_uuid_another_file_holds_is_read_again(tmp_path, monkeypatch):
    """A file read alone, and the file first holding the uuids, read nothing again; the copy reads one
    line of the earlier file per repeated record."""
    earlier = session()
    later = [*copy.deepcopy(earlier), record("user", "go on")]
    write(tmp_path / "a.jsonl", earlier)
    write(tmp_path / "b.jsonl", later)
    reread = reread_module.reread
    lines: list[str] = []

    def counted(raw):
        lines.append(raw.where)
        return reread(raw)

    monkeypatch.setattr(reread_module, "reread", counted)
    for path in ("a.jsonl", "b.jsonl"):
        list(read(str(tmp_path / path)))
        (alone,) = read_set([str(tmp_path / path)])
        list(alone)
    assert lines == []
    a, b = read_set([str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl")])
    list(a)
    assert lines == []
    shown = list(b)
    assert len(lines) == len(earlier)
    assert sum(isinstance(e, Request) for e in shown) == 0
    assert not [e for e in shown if isinstance(e, Marker)]  # a copy of the same session: nothing to say
