"""Every feed the main screen shows, as a Source with declared capabilities: files, a follow, a replay.

The live room (and the demo, which is a live room with a scripted agent in it) is a
:class:`~inspector.sources.packets.PacketSource`; a store handed over in memory is a :class:`StoreSource`.
:func:`feed_for` picks the source for what was asked. None of these import Textual: the UI runs each
source's ``run(stop)`` in one worker on its loop (files are read and a replay's batches in a thread from
there), and a file's follow (``FileSource.follow``) when the person asks for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Callable, Iterator, Sequence

from inspector import protocols
from inspector.model import CallStore
from inspector.model.clock import Clock, EndOfRecording
from inspector.model.events import Event
from inspector.sources.base import Source
from inspector.sources.files import (
    Opened,
    Progress,
    keep_payloads_for,
    read_all,
    read_into,
    read_stream,
    release_freed_heap,
)
from inspector.sources.replaying import ReplayControl
from inspector.sources.session import FileSummary, UnusableInput, resolve_format
from inspector.sources.tail import FileTail, follow, supports_follow
from inspector.sources.watch import FileWatcher
from inspector.userpath import is_regular


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
    """Session files read into a store once (in a thread), and followed as they grow when asked; the
    folders they were found in (``folders``) are watched for new session files while following."""

    name = "files"

    def __init__(
        self,
        opened: list[Opened],
        *,
        follow: bool = False,
        label: str = "",
        folders: Sequence[str] = (),
        forced: str | None = None,
    ) -> None:
        super().__init__()
        self.opened = opened
        self.folders = list(folders)  # opened as folders: a session file created there later is followed too
        self.forced = forced  # the format asked for (--format), for those new files too
        self.store = CallStore(keep_payloads=keep_payloads_for(opened))
        self.follow_asked = follow
        self.breathe = 0.0  # run(): seconds of reading between two pauses (a UI sets it, see read_into)
        self.can_follow = any(supports_follow(o.fmt) for o in opened) or bool(self.folders)
        self.following = False
        self._label = label
        self.problems: dict[str, str] = {}  # followed paths that cannot be read now, and why
        self._tails: list[FileTail] = []
        self._watchers: list[FileWatcher] = []

    @property
    def label(self) -> str:
        return self._label

    @property
    def files(self) -> FileSource:
        return self

    def clock(self, wall: Clock) -> Clock:
        """A finished file is judged at its last record's time; a followed one at the wall clock."""
        if self.following:
            return wall
        store = self.store
        return EndOfRecording(lambda: store.last_ts, wall)

    async def run(self, stop: asyncio.Event) -> None:
        """Read the files into the store (in a thread, reporting progress), stopping early when ``stop``
        is set; following them is asked for on their :attr:`files` once read."""
        await asyncio.to_thread(self.load, self._report_progress, stop.is_set, breathe=self.breathe)

    def load(
        self,
        progress: Callable[[Progress], None],
        cancelled: Callable[[], bool] = lambda: False,
        *,
        breathe: float = 0.0,
    ) -> list[FileSummary]:
        """Read every file into the store (blocking: run it in a thread; ``breathe``: see read_into); the
        heap the reading freed and the readers' buffers go back to the system (the app stays up with what
        it keeps)."""
        try:
            return read_into(self.store, self.opened, progress=progress, cancelled=cancelled, breathe=breathe)
        finally:
            protocols.release_buffers()
            release_freed_heap()

    def followable(self) -> tuple[list[Opened], list[str]]:
        """The files that can be followed, and the names of the formats that cannot."""
        able = [o for o in self.opened if supports_follow(o.fmt)]
        unable = sorted({o.fmt.name for o in self.opened if not supports_follow(o.fmt)})
        return able, unable

    async def follow(
        self,
        opened: Opened,
        on_restart: Callable[[str], None],
        on_problem: Callable[[str, str], None] | None = None,
    ) -> None:
        """Thread every line appended to ``opened`` into the store, until cancelled.

        Starts where the load stopped, so lines written since are not missed. When the file is truncated
        or replaced (an atomic rewrite), every followed file is read again from its top into a fresh
        store (``self.store`` is replaced, then ``on_restart(path)`` is called: the screen shows the new
        store, keeping its cursor and filter). ``on_problem(path, why)`` says when the path is gone or is
        not a regular file (following keeps trying), and ``why`` is "" when it is back. A Claude Code
        session's subagent files, those created after following began included (at any depth under
        ``<session>/subagents/``), are followed too.
        """
        path = opened.path

        def on_events(events: list[Event]) -> None:
            store = self.store
            for event in events:
                store.ingest(event, opened.ns)

        def restarted() -> None:
            self.store = CallStore(keep_payloads=self.store.keep_payloads)
            for other in self._tails:
                if other is not tail:
                    other.rewind()
            for watcher in self._watchers:
                watcher.poke()
            on_restart(path)

        def problem(why: str) -> None:
            self.problems[path] = why
            if not why:
                del self.problems[path]
            if on_problem is not None:
                on_problem(path, why)

        try:
            await self._take_back_torn(opened)
            tail = await asyncio.to_thread(
                FileTail.at_offset if opened.reached >= 0 else FileTail.at_end,
                *((path, opened.reached) if opened.reached >= 0 else (path,)),
            )
        except OSError:
            tail = FileTail(path, ident=(-1, -1))  # gone or not a file now: read from its top when it is back
        watcher = FileWatcher(path)
        self._tails.append(tail)
        self._watchers.append(watcher)
        nested = asyncio.ensure_future(self._follow_subagents(opened, on_problem))
        try:
            await follow(
                path,
                opened.fmt,
                on_events,
                tail=tail,
                watcher=watcher,
                on_restart=restarted,
                on_problem=problem,
            )
        finally:
            nested.cancel()
            self._tails.remove(tail)
            self._watchers.remove(watcher)
            self.problems.pop(path, None)

    async def _take_back_torn(self, opened: Opened) -> None:
        """A last line the load found unfinished (no newline yet) and could not read: its malformed
        records are taken back and the follow starts at that line, read whole once it ends (its call
        was lost, and the rest of the line was read as a line of its own)."""
        torn, opened.torn = opened.torn, []
        if not torn or opened.reached < 0:
            return
        first = min(m.raw.offset for m in torn if m.raw is not None)
        start = await asyncio.to_thread(FileTail.unfinished_line, opened.path, first)
        if start < 0 or start > first:
            return
        self.store.withdraw([m for m in torn if m.raw is not None and m.raw.offset >= start])
        opened.reached = start

    async def follow_folders(
        self,
        on_restart: Callable[[str], None],
        on_problem: Callable[[str, str], None] | None = None,
        on_found: Callable[[Opened], None] | None = None,
    ) -> None:
        """While following, look at the folders opened every FOLDER_POLL seconds for session files that
        opening them now would open and that are not read yet (a session started since), and follow each
        from its top as :meth:`follow` does (``on_found`` is told of it first, when it is in
        :attr:`opened`). A file whose format cannot be told yet (empty, its first line not written) is
        looked at again at the next poll; one whose format cannot be followed is passed over. Until
        cancelled."""
        if not self.folders:
            return
        known = {o.path for o in self.opened}
        started: list[asyncio.Future[None]] = []
        try:
            while True:
                await asyncio.sleep(FOLDER_POLL)
                for opened in await asyncio.to_thread(self._new_in_folders, known):
                    self.opened.append(opened)
                    if on_found is not None:
                        on_found(opened)
                    started.append(asyncio.ensure_future(self.follow(opened, on_restart, on_problem)))
        finally:
            for task in started:
                task.cancel()

    def _new_in_folders(self, known: set[str]) -> list[Opened]:
        """The session files of the folders not in ``known`` whose format can be told and followed (added
        to ``known``), each to be read from its top in a namespace of its own."""
        from inspector.sources.folders import sessions_in

        found: list[Opened] = []
        for folder in self.folders:
            for path in sessions_in(folder).paths:
                if path in known:
                    continue
                try:
                    fmt = resolve_format(path, self.forced)
                except UnusableInput:
                    continue  # not told yet (an empty new file): looked at again next time
                known.add(path)
                if not supports_follow(fmt):
                    continue
                ns = str(len(self.opened) + len(found))
                while any(o.ns == ns for o in self.opened):
                    ns += "+"
                found.append(Opened(path, fmt, ns, 0, reached=0, in_folder=True))
        return found

    async def _follow_subagents(self, opened: Opened, on_problem: Callable[[str, str], None] | None) -> None:
        """Follow the subagent files of a Claude Code session: those there now from their end, those that
        appear later from their top (looked for at any depth under ``<session>/subagents/``)."""
        if opened.fmt.name != "claude" or not opened.path.endswith(".jsonl"):
            return
        folder = opened.path[: -len(".jsonl")] + os.sep + "subagents"
        known = set(await asyncio.to_thread(subagent_files, folder))
        started: list[asyncio.Future[None]] = []

        def on_events_for(ns: str) -> Callable[[list[Event]], None]:
            def on_events(events: list[Event]) -> None:
                store = self.store
                for event in events:
                    store.ingest(event, ns)

            return on_events

        tails: list[FileTail] = []

        async def start(path: str, from_top: bool) -> None:
            tail = FileTail(path, ident=(-1, -1))  # a new file: read from its top
            if not from_top:
                with contextlib.suppress(OSError):
                    tail = await asyncio.to_thread(FileTail.at_end, path)
            tails.append(tail)
            self._tails.append(tail)
            started.append(
                asyncio.ensure_future(follow(path, opened.fmt, on_events_for(opened.ns), tail=tail))
            )

        try:
            for path in sorted(known):
                await start(path, from_top=False)
            while True:
                await asyncio.sleep(SUBAGENT_POLL)
                for path in await asyncio.to_thread(subagent_files, folder):
                    if path not in known:
                        known.add(path)
                        await start(path, from_top=True)
        finally:
            for task in started:
                task.cancel()
            for tail in tails:
                self._tails.remove(tail)


