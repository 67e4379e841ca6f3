"""Every feed is a Source with declared capabilities; files, follow and replay need no UI."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

from inspector.model import CallStore, FakeClock
from inspector.model.clock import RecordingEnd
from inspector.sources.feeds import FileSource, ReplaySource, StoreSource, feed_for
from inspector.sources.files import open_paths
from inspector.sources.memory import MemorySource

SAMPLES = Path(__file__).resolve().parents[2] / "sample_sessions"


def test_capabilities_are_declared_per_feed():
    opened = open_paths([str(SAMPLES / "demo.recording.jsonl")])
    files = feed_for(opened=opened)
    replay = feed_for(opened=opened, replay=True)
    store = feed_for(opened=[], store=CallStore())
    live = MemorySource(CallStore())
    assert isinstance(files, FileSource) and files.can_follow and not files.can_seek and not files.is_live
    assert isinstance(replay, ReplaySource) and replay.can_seek and not replay.can_follow
    assert isinstance(store, StoreSource) and not (store.can_follow or store.can_seek or store.can_answer)
    assert feed_for(opened=[], source=live) is live and live.is_live and live.can_answer


def test_a_file_load_threads_the_file_and_is_judged_at_its_end_until_followed():
    opened = open_paths([str(SAMPLES / "demo.recording.jsonl")])
    files = FileSource(opened)
    progress = []
    infos = files.load(progress.append)
    assert infos[0].events > 0 and files.store.call_count > 0
    assert progress[-1].finished
    wall = FakeClock(4_000_000_000.0)
    assert isinstance(files.clock(wall).now(), RecordingEnd)
    files.following = True
    assert files.clock(wall) is wall


def test_following_a_file_threads_lines_appended_after_the_load(tmp_path):
    path = tmp_path / "s.recording.jsonl"
    lines = (SAMPLES / "demo.recording.jsonl").read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:3]))
    files = FileSource(open_paths([str(path)]))
    files.load(lambda progress: None)
    before = len(files.store.items)

    async def scenario() -> int:
        (able,), unable = files.followable()
        assert unable == []
        task = asyncio.create_task(files.follow(able, lambda path: None))
        with path.open("a") as fh:
            fh.write("".join(lines[3:]))
        for _ in range(200):  # a condition, not a fixed sleep
            if len(files.store.items) > before:
                break
            await asyncio.sleep(0.05)
        task.cancel()
        return len(files.store.items)

    assert asyncio.run(scenario()) > before


def test_a_replay_reads_in_time_order_and_owns_its_store():
    replay = ReplaySource(open_paths([str(SAMPLES / "demo.recording.jsonl")]))
    events, namespaces = replay.read()
    stamps = [e.ts for e in events if getattr(e, "ts", None) is not None]
    assert stamps == sorted(stamps)
    control = replay.prepare(events, namespaces, FakeClock(1.0).now)
    assert replay.store is control.store and replay.clock(FakeClock(1.0)) is control.clock


def test_sources_run_without_textual():
    code = (
        "import sys, inspector.sources.feeds, inspector.sources.files, inspector.sources.base; "
        "print(json.dumps('textual' in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", "import json; " + code], capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) is False


def test_a_load_leaves_the_collector_on_and_what_it_read_collectable():
    import gc
    import platform
    import weakref

    from inspector.sources.files import read_into, release_freed_heap

    assert gc.isenabled()
    store = CallStore()
    read_into(store, open_paths([str(SAMPLES / "demo.recording.jsonl")]))
    assert gc.isenabled() and store.call_count > 0
    assert gc.get_freeze_count() == 0  # moved to the oldest generation, not frozen for ever
    gone = weakref.ref(store)
    calls = list(store.all_calls())
    calls[0].children = [*calls[0].children, calls[1]]  # a cycle, which only the collector frees
    calls[1].parent = calls[0]
    del store, calls
    gc.collect()
    assert gone() is None
    glibc = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"
    assert release_freed_heap() is glibc  # asked of glibc; elsewhere nothing is done


def test_the_threads_are_asked_to_share_one_heap_in_a_process_of_their_own():
    import platform

    glibc = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"
    code = (
        "import json; from inspector.sources.files import share_one_heap; print(json.dumps(share_one_heap()))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(out.stdout) is glibc  # glibc took the setting; elsewhere nothing is asked


def test_a_file_load_lets_go_of_the_readers_buffers(tmp_path):
    """A Claude Code read keeps its line buffer for the next read; the app's load, done, lets it go (256 KB
    of the app's memory), and a read after that reads the same."""
    from inspector.protocols import claude

    path = tmp_path / "s.jsonl"
    record = {
        "type": "user",
        "sessionId": "s",
        "uuid": "u1",
        "timestamp": "2025-06-01T10:00:00.000Z",
        "message": {"content": "hello"},
    }
    path.write_text(json.dumps(record) + "\n")
    first = [type(event).__name__ for event in claude.read(str(path))]
    assert claude._POOL  # kept for the next read
    files = FileSource(open_paths([str(path)]))
    files.load(lambda progress: None)
    assert claude._POOL == [] and files.store.message_count == 1
    assert [type(event).__name__ for event in claude.read(str(path))] == first == ["Message"]
