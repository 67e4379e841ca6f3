"""The SDK's own thread and the inbox that hands its events to the app's loop, in order and in slices."""

from __future__ import annotations

import asyncio
import threading
import time

from inspector.sources.sdk_thread import Inbox, LoopThread


async def test_work_runs_on_the_thread_and_its_result_or_error_comes_back():
    sdk = LoopThread()
    try:

        async def where() -> str:
            return threading.current_thread().name

        async def fails() -> None:
            raise ValueError("refused")

        assert await sdk.run(where()) == "livekit-sdk"
        try:
            await sdk.run(fails())
        except ValueError as exc:
            assert str(exc) == "refused"
        else:
            raise AssertionError("the error did not come back")
    finally:
        sdk.close()
    assert sdk.loop.is_closed()


async def test_events_put_from_another_thread_are_made_in_order_on_the_loop():
    loop = asyncio.get_running_loop()
    inbox = Inbox(loop)
    seen: list[tuple[int, bool]] = []
    main = threading.current_thread()

    def note(n: int) -> None:
        seen.append((n, threading.current_thread() is main))

    def produce() -> None:
        for n in range(5000):
            inbox.put(note, n)

    producer = threading.Thread(target=produce)
    producer.start()
    producer.join()
    for _ in range(500):
        if len(seen) == 5000:
            break
        await asyncio.sleep(0.01)
    assert [n for n, _ in seen] == list(range(5000))
    assert all(on_loop for _, on_loop in seen)


async def test_a_long_backlog_is_taken_in_slices_with_the_loop_free_between_them():
    inbox = Inbox(asyncio.get_running_loop(), slice_s=0.002)
    done: list[int] = []
    ticks: list[int] = []

    def slow(n: int) -> None:
        time.sleep(0.0005)
        done.append(n)

    async def other_work() -> None:
        while len(done) < 400:
            ticks.append(len(done))
            await asyncio.sleep(0)

    for n in range(400):
        inbox.put(slow, n)
    await other_work()
    assert done == list(range(400))
    assert len(set(ticks)) > 20  # the other task ran between many slices, not once before or after


async def test_one_failing_event_is_reported_and_the_rest_still_run():
    inbox = Inbox(asyncio.get_running_loop())
    errors: list[str] = []
    inbox.on_error = lambda exc: errors.append(str(exc))
    done: list[int] = []

    def boom() -> None:
        raise RuntimeError("bad packet")

    inbox.put(done.append, 1)
    inbox.put(boom)
    inbox.put(done.append, 2)
    inbox.flush()
    assert done == [1, 2] and errors == ["bad packet"]


async def test_a_closed_inbox_takes_nothing_more():
    inbox = Inbox(asyncio.get_running_loop())
    done: list[int] = []
    inbox.put(done.append, 1)
    inbox.close()
    inbox.put(done.append, 2)
    await asyncio.sleep(0.01)
    assert done == [] and len(inbox) == 0
