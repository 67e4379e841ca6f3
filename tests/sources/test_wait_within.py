"""A wait with a time limit never loses a cancellation (asyncio.wait_for before 3.12 did, and a followed
file's watcher then ran on after its task was cancelled: a test hung for half an hour in CI)."""

from __future__ import annotations

import asyncio

import pytest

from inspector.sources.tasks import wait_within
from inspector.sources.watch import FileWatcher


async def test_a_cancel_in_the_turn_the_wait_ends_is_not_lost():
    flag = asyncio.Event()
    went_on = []

    async def waiting() -> None:
        await wait_within(flag.wait(), 10)
        went_on.append(True)  # would run if the cancellation were swallowed

    task = asyncio.create_task(waiting())
    await asyncio.sleep(0)
    flag.set()
    task.cancel()  # in the same turn as the wait's end
    done, _ = await asyncio.wait({task}, timeout=5)
    assert done and task.cancelled() and went_on == []


async def test_a_wait_within_its_time_gives_the_result_and_past_it_times_out():
    async def soon() -> int:
        await asyncio.sleep(0)
        return 7

    assert await wait_within(soon(), 5) == 7
    with pytest.raises(asyncio.TimeoutError):
        await wait_within(asyncio.Event().wait(), 0.01)


async def test_a_watcher_cancelled_as_its_file_changes_stops(tmp_path):
    path = tmp_path / "f.jsonl"
    path.write_bytes(b"")
    watcher = FileWatcher(str(path), poll_interval=0.05)
    ends = []

    async def watch_forever() -> None:
        while True:
            await watcher.wait(5)
            ends.append(1)

    task = asyncio.create_task(watch_forever())
    await asyncio.sleep(0.05)
    with path.open("ab") as fh:
        fh.write(b"x\n")
    await asyncio.sleep(0)
    task.cancel()
    done, _ = await asyncio.wait({task}, timeout=5)
    watcher.close()
    assert done and task.cancelled()