FOLDER_POLL = 1.0
"""How often the folders opened are looked at, while following, for session files created since."""

SUBAGENT_POLL = 1.0
"""How often a followed session's ``subagents/`` folder is looked at for new subagent files."""

SUBAGENT_DEPTH = 6
"""How deep under ``subagents/`` subagent files are looked for (workflows nest them in folders)."""


def subagent_files(folder: str) -> list[str]:
    """Every ``agent-*.jsonl`` regular file under ``folder``, at any depth up to SUBAGENT_DEPTH."""
    found = []
    for directory, folders, files in os.walk(folder):
        if directory[len(folder) :].count(os.sep) >= SUBAGENT_DEPTH:
            folders[:] = []
        for name in files:
            if name.startswith("agent-") and name.endswith(".jsonl"):
                path = os.path.join(directory, name)
                if is_regular(path):
                    found.append(path)
    return sorted(found)


PUMP_EVERY = 0.05
"""Seconds between two deliveries of a playing replay's due events."""


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
        self.breathe = 0.0  # run(): seconds of reading between two pauses (see read_into)
        self.wall: Callable[[], float] = time.time  # the clock the replay's time runs against (the UI's)

    async def run(self, stop: asyncio.Event) -> None:
        """Read the recording in batches (in a thread) and play it from the first one, pumping its due
        events into the store until ``stop``; every batch and every pump is a state change (the UI
        shows the new store and the position)."""
        batches = iter(self.stream(stop.is_set, breathe=self.breathe))
        pump: asyncio.Future[None] | None = None
        try:
            while (batch := await asyncio.to_thread(next, batches, None)) is not None:
                self._take(*batch, done=False)
                if pump is None:
                    pump = asyncio.ensure_future(self._pump(stop))
            if not stop.is_set():
                self._take([], {}, done=True)
                if pump is None:
                    pump = asyncio.ensure_future(self._pump(stop))
            await stop.wait()
        finally:
            if pump is not None:
                pump.cancel()

    def _take(self, events: list[Event], namespaces: dict[int, str], *, done: bool) -> None:
        """A batch of the recording: the first starts the replay, the next ones extend it."""
        control = self.control
        if control is None:
            self.prepare(events, namespaces, self.wall, complete=done).play()
        else:
            control.extend(events, namespaces)
            if done:
                control.finish()
        self._set_state()

    async def _pump(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            control = self.control
            if control is not None and control.replayer.playing:
                control.pump()
                self._set_state()
            await asyncio.sleep(PUMP_EVERY)

    @property
    def label(self) -> str:
        return self._label

    @property
    def replaying(self) -> ReplaySource:
        return self

    def clock(self, wall: Clock) -> Clock:
        return self.control.clock if self.control is not None else wall

    def read(self) -> tuple[list[Event], dict[int, str]]:
        """Every event of the files in time order, and their namespaces (blocking: run it in a thread)."""
        return read_all(self.opened)

    def stream(
        self, cancelled: Callable[[], bool], *, breathe: float = 0.0
    ) -> Iterator[tuple[list[Event], dict[int, str]]]:
        """The events in batches as they are read (blocking: run it in a thread); the replay starts with
        the first batch (:meth:`prepare` with ``complete=False``) and takes the others as they come.
        ``breathe``: see :func:`~inspector.sources.files.read_into`."""
        return read_stream(self.opened, cancelled=cancelled, breathe=breathe)

    def prepare(
        self,
        events: list[Event],
        namespaces: dict[int, str],
        wall: Callable[[], float],
        *,
        complete: bool = True,
    ) -> ReplayControl:
        """The replay of ``events`` (from :meth:`read`, or the first batch of :meth:`stream` when not
        ``complete``), its store now this source's store."""
        keep = keep_payloads_for(self.opened)
        self.control = ReplayControl(
            events, namespaces, wall, speed=self.speed, keep_payloads=keep, complete=complete
        )
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
    folders: Sequence[str] = (),
    forced: str | None = None,
) -> Source:
    """The source that feeds what was asked: a live source as given, a replay, files, or a store.
    ``folders``: the paths of ``opened`` that were folders (followed, their new session files are too);
    ``forced``: the format asked for."""
    if source is not None:
        return source
    if replay:
        return ReplaySource(opened, speed=speed, label=label)
    if opened:
        return FileSource(opened, follow=follow, label=label, folders=folders, forced=forced)
    return StoreSource(store if store is not None else CallStore(), label)


async def stop_quietly(source: Source, stop: asyncio.Event, timeout: float = 5) -> None:
    """Tell ``source`` to stop (and stop rejoining); leaving must not fail because a source would not stop."""
    stop.set()
    try:
        await asyncio.wait_for(source.stop(), timeout)
    except Exception:  # noqa: BLE001 - see the docstring
        pass
