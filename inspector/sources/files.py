"""Reading session files: resolved formats, one namespace per file, progress in time-boxed batches."""

from __future__ import annotations

import gc
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from inspector import protocols
from inspector.model import CallStore, Malformed
from inspector.model.events import Event, Skipped
from inspector.protocols.format import Format
from inspector.sources.session import FileSummary, UnusableInput, expand_folders, resolve_format

BIG_FILES = 64 * 1024 * 1024
"""Above this many bytes in total, payloads are dropped after threading and re-read when shown."""

BATCH_SECONDS = 0.1
"""How often a load reports progress."""


@dataclass
class Progress:
    """How far a load has come: bytes of the files read so far, events threaded, finished or not."""

    done: int
    total: int
    events: int
    finished: bool = False

    @property
    def fraction(self) -> float:
        return 1.0 if self.finished or not self.total else min(1.0, self.done / self.total)


@dataclass
class Opened:
    """A path with its format and the namespace that keeps its ids apart from other files."""

    path: str
    fmt: Format
    ns: str
    size: int
    reached: int = -1  # where the load's last record ended: a follow starts there, missing nothing
    torn: list[Malformed] = field(default_factory=list)
    """The malformed records the load made of what came after its last good record (maybe a last line
    not written whole yet: a follow takes them back and reads that line when it ends)."""
    in_folder: bool = False  # found in a folder: a read that fails costs this file, not the others


def open_paths(
    paths: list[str],
    forced: str | None = None,
    skipped: list[str] | None = None,
    notes: list[str] | None = None,
) -> list[Opened]:
    """Resolve every path's format first; raises UnusableInput (one line) before anything is read.

    A folder stands for the sessions of every format under it (sources.folders); what the user should be
    told of its files (subagents shown without their missing session) is added to ``notes``.

    With ``skipped`` given, a file found in a folder that cannot be opened (unreadable, a FIFO...) is
    left out and its reason added there: the folder's other sessions still open. A path named itself
    always raises.
    """
    expanded = expand_folders(paths, notes)
    named = set(paths)
    found = []
    seen: dict[tuple[int, int], str] = {}
    for path in expanded:
        same = _seen_before(path, seen)
        if same is not None:  # a file named twice (a link, a folder and a file in it): read once
            if notes is not None:
                notes.append(f"{path} is {same} again: read once")
            continue
        try:
            found.append((path, resolve_format(path, forced)))
        except UnusableInput as exc:
            if skipped is None or path in named:
                raise
            skipped.append(str(exc))
    if not found and skipped:
        raise UnusableInput(f"nothing could be opened ({skipped[0]})")
    opened = []
    for index, (path, fmt) in enumerate(found):
        try:
            size = os.path.getsize(path)
        except OSError:
            size = 0
        ns = str(index) if len(found) > 1 else ""
        opened.append(Opened(path, fmt, ns, size, in_folder=path not in named))
    return opened


