"""The LiveKit SDK on a loop of its own thread, and an inbox that hands its events to the app's loop.

The SDK drains every event its native core queued in one step of the loop it runs on, without yielding
(``Room._listen_task``): during a flood of packets that step grew to tens of milliseconds and a key press
waited behind it. On its own thread the SDK's steps only share the interpreter (which switches threads
every few milliseconds), and the app's loop takes the packets in slices of ``SLICE_S`` with its own work
(keys, repaints) between them. See ``bench/bench_live_flood_keys.py``.
"""

from __future__ import annotations

import asyncio
import collections
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

SLICE_S = 0.004
"""The longest the app's loop spends on handed-over events before it lets other work run."""


class LoopThread:
    """An asyncio loop running in a daemon thread; :meth:`run` awaits a coroutine on it from another loop."""

    def __init__(self, name: str = "livekit-sdk") -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def run(self, work: Coroutine[Any, Any, T]) -> Awaitable[T]:
        """Start ``work`` on this thread's loop; the result (or exception) is awaited where this is called."""
        return asyncio.wrap_future(asyncio.run_coroutine_threadsafe(work, self.loop))

    def close(self) -> None:
        """Stop the loop and let the thread end (what still runs on it is dropped)."""
        if self.loop.is_closed():
            return
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=5)
        if not self._thread.is_alive():
            self.loop.close()


class Inbox:
    """Calls handed over from any thread, made in order on ``loop`` in slices of ``slice_s`` seconds."""

    def __init__(self, loop: asyncio.AbstractEventLoop, slice_s: float = SLICE_S) -> None:
        self._loop = loop
        self._slice_s = slice_s
        self._queue: collections.deque[tuple[Callable[..., object], tuple[Any, ...]]] = collections.deque()
        self._lock = threading.Lock()
        self._scheduled = False
        self._closed = False
        self.on_error: Callable[[BaseException], None] | None = None

    def __len__(self) -> int:
        return len(self._queue)

    def put(self, call: Callable[..., object], *args: Any) -> bool:
        """Have ``call(*args)`` made on the loop, after everything put before it (from any thread); False
        when it will not be (the inbox is closed, or the app's loop is)."""
        if self._closed:
            return False
        self._queue.append((call, args))
        with self._lock:
            if self._scheduled:
                return True
            self._scheduled = True
        try:
            self._loop.call_soon_threadsafe(self._drain)
        except RuntimeError:  # the app's loop is closed: nobody is left to show the event
            self._queue.clear()
            return False
        return True

    def close(self) -> list[tuple[Callable[..., object], tuple[Any, ...]]]:
        """Take nothing more; what is still waiting is dropped and returned (for its owner to count)."""
        self._closed = True
        dropped = []
        while self._queue:
            dropped.append(self._queue.popleft())
        return dropped

    def flush(self) -> None:
        """Make every call waiting now (on the loop's thread); calls put meanwhile wait for the next drain
        (a flood handed over while this runs would otherwise never let it end)."""
        for _ in range(len(self._queue)):
            self._one()

    def _one(self) -> None:
        call, args = self._queue.popleft()
        try:
            call(*args)
        except Exception as exc:  # noqa: BLE001 - one event must not stop the ones after it
            if self.on_error is not None:
                self.on_error(exc)

    def _drain(self) -> None:
        deadline = time.perf_counter() + self._slice_s
        while self._queue and time.perf_counter() < deadline:
            self._one()
        with self._lock:
            if not self._queue:
                self._scheduled = False
                return
        self._loop.call_soon(self._drain)  # the rest after the loop's other work
