"""Ending background tasks: cancel them and wait until each has ended, so none outlives its loop.

A task only cancelled is still pending: when its loop then closes, asyncio says "Task was destroyed but
it is pending!", and the coroutine's ``finally`` (closing a connection) runs later with no loop
("RuntimeError: no running event loop"). Every source, live session and demo ends its tasks here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Iterable
from typing import Any, TypeVar

WAIT_SECONDS = 5.0
"""How long the tasks get to end once cancelled (a task that ignores cancellation is left after that)."""


async def cancel_and_wait(tasks: Iterable[asyncio.Future[Any]]) -> None:
    """Cancel ``tasks`` (the current task excepted) and wait until each has ended."""
    current = asyncio.current_task()
    pending = [task for task in tasks if task is not current and not task.done()]
    for task in pending:
        task.cancel()
    if pending:
        await asyncio.wait(pending, timeout=WAIT_SECONDS)


async def cancel_all_others() -> None:
    """Cancel every other task of the running loop and wait until each has ended (a loop's last step)."""
    await cancel_and_wait(asyncio.all_tasks())


T = TypeVar("T")


async def wait_within(awaitable: Awaitable[T], timeout: float | None) -> T:
    """``asyncio.wait_for`` that never swallows a cancellation; raises ``asyncio.TimeoutError`` on time.

    Before Python 3.12, ``wait_for`` returns the inner result when the inner awaitable completes in the
    same turn as the caller is cancelled: the cancellation is lost, and a loop that waits again (a followed
    file's watcher, a connection's receive loop) runs on after its task was cancelled, never to end.
    """
    inner = asyncio.ensure_future(awaitable)
    try:
        done, _ = await asyncio.wait({inner}, timeout=timeout)
    except BaseException:
        inner.cancel()
        raise
    if not done:
        inner.cancel()
        raise asyncio.TimeoutError
    return inner.result()
