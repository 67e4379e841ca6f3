"""Following a file: appended lines only, partial lines held back, truncation and rotation, wake-ups, decoding."""

from __future__ import annotations

import asyncio
import json
import os

import pytest

from inspector.model import Malformed, Request
from inspector.protocols import alicia
from inspector.protocols.format import Format
from inspector.sources.tail import (
    FileTail,
    FileWatcher,
    FollowUnsupported,
    decode_lines,
    follow,
    supports_follow,
)

GUARD = 10.0  # seconds before a stuck wait fails the test (a guard, not a timing assertion)


def envelope(call_id: str, tool: str = "web_search") -> bytes:
    body = {
        "id": call_id,
        "conversationId": "conv1",
        "toolName": tool,
        "execution": "server",
        "parameters": {"q": "x"},
        "timeoutMs": 3000,
    }
    return json.dumps({"stanzaId": 1, "conversationId": "conv1", "type": 6, "body": body}).encode() + b"\n"


def append(path, data: bytes) -> None:
    with open(path, "ab") as fh:
        fh.write(data)


def test_reads_only_what_was_appended_and_holds_a_partial_line(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"one\ntwo\n")
    tail = FileTail(str(path))
    first = tail.read()
    assert first.lines == [b"one\n", b"two\n"] and first.first_line == 1 and first.offset == 0
    assert tail.read().lines == []
    append(path, b"thr")
    assert tail.read().lines == []
    append(path, b"ee\r\nfo")
    chunk = tail.read()
    assert chunk.lines == [b"three\r\n"] and chunk.first_line == 3 and chunk.offset == 8
    append(path, b"ur\n")
    assert tail.read().lines == [b"four\n"]
    assert (tail.offset, tail.line_no) == (path.stat().st_size, 4)


def test_at_end_skips_existing_lines_but_not_an_unfinished_one(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"a\nb\npart")
    tail = FileTail.at_end(str(path))
    assert (tail.offset, tail.line_no) == (4, 2)
    append(path, b"ial\nc\n")
    chunk = tail.read()
    assert chunk.lines == [b"partial\n", b"c\n"] and chunk.first_line == 3


def test_truncation_restarts_from_the_top(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"first line\nsecond line\n")
    tail = FileTail(str(path))
    tail.read()
    path.write_bytes(b"new\n")
    chunk = tail.read()
    assert chunk.restarted and chunk.lines == [b"new\n"] and chunk.first_line == 1


def test_rotation_finishes_the_old_file_then_reads_the_new_one(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"old 1\n")
    tail = FileTail(str(path))
    assert tail.read().lines == [b"old 1\n"]
    append(path, b"old 2\n")
    os.rename(path, tmp_path / "s.jsonl.1")
    path.write_bytes(b"new 1\nnew 2 is long enough\n")
    kept = tail.read()
    assert kept.lines == [b"old 2\n"] and not kept.restarted
    fresh = tail.read()
    assert fresh.restarted and fresh.lines == [b"new 1\n", b"new 2 is long enough\n"]


def test_a_missing_file_is_reported_not_raised(tmp_path):
    path = tmp_path / "later.jsonl"
    tail = FileTail(str(path))
    assert tail.read().missing
    path.write_bytes(b"x\n")
    assert tail.read().lines == [b"x\n"]
    keep = tmp_path / "keep.jsonl"
    os.link(path, keep)  # the old inode stays alive: the file coming back is surely another one
    path.unlink()
    gone = tail.read()  # gone for now: said, and tried again; what was read stays until it is back
    assert gone.missing and not gone.restarted and "No such file" in gone.problem
    path.write_bytes(b"y\n")
    back = tail.read()
    assert back.restarted and back.lines == [b"y\n"] and not back.missing


