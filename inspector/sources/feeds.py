"""Every feed the main screen shows, as a Source with declared capabilities: files, a follow, a replay.

The live room (and the demo, which is a live room with a scripted agent in it) is a
:class:`~inspector.sources.base.PacketSource`; a store handed over in memory is a :class:`StoreSource`.
:func:`feed_for` picks the source for what was asked. None of these import Textual: the UI runs their
blocking parts (``FileSource.load``, ``ReplaySource.read``) in a worker thread and their async parts
(``FileSource.follow``, ``Source.run``) on its loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from inspector.model import CallStore
from inspector.model.clock import Clock, EndOfRecording
from inspector.model.events import Event
from inspector.sources.base import Source
from inspector.sources.files import Opened, Progress, keep_payloads_for, read_all, read_into
from inspector.sources.replaying import ReplayControl
from inspector.sources.session import FileSummary
from inspector.sources.tail import FileTail, follow, supports_follow


class StoreSource(Source):
    """A store handed over in memory: nothing more arrives, unless its owner adds it."""

    name = "store"

    def __init__(self, store: CallStore, label: str = "") -> None:
        super().__init__()
        self.store = store
        self._label = label

    @property
    def label(self) -> str:
        return self._label


class FileSource(Source):
    """Session files read into a store once (in a thread), and followed as they grow when asked."""

    name = "files"

    def __init__(self, opened: list[Opened], *, follow: bool = False, label: str = "") -> None:
        super().__init__()
        self.opened = opened
        self.store = CallStore(keep_payloads=keep_payloads_for(opened))
        self.follow_asked = follow
        self.can_follow = any(supports_follow(o.fmt) for o in opened)
        self.following = False
        self._label = label

    @property
    def label(self) -> str:
        return self._label

    def clock(self, wall: Clock) -> Clock:
        """A finished file is judged at its last record's time; a followed one at the wall clock."""
        if self.following:
            return wall
        store = self.store
        return EndOfRecording(lambda: store.last_ts, wall)

    def load(
        self, progress: Callable[[Progress], None], cancelled: Callable[[], bool] = lambda: False
    ) -> list[FileSummary]:
        """Read every file into the store (blocking: run it in a thread)."""
        return read_into(self.store, self.opened, progress=progress, cancelled=cancelled)

    def followable(self) -> tuple[list[Opened], list[str]]:
        """The files that can be followed, and the names of the formats that cannot."""
        able = [o for o in self.opened if supports_follow(o.fmt)]
        unable = sorted({o.fmt.name for o in self.opened if not supports_follow(o.fmt)})
        return able, unable

    async def follow(self, opened: Opened, on_restart: Callable[[str], None]) -> None:
        """Thread every line appended to ``opened`` into the store, until cancelled.

        Starts where the load stopped, so lines written since are not missed; ``on_restart(path)`` is
        called when the file was truncated or replaced and is read again from the top.
        """

        def on_events(events: list[Event]) -> None:
            for event in events:
                self.store.ingest(event, opened.ns)

        tail = (
            FileTail.at_offset(opened.path, opened.reached)
            if opened.reached >= 0
            else FileTail.at_end(opened.path)
        )
        await follow(
            opened.path, opened.fmt, on_events, tail=tail, on_restart=lambda: on_restart(opened.path)
        )


class ReplaySource(Source):
    """A recording played back in its own time: seekable, with the replay's clock."""

    name = "replay"
    can_seek = True

    def __init__(self, opened: list[Opened], *, speed: float = 1.0, label: str = "") -> None:
        super().__init__()
        self.opened = opened
        self.speed = speed
        self.control: ReplayControl | None = None
        self.store = CallStore(keep_payloads=keep_payloads_for(opened))  # until the replay is read
        self._label = label

    @property
    def label(self) -> str:
        return self._label

    def clock(self, wall: Clock) -> Clock:
        return self.control.clock if self.control is not None else wall

    def read(self) -> tuple[list[Event], dict[int, str]]:
        """Every event of the files in time order, and their namespaces (blocking: run it in a thread)."""
        return read_all(self.opened)

    def prepare(
        self, events: list[Event], namespaces: dict[int, str], wall: Callable[[], float]
    ) -> ReplayControl:
        """The replay of ``events`` (from :meth:`read`), its store now this source's store."""
        keep = keep_payloads_for(self.opened)
        self.control = ReplayControl(events, namespaces, wall, speed=self.speed, keep_payloads=keep)
        self.store = self.control.store
        return self.control


def feed_for(
    *,
    opened: list[Opened],
    follow: bool = False,
    replay: bool = False,
    speed: float = 1.0,
    source: Source | None = None,
    store: CallStore | None = None,
    label: str = "",
) -> Source:
    """The source that feeds what was asked: a live source as given, a replay, files, or a store."""
    if source is not None:
        return source
    if replay:
        return ReplaySource(opened, speed=speed, label=label)
    if opened:
        return FileSource(opened, follow=follow, label=label)
    return StoreSource(store if store is not None else CallStore(), label)


async def stop_quietly(source: Source, stop: asyncio.Event, timeout: float = 5) -> None:
    """Tell ``source`` to stop (and stop rejoining); leaving must not fail because a source would not stop."""
    stop.set()
    try:
        await asyncio.wait_for(source.stop(), timeout)
    except Exception:  # noqa: BLE001 - see the docstring
        pass