def _seen_before(path: str, seen: dict[tuple[int, int], str]) -> str | None:
    """The path named before that is the same file as ``path`` (None: the first time, or no file)."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    key = (info.st_dev, info.st_ino)
    if key in seen:
        return seen[key]
    seen[key] = path
    return None


def source_labels(paths: list[str]) -> dict[str, str]:
    """A short label per path for the source column: the file name, with its folder when names clash."""
    names = [os.path.basename(p) or p for p in paths]
    labels = {}
    for path, name in zip(paths, names, strict=True):
        if names.count(name) > 1:
            name = os.path.join(os.path.basename(os.path.dirname(os.path.abspath(path))), name)
        labels[path] = name
    return labels


def keep_payloads_for(opened: list[Opened]) -> bool:
    return sum(o.size for o in opened) <= BIG_FILES


def _readers(opened: list[Opened], details: bool = True) -> list[Iterator[Event]]:
    """Fresh event iterators for the files (files of one format read as a set: see protocols.readers)."""
    return protocols.readers([(o.path, o.fmt) for o in opened], details=details)


def _lean_readers(opened: list[Opened]) -> list[Iterator[Event]]:
    """:func:`_readers` for a store that keeps payloads and shows no detail (``dump --json``)."""
    return protocols.readers([(o.path, o.fmt) for o in opened], lean=True)


def _events(opened: Opened, events: Iterator[Event]) -> Iterator[Event]:
    try:
        yield from events
    except OSError as exc:
        if opened.in_folder:  # one of a folder's sessions: the others are still read
            reason = f"could not read the rest of the file: {exc.strerror or exc}"
            yield Malformed(opened.path, reason, source=opened.path)
            return
        raise UnusableInput(f"{opened.path}: {exc.strerror or exc}") from None
    except protocols.FormatError as exc:
        raise UnusableInput(str(exc)) from None


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off for a load: a load makes millions of objects and keeps many,
    and the collector, run every 700 allocations, walks the growing store again and again (a fifth
    of a 100 MB read) to find nothing (a parsed record is freed by its reference count).

    When it is on again, what the load made goes straight to the oldest generation (frozen, then
    unfrozen: documented to land there): left in the youngest, the collector's next runs walked all of
    it twice over, 60 ms after a 100 MB load in the app, again to find nothing. The oldest generation is
    still collected, at the rare full collections: nothing is kept for ever."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.freeze()
            gc.unfreeze()
            gc.enable()


def release_freed_heap() -> bool:
    """Give the C heap a load freed back to the system; True when it could be asked (glibc).

    A load parses every record and keeps a little of each: the parsed values (and long lines' text)
    come and go through the C allocator, scattered among what stays, and glibc keeps the freed pages
    (a 100 MB transcript left 6 MB of them in the app's resident memory). ``malloc_trim`` returns the
    free pages to the system; nothing kept moves. Elsewhere (macOS, musl...) nothing is done."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc
        return False
    trim(0)
    return True


M_ARENA_MAX = -8
"""glibc's ``mallopt`` parameter: how many C heaps (arenas) the threads of the process may use."""


def share_one_heap() -> bool:
    """Make every thread of this process allocate from one C heap (glibc's main arena); True when it
    could be asked (glibc). Call it before the threads start: a thread's heap is chosen at its first
    allocation.

    glibc gives each new thread a heap of its own (up to eight per core), kept for the thread's
    life. The app reads a file in a thread while the interpreter lock lets one thread allocate at a
    time, so separate heaps buy nothing here, and the reading thread's heap keeps what the reading freed
    scattered among what the store kept (a 100 MB transcript: 2 MB of the app's resident memory).
    Elsewhere (macOS, musl...) nothing is done."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc
        return False
    return bool(mallopt(M_ARENA_MAX, 1))


def read_into(
    store: CallStore,
    opened: list[Opened],
    *,
    progress: Callable[[Progress], None] | None = None,
    cancelled: Callable[[], bool] = lambda: False,
    clock: Callable[[], float] = time.monotonic,
    breathe: float = 0.0,
    lean: bool = False,
) -> list[FileSummary]:
    """Thread every file's events into ``store``, calling ``progress`` at most every BATCH_SECONDS.

    Stops early (returning what was read) when ``cancelled()`` turns true. ``breathe`` > 0: read in
    slices of about that many seconds and let the other threads run between them (a thread that reads
    behind a UI: the UI's loop, woken, waits for the interpreter lock until the reader lets it go).
    ``lean``: a store that keeps payloads for a command that shows no details (protocols.readers).
    """
    with _collector_paused():
        return _read_into(store, opened, progress, cancelled, clock, breathe, lean)


def _read_into(
    store: CallStore,
    opened: list[Opened],
    progress: Callable[[Progress], None] | None,
    cancelled: Callable[[], bool],
    clock: Callable[[], float],
    breathe: float,
    lean: bool = False,
) -> list[FileSummary]:
    total = sum(o.size for o in opened) or 1
    infos = []
    done_before = 0
    events = 0
    next_report = clock() + BATCH_SECONDS
    next_breath = clock() + breathe if breathe > 0 else float("inf")
    readers = _lean_readers(opened) if lean else _readers(opened, store.keep_payloads)
    for item, reader in zip(opened, readers, strict=True):
        info = FileSummary(path=item.path, format=item.fmt.name, label=os.path.basename(item.path))
        infos.append(info)
        reached = count = 0
        path, ns, ingest = item.path, item.ns, store.ingest
        torn: list[Malformed] = []
        for count, event in enumerate(_events(item, reader), 1):
            ingest(event, ns)
            kind = type(event)
            # a skipped record (a third of a transcript's events) has no place: no getattr's error
            raw = None if kind is Skipped else getattr(event, "raw", None)
            if raw is not None:
                end = raw.end()  # -1 for a place without an offset (reached is never below 0)
                if end > reached and raw.source == path:
                    reached = end
                    if torn:  # none of them reaches the end read so far any more (a malformed line's
                        torn.clear()  # own place included: a flood of them keeps one, not 64)
            if isinstance(event, Malformed):
                info.malformed += 1
                if raw is not None and raw.source == path and raw.offset >= 0:
                    torn.append(event)
                    if len(torn) > 64:  # only those reaching the end read so far may be the last line's
                        torn = [
                            m for m in torn if m.raw is not None and m.raw.offset + m.raw.length >= reached
                        ]
            if count & 63 == 0:
                info.events = count
                if cancelled():
                    return infos
                now = clock()
                if now >= next_report and progress is not None:
                    next_report = now + BATCH_SECONDS
                    progress(Progress(done_before + reached, total, events + count))
                if now >= next_breath:
                    time.sleep(0)  # lets the interpreter lock go: a thread waiting for it takes it now
                    next_breath = clock() + breathe
        info.events = count
        item.reached = reached
        item.torn = [m for m in torn if m.raw is not None and m.raw.offset + m.raw.length >= reached]
        events += info.events
        done_before += item.size
    if progress is not None:
        progress(Progress(total, total, events, finished=True))
    return infos


def read_all(opened: list[Opened]) -> tuple[list[Event], dict[int, str]]:
    """Every event of every file (for a replay), in time order across files, and each event's namespace."""
    tagged: list[tuple[float, int, Event, str]] = []
    for item, reader in zip(opened, _readers(opened), strict=True):
        for event in _events(item, reader):
            ts = getattr(event, "ts", None)
            order = ts if isinstance(ts, (int, float)) and not isinstance(ts, bool) else float("-inf")
            tagged.append((order, len(tagged), event, item.ns))
    if len(opened) > 1:
        _fill_untimed(tagged)
        tagged.sort(key=lambda entry: (entry[0], entry[1]))
    return [entry[2] for entry in tagged], {id(entry[2]): entry[3] for entry in tagged if entry[3]}


FIRST_BATCH_EVENTS = 500
"""A streamed replay hands over its first events as soon as it has this many (its first rows at once)."""


def read_stream(
    opened: list[Opened],
    *,
    cancelled: Callable[[], bool] = lambda: False,
    clock: Callable[[], float] = time.monotonic,
    breathe: float = 0.0,
) -> Iterator[tuple[list[Event], dict[int, str]]]:
    """The events of a replay in batches as they are read: the first batch as soon as it holds
    FIRST_BATCH_EVENTS, then one every BATCH_SECONDS, so a replay plays while the rest is read.

    One file is read in its own order as it goes (its recorded order). Several files are ordered by
    time across files first (:func:`read_all`), then handed over in batches. Stops when ``cancelled()``.
    ``breathe``: as :func:`read_into`'s (one file).
    """
    if len(opened) != 1:
        events, namespaces = read_all(opened)
        for start in range(0, len(events), 50_000):
            if cancelled():
                return
            part = events[start : start + 50_000]
            yield part, {id(e): namespaces[id(e)] for e in part if id(e) in namespaces}
        return
    item = opened[0]
    batch: list[Event] = []
    first = True
    next_report = clock() + BATCH_SECONDS
    next_breath = clock() + breathe if breathe > 0 else float("inf")
    with _collector_paused():
        for count, event in enumerate(_events(item, _readers(opened)[0]), 1):
            batch.append(event)
            if count & 63 and not (first and count == FIRST_BATCH_EVENTS):
                continue
            if cancelled():
                return
            now = clock()
            if now >= next_breath:
                time.sleep(0)  # lets the interpreter lock go (see read_into)
                next_breath = clock() + breathe
            if (first and count >= FIRST_BATCH_EVENTS) or now >= next_report:
                first = False
                next_report = now + BATCH_SECONDS
                yield batch, {}
                batch = []
    if batch:
        yield batch, {}


def _fill_untimed(tagged: list[tuple[float, int, Event, str]]) -> None:
    """An event without a time sorts right after the previous event of its own file."""
    last: dict[str, float] = {}
    for index, (order, seq, event, ns) in enumerate(tagged):
        if order == float("-inf"):
            tagged[index] = (last.get(ns, float("-inf")), seq, event, ns)
        else:
            last[ns] = order


def load(
    paths: list[str],
    store: CallStore,
    forced: str | None = None,
    skipped: list[str] | None = None,
    *,
    lean: bool = False,
    notes: list[str] | None = None,
) -> list[FileSummary]:
    """Read every path into ``store``; raises UnusableInput before reading anything if one is unusable.

    A folder stands for the sessions of every format under it (with ``skipped`` given, one of them that
    cannot be opened is named there and the others are read; ``notes``: see open_paths). The one reading path, shared with the
    UI's load (:func:`read_into`): namespaces, malformed counts, error mapping. ``lean``: see read_into.
    """
    return read_into(store, open_paths(paths, forced, skipped, notes), lean=lean)