def test_large_appends_come_in_bounded_reads(tmp_path):
    path = tmp_path / "big.jsonl"
    path.write_bytes(b"0123456789\n" * 100)
    tail = FileTail(str(path))
    chunk = tail.read(limit=500)
    assert chunk.more and len(chunk.lines) == 45
    rest = tail.read(limit=5000)
    assert not rest.more and len(rest.lines) == 55 and rest.first_line == 46


def test_decode_lines_uses_the_format_hook_with_positions(tmp_path):
    path = str(tmp_path / "a.jsonl")
    lines = [envelope("r1"), b"\n", b"{not json\n", envelope("r2", "Read")]
    events = decode_lines(alicia.FORMAT, lines, 7, path, 100)
    requests = [e for e in events if isinstance(e, Request)]
    assert [r.call_id for r in requests] == ["r1", "r2"]
    assert requests[1].raw.where == "line 10"
    assert requests[1].raw.offset == 100 + len(lines[0]) + 1 + len(lines[2])
    bad = [e for e in events if isinstance(e, Malformed)]
    assert len(bad) == 1 and bad[0].where == "line 9"


def test_decode_lines_contains_a_decoder_that_crashes():
    seen = []

    def decode_line(line, raw):
        seen.append(raw.where)
        if b"boom" in line:
            raise KeyError("boom")
        return []

    module = Format("fake", "", lambda p, h: 0, lambda p: iter(()), lambda r: [], decode_line=decode_line)
    events = decode_lines(module, [b"ok\n", b"boom\n"], 1, "f", 0)
    assert seen == ["line 1", "line 2"]
    assert len(events) == 1 and "KeyError" in events[0].reason


def test_formats_without_a_line_decoder_cannot_be_followed():
    module = Format("whole", "", lambda p, h: 0, lambda path: iter(()), lambda r: [])
    assert not supports_follow(module) and supports_follow(alicia.FORMAT)
    with pytest.raises(FollowUnsupported, match="whole"):
        decode_lines(module, [b"x\n"], 1, "f", 0)


@pytest.mark.parametrize("use_inotify", [True, False])
async def test_watcher_wakes_on_append_and_times_out_when_idle(tmp_path, use_inotify):
    path = tmp_path / "w.jsonl"
    path.write_bytes(b"")
    watcher = FileWatcher(str(path), poll_interval=0.05, use_inotify=use_inotify)
    if use_inotify and watcher.mode != "inotify":
        pytest.skip("inotify is not available here")
    try:
        assert await watcher.wait(timeout=0.05) is False
        append(path, b"x\n")
        assert await asyncio.wait_for(watcher.wait(), GUARD) is True
    finally:
        watcher.close()


async def test_inotify_ignores_other_files_in_the_folder(tmp_path):
    path = tmp_path / "w.jsonl"
    path.write_bytes(b"")
    watcher = FileWatcher(str(path))
    if watcher.mode != "inotify":
        pytest.skip("inotify is not available here")
    try:
        (tmp_path / "other.jsonl").write_bytes(b"noise\n")
        assert await watcher.wait(timeout=0.2) is False
    finally:
        watcher.close()


async def test_follow_feeds_new_lines_as_events(tmp_path):
    path = tmp_path / "live.jsonl"
    path.write_bytes(envelope("before"))
    received: list = []
    arrived = asyncio.Event()

    def on_events(events):
        received.extend(events)
        arrived.set()

    task = asyncio.create_task(follow(str(path), alicia.FORMAT, on_events))
    try:
        await asyncio.sleep(0)
        append(path, envelope("after"))
        await asyncio.wait_for(arrived.wait(), GUARD)
        assert [e.call_id for e in received if isinstance(e, Request)] == ["after"]
        assert received[0].raw.where == "line 2"
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


async def test_follow_refuses_a_format_without_line_decoder(tmp_path):
    path = tmp_path / "x.json"
    path.write_bytes(b"{}\n")
    with pytest.raises(FollowUnsupported):
        await follow(
            str(path),
            Format("doc", "", lambda p, h: 0, lambda p: iter(()), lambda r: []),
            lambda events: None,
        )
