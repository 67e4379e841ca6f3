"""Follow keeps the truth while the file changes under it, and never takes the keys (issue 25 §2).

An atomic rewrite or a shrink is read again from the top into a fresh store (never appended twice); a
path that is gone or becomes a folder is tried again and said so; subagent files created after
following began are followed, at any depth; a huge append is read in slices between which the event
loop runs; a line past the cap is one malformed record. In the app, ``q`` quits at once whatever the
followed path turned into (a FIFO, /dev/zero, a huge append, a huge line).
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path

import pytest
from hostile_io import claude_pair, jsonl

from inspector.config import Config
from inspector.model import FakeClock, Malformed, Request
from inspector.protocols import alicia
from inspector.sources import tail as tail_module
from inspector.sources.feeds import FileSource
from inspector.sources.files import open_paths
from inspector.sources.tail import FileTail, follow
from inspector.ui.app import InspectorApp
from inspector.ui.options import UiOptions

GUARD = 20.0  # a hang fails the test instead of the run


async def until(condition, seconds: float = GUARD) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("the condition never held")
        await asyncio.sleep(0.02)


def calls(path: Path, *ids: str) -> Path:
    records = [record for call_id in ids for record in claude_pair(call_id, {"command": call_id})]
    return jsonl(path, records)


def ids(files: FileSource) -> list[str]:
    return sorted(call.call_id for call in files.store.all_calls())


async def following(path: Path) -> tuple[FileSource, list[str], list[tuple[str, str]], asyncio.Task]:
    files = FileSource(open_paths([str(path)]))
    files.load(lambda progress: None)
    restarts: list[str] = []
    problems: list[tuple[str, str]] = []
    task = asyncio.create_task(
        files.follow(files.opened[0], restarts.append, lambda p, why: problems.append((p, why)))
    )
    await until(lambda: files._tails)
    return files, restarts, problems, task


async def stop(task: asyncio.Task) -> None:
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_an_atomic_rewrite_is_read_again_into_a_fresh_store(tmp_path):
    path = calls(tmp_path / "s.jsonl", "g1", "g2")
    files, restarts, _, task = await following(path)
    try:
        first = files.store
        calls(tmp_path / "new.jsonl", "g1", "g2", "g3")
        os.replace(tmp_path / "new.jsonl", path)  # as editors and sync tools write
        await until(lambda: ids(files) == ["g1", "g2", "g3"])
        assert restarts == [str(path)] and files.store is not first
        await asyncio.sleep(0.2)
        assert ids(files) == ["g1", "g2", "g3"]  # each call once, not the old ones again
    finally:
        await stop(task)


async def test_a_file_that_shrinks_is_read_again_from_the_top(tmp_path):
    path = calls(tmp_path / "s.jsonl", "g1", "g2", "g3")
    files, restarts, _, task = await following(path)
    try:
        with path.open("r+b") as fh:  # cut in place: the same inode, smaller
            fh.truncate(0)
            fh.write(json.dumps(claude_pair("h1", {})[0]).encode() + b"\n")
            fh.write(json.dumps(claude_pair("h1", {})[1]).encode() + b"\n")
        await until(lambda: ids(files) == ["h1"])
        assert restarts == [str(path)]
    finally:
        await stop(task)


async def test_a_path_gone_or_a_folder_for_a_while_is_tried_again_and_said(tmp_path):
    path = calls(tmp_path / "s.jsonl", "g1")
    os.link(path, tmp_path / "keep.jsonl")  # the old inode stays: the file that comes back is another
    files, restarts, problems, task = await following(path)
    try:
        path.unlink()
        await until(lambda: "No such file" in files.problems.get(str(path), ""))
        assert ids(files) == ["g1"]  # what was read stays shown meanwhile
        path.mkdir()
        await until(lambda: "folder" in files.problems.get(str(path), ""))
        path.rmdir()
        calls(path, "b1")
        await until(lambda: ids(files) == ["b1"] and not files.problems)
        assert restarts == [str(path)] and problems[-1] == (str(path), "")
    finally:
        await stop(task)


async def test_subagent_files_created_while_following_appear_at_any_depth(tmp_path):
    path = calls(tmp_path / "s.jsonl", "g1")
    files, _, _, task = await following(path)
    try:
        (tmp_path / "s" / "subagents").mkdir(parents=True)
        calls(tmp_path / "s" / "subagents" / "agent-a1.jsonl", "n1")
        deep = tmp_path / "s" / "subagents" / "workflows" / "w1" / "run" / "agent-a2.jsonl"
        deep.parent.mkdir(parents=True)
        calls(deep, "n2")
        await until(lambda: {"n1", "n2"} <= set(ids(files)))
        with deep.open("a") as fh:  # and they are followed as they grow
            for record in claude_pair("n3", {}):
                fh.write(json.dumps(record) + "\n")
        await until(lambda: "n3" in ids(files))
    finally:
        await stop(task)


def envelope(call_id: str) -> bytes:
    body = {"id": call_id, "toolName": "t", "parameters": {"pad": "x" * 200}, "conversationId": "c"}
    return (
        json.dumps({"stanzaId": 1, "conversationId": "c", "type": 6, "meta": {}, "body": body}).encode()
        + b"\n"
    )


async def test_a_huge_append_comes_in_slices_and_the_loop_runs_between_them(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_bytes(envelope("first"))
    tail = FileTail.at_end(str(path))
    order: list[str] = []
    count = {"calls": 0}

    def on_events(events):
        order.append("events")
        count["calls"] += sum(isinstance(e, Request) for e in events)

    async def ticker():
        while True:
            order.append("tick")
            await asyncio.sleep(0)

    with path.open("ab") as fh:  # ~12 MB at once: three slices
        fh.write(b"".join(envelope(f"c{i}") for i in range(40_000)))
    ticks = asyncio.create_task(ticker())
    task = asyncio.create_task(follow(str(path), alicia.FORMAT, on_events, tail=tail))
    try:
        await until(lambda: count["calls"] == 40_000)
    finally:
        for job in (task, ticks):
            job.cancel()
        await asyncio.gather(task, ticks, return_exceptions=True)
    first, last = order.index("events"), len(order) - 1 - order[::-1].index("events")
    assert order.count("events") > 3 and "tick" in order[first:last]  # the loop ran between batches


def test_a_line_past_the_cap_is_one_malformed_record_and_the_next_line_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(tail_module, "LINE_LIMIT", 10_000)
    path = tmp_path / "a.jsonl"
    path.write_bytes(b"")
    tail = FileTail(str(path))
    with path.open("ab") as fh:
        fh.write(b"x" * 25_000)  # no newline yet: dropped as it comes, not kept
    assert tail.read(limit=4096).lines == [] and len(tail._partial) <= 10_000
    while tail.read(limit=4096).more:
        pass
    with path.open("ab") as fh:
        fh.write(b"y" * 100 + b"\n" + envelope("after"))
    chunk = tail.read()
    events = tail_module.decode_lines(alicia.FORMAT, chunk.lines, chunk.first_line, str(path), chunk.offset)
    assert isinstance(events[0], Malformed) and "25,101 bytes" in events[0].reason
    assert events[0].raw.offset == 0 and events[0].raw.length == 25_101
    assert [e.call_id for e in events if isinstance(e, Request)] == ["after"]
    assert events[-1].raw.offset == 25_101  # the offsets after it stay right


# -- q in the app, whatever the followed file turned into ---------------------------------------------
def _fifo(path: Path) -> None:
    os.replace(path, path.with_suffix(".old"))
    os.mkfifo(path)


def _dev_zero(path: Path) -> None:
    os.replace(path, path.with_suffix(".old"))
    path.symlink_to("/dev/zero")


def _huge_append(path: Path) -> None:
    with path.open("ab") as fh:
        fh.write(b"".join(envelope(f"h{i}") for i in range(200_000)))  # ~60 MB


def _huge_line(path: Path) -> None:
    with path.open("ab") as fh:
        block = b"z" * (1 << 20)
        for _ in range(64):  # 64 MB with no newline, arriving while following
            fh.write(block)


@pytest.mark.parametrize("change", [_fifo, _dev_zero, _huge_append, _huge_line], ids=lambda f: f.__name__[1:])
async def test_q_quits_at_once_whatever_the_followed_file_became(tmp_path, change):
    path = tmp_path / "live.jsonl"
    path.write_bytes(envelope("first"))
    options = UiOptions(paths=[str(path)], theme_dirs=[], follow=True)
    app = InspectorApp(options, clock=FakeClock(1_767_225_600.0), config=Config())

    async def drive() -> float:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(lambda: getattr(app.screen, "following", False))
            await asyncio.to_thread(change, path)
            await asyncio.sleep(0.5)  # the follow meets what is there now
            started = time.monotonic()
            await pilot.press("q")
            await until(lambda: app._exit_renderables is not None or not app.is_running, 10)
        return time.monotonic() - started

    took = await asyncio.wait_for(drive(), 60)
    assert took < 5, took  # the issue asks for a second; this bounds a hang, the bench measures


# -- a file that ends in a line not written whole yet ---------------------------------------------------
LINE_KINDS = ("claude", "recording", "alicia-json", "alicia-hex", "rap", "lmkit", "codex", "gemini", "otlp")


def _at(record, path):
    for key in path:
        record = record[key]
    return record


@pytest.mark.parametrize("kind", LINE_KINDS)
async def test_a_last_line_not_written_whole_is_read_once_it_ends(tmp_path, kind):
    """A session whose last line is still being written when it is opened (cut inside a character of
    two bytes, or inside the line), then followed: once the line ends, its record is read whole, as
    the file read at once reads it; the load's malformed record of the unfinished line is taken back.
    The line's call was lost, its end read as a line of its own, and two malformed records stayed."""
    import hostile_gen as gen

    base = gen.BASES[kind][1]()
    records = [r for _, r in base]
    last = base[-1][1]
    texts = [p for p in gen.paths_of(last, deepest=12) if isinstance(_at(last, p), str)]
    records[-1] = gen.replaced(last, texts[-1], _at(last, texts[-1]) + "é") if kind != "alicia-hex" else last
    whole = gen.write_case(tmp_path, kind, records, "whole")
    data = whole.read_bytes()
    at = data.find("é".encode())
    cut = at + 1 if at >= 0 else data.rindex(b"\n", 0, len(data) - 1) + 7
    path = tmp_path / ("growing" + whole.name.removeprefix("whole"))
    path.write_bytes(data[:cut])
    forced = gen.FORCED.get(kind)
    expected = FileSource(open_paths([str(whole)], forced))
    expected.load(lambda progress: None)
    files = FileSource(open_paths([str(path)], forced))
    files.load(lambda progress: None)
    task = asyncio.create_task(files.follow(files.opened[0], lambda p: None))
    await until(lambda: files._tails)
    with path.open("ab") as fh:
        fh.write(data[cut:])

    def read_alike() -> bool:
        return [(c.call_id, len(c.results)) for c in files.store.all_calls()] == [
            (c.call_id, len(c.results)) for c in expected.store.all_calls()
        ]

    await until(read_alike)
    await stop(task)
    assert [m.reason for m in files.store.malformed] == [m.reason for m in expected.store.malformed]
