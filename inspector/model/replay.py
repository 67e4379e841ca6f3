"""Replay a recorded session at 1x, 2x, 10x or instantly, with a clock that countdowns follow as they did live.

Typical use by a UI (``wall`` is injected so tests drive it with ``FakeClock().now``)::

    replayer = Replayer(list(module.read(path)))
    store = CallStore(clock=replayer.clock)      # Call.state()/remaining() now use replay time
    replayer.play()                              # (returns an update too: reset when it rewinds)
    # on a timer (replayer.next_due_in() says how long to wait):
    store.ingest_many(replayer.due())
    # on step/seek: apply the update it returns
    update = replayer.step_prev()
    if update.reset:
        store = CallStore(clock=replayer.clock)  # rebuild from the start
    store.ingest_many(update.events)

Events are ingested again on a rebuild: the store must treat them as fresh (it does; payloads dropped by
``keep_payloads=False`` stay dropped and are re-read from ``raw`` when shown).
"""

from __future__ import annotations

import bisect
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from inspector.model.events import Event

INSTANT = math.inf
"""The speed at which every remaining event is due at once."""

SPEEDS: tuple[float, ...] = (1.0, 2.0, 10.0, INSTANT)
"""The speeds ``faster()`` and ``slower()`` step through."""

WallClock = Callable[[], float]


def speed_label(speed: float) -> str:
    """``1x``, ``2x``, ``10x``, ``0.5x`` or ``instant``."""
    if math.isinf(speed):
        return "instant"
    return f"{speed:g}x"


def parse_speed(text: str | float) -> float:
    """``"2"``, ``"2x"``, ``2.0`` or ``"instant"`` to a speed; raises ValueError for anything else."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        value = float(text)
    elif isinstance(text, str):
        word = text.strip().lower()
        if word in ("instant", "inf", "max"):
            return INSTANT
        try:
            value = float(word[:-1] if word.endswith("x") else word)
        except ValueError:
            raise ValueError(f"not a replay speed: {text!r} (use 1, 2, 10 or instant)") from None
    else:
        raise ValueError(f"not a replay speed: {text!r} (use 1, 2, 10 or instant)")
    if not value > 0:
        raise ValueError(f"a replay speed must be positive, not {text!r}")
    return value


class ReplayClock:
    """Replay time: frozen while paused; ``anchor + wall elapsed * speed`` while playing, never past ``limit``.

    Implements the model's Clock protocol (``now()``), so a CallStore can run on it.
    """

    def __init__(
        self,
        start: float,
        wall: WallClock = time.monotonic,
        *,
        speed: float | str = 1.0,
        limit: float | None = None,
    ) -> None:
        self._wall = wall
        self._anchor = start
        self._wall_anchor = wall()
        self._speed = parse_speed(speed)
        self.playing = False
        self.limit = limit

    @property
    def speed(self) -> float:
        return self._speed

    def now(self) -> float:
        """The replay time now (epoch seconds of the recording)."""
        return self.now_at(self._wall())

    def now_at(self, wall_now: float) -> float:
        """The replay time at wall time ``wall_now``."""
        if not self.playing:
            return self._anchor
        if math.isinf(self._speed):
            value = self.limit if self.limit is not None else self._anchor
        else:
            value = self._anchor + max(0.0, wall_now - self._wall_anchor) * self._speed
        return value if self.limit is None else min(value, max(self.limit, self._anchor))

    def _reanchor(self, wall_now: float | None) -> float:
        wall_now = self._wall() if wall_now is None else wall_now
        self._anchor = self.now_at(wall_now)
        self._wall_anchor = wall_now
        return wall_now

    def play(self, wall_now: float | None = None) -> None:
        self._reanchor(wall_now)
        self.playing = True

    def pause(self, wall_now: float | None = None) -> None:
        self._reanchor(wall_now)
        self.playing = False

    def set_speed(self, speed: float | str, wall_now: float | None = None) -> None:
        """Change speed without a jump in replay time."""
        value = parse_speed(speed)
        self._reanchor(wall_now)
        self._speed = value

    def jump(self, replay_time: float, wall_now: float | None = None) -> None:
        """Set replay time (a seek); playing or paused stays as it was."""
        self._wall_anchor = self._wall() if wall_now is None else wall_now
        self._anchor = replay_time


@dataclass(frozen=True)
class ReplayUpdate:
    """What the consumer must do after a step or seek.

    ``reset`` false: ingest ``events`` into the current store. ``reset`` true: start a fresh store
    and ingest ``events`` (everything up to the new position).
    """

    events: list[Event]
    reset: bool = False


@dataclass(frozen=True)
class Position:
    """Where the replay stands: ``index`` events of ``total`` delivered; times in epoch seconds."""

    index: int
    total: int
    time: float
    start: float
    end: float
    complete: bool = True

    @property
    def fraction(self) -> float:
        """Delivered share of the events, 0..1 (1 for an empty replay)."""
        return self.index / self.total if self.total else 1.0

    @property
    def time_fraction(self) -> float:
        """Elapsed share of the recording's duration, 0..1."""
        span = self.end - self.start
        return 1.0 if span <= 0 else min(1.0, max(0.0, (self.time - self.start) / span))


MAX_GAP = 24 * 3600.0
"""A time further than this after the one before it is no time a replay waits for (a record stamped in
9999, or the records after one stamped in 1970): it is taken as unknown, the previous time kept."""


def _next_time(previous: float, ts: float | None) -> float:
    """The replay time of an event stamped ``ts`` after one at ``previous``: never earlier, never a gap
    past MAX_GAP."""
    return previous if ts is None or ts < previous or ts - previous > MAX_GAP else ts


def _event_ts(event: Event) -> float | None:
    ts = getattr(event, "ts", None)
    if isinstance(ts, (int, float)) and not isinstance(ts, bool) and math.isfinite(ts):
        return float(ts)
    return None


def timeline(events: Sequence[Event], untimed_step: float = 0.5) -> list[float]:
    """Replay times of ``events``: their ts made non-decreasing; an event without ts (or past MAX_GAP
    after the one before) takes the previous one.

    Events before the first timestamp take that timestamp. A session with no timestamps at all is
    spaced ``untimed_step`` seconds apart so that playing it still shows events one by one.
    """
    stamps = [_event_ts(event) for event in events]
    first = next((ts for ts in stamps if ts is not None), None)
    if first is None:
        return [i * untimed_step for i in range(len(events))]
    times: list[float] = []
    previous = first
    for ts in stamps:
        previous = _next_time(previous, ts)
        times.append(previous)
    return times


class Replayer:
    """Plays a recorded list of events against a ReplayClock (see the module docstring for use).

    ``index`` is how many events have been delivered; ``clock`` is the replay clock to give the store.
    Stepping works by message (the events of one record together); stepping back or seeking back
    returns a ReplayUpdate with ``reset=True``: rebuild the store from ``update.events``.
    """

    def __init__(
        self,
        events: Sequence[Event],
        wall: WallClock = time.monotonic,
        *,
        speed: float | str = 1.0,
        untimed_step: float = 0.5,
        complete: bool = True,
    ) -> None:
        self.events: list[Event] = []
        self.times: list[float] = []
        self._starts: list[int] = []
        self._last_key: tuple[str, str] | None = None
        self._untimed_step = untimed_step
        self._timed = False
        self.complete = False
        self.start = 0.0
        self.end = 0.0
        self.clock = ReplayClock(self.start, wall, speed=speed, limit=self.end)
        self._wall = wall
        self.index = 0
        self.extend(events)
        self.complete = complete

    # -- streaming ---------------------------------------------------------------------------
    def extend(self, events: Sequence[Event]) -> None:
        """Add events read later (a recording streamed while it plays): the replay runs on what it has.

        Their times continue the timeline (never before the last one). Until :meth:`finish` is called
        the replay is not finished when it has delivered everything it has: it waits for more.
        """
        if not events:
            return
        stamps = [_event_ts(event) for event in events]
        if not self._timed:
            first = next((ts for ts in stamps if ts is not None), None)
            if first is not None and self.index == 0:
                # the untimed events so far take the first time, as they would in the whole file
                self._timed = True
                self.times = [first] * len(self.times)
                self._restart(first)
        if self._timed:
            previous = self.times[-1] if self.times else next(ts for ts in stamps if ts is not None)
            times = self.times
            for ts in stamps:
                previous = _next_time(previous, ts)
                times.append(previous)
        else:
            base = len(self.times)
            self.times.extend((base + i) * self._untimed_step for i in range(len(events)))
        base = len(self.events)
        starts = self._starts
        last_key = self._last_key
        for offset, event in enumerate(events):
            raw = getattr(event, "raw", None)
            key = (raw.source, raw.where) if raw is not None and raw.where else None
            if key is None or key != last_key:
                starts.append(base + offset)
            last_key = key
        self._last_key = last_key
        self.events.extend(events)
        if base == 0:
            self._restart(self.times[0])
        self.end = self.times[-1]
        self.clock.limit = self.end

    def _restart(self, start: float) -> None:
        self.start = start
        if self.index == 0:
            self.clock.jump(start)

    def finish(self) -> None:
        """Every event has been added (see :meth:`extend`)."""
        self.complete = True

    # -- state -------------------------------------------------------------------------------
    @property
    def total(self) -> int:
        return len(self.events)

    @property
    def playing(self) -> bool:
        return self.clock.playing

    @property
    def speed(self) -> float:
        return self.clock.speed

    @property
    def finished(self) -> bool:
        """Every event has been delivered (and no more are coming)."""
        return self.complete and self.index >= self.total

    @property
    def position(self) -> Position:
        return Position(self.index, self.total, self.clock.now(), self.start, self.end, self.complete)

    # -- transport ---------------------------------------------------------------------------
    def play(self) -> ReplayUpdate:
        """Play from the current position; when finished, rewind first (the update then says reset)."""
        update = ReplayUpdate([], reset=False)
        if self.finished and self.total:
            update = self.seek(0)
        self.clock.play()
        return update

    def pause(self) -> None:
        self.clock.pause()

    def toggle(self) -> ReplayUpdate:
        """Pause when playing, play when paused (see play() for the update)."""
        if self.playing:
            self.pause()
            return ReplayUpdate([], reset=False)
        return self.play()

    def set_speed(self, speed: float | str) -> None:
        self.clock.set_speed(speed)

    def faster(self) -> float:
        """Step up through SPEEDS (1x, 2x, 10x, instant); returns the new speed."""
        later = [s for s in SPEEDS if s > self.speed]
        self.set_speed(later[0] if later else SPEEDS[-1])
        return self.speed

    def slower(self) -> float:
        earlier = [s for s in SPEEDS if s < self.speed]
        self.set_speed(earlier[-1] if earlier else SPEEDS[0])
        return self.speed

    # -- delivery ----------------------------------------------------------------------------
    def due(self, now_wall: float | None = None, limit: int | None = None) -> list[Event]:
        """The events whose replay time has come since the last call (none while paused), at most
        ``limit`` of them (the rest come at the next call: a UI keeps its turn at instant speed).

        At the end the replay pauses itself, with its clock on the last event's time.
        """
        if not self.clock.playing:
            return []
        now_wall = self._wall() if now_wall is None else now_wall
        replay_now = self.clock.now_at(now_wall)
        stop = bisect.bisect_right(self.times, replay_now, lo=self.index)
        if limit is not None:
            stop = min(stop, self.index + max(1, limit))
        batch = self.events[self.index : stop]
        self.index = max(self.index, stop)
        if self.finished:
            self.clock.jump(self.end, now_wall)
            self.clock.pause(now_wall)
        return batch

    def next_due_in(self, now_wall: float | None = None) -> float | None:
        """Wall seconds until the next event is due (0 if already), None while paused or finished."""
        if not self.clock.playing or self.index >= self.total:
            return None
        if math.isinf(self.speed):
            return 0.0
        now_wall = self._wall() if now_wall is None else now_wall
        ahead = self.times[self.index] - self.clock.now_at(now_wall)
        return max(0.0, ahead / self.speed)

    def events_until(self, index: int) -> list[Event]:
        """The first ``index`` events (clamped): what a rebuilt store must ingest to stand at ``index``."""
        return self.events[: max(0, min(index, self.total))]

    # -- stepping and seeking ----------------------------------------------------------------
    def step_next(self) -> ReplayUpdate:
        """Pause and deliver the next message."""
        self.pause()
        after = bisect.bisect_right(self._starts, self.index)
        target = self._starts[after] if after < len(self._starts) else self.total  # past the last start
        return self.seek(target)

    def step_prev(self) -> ReplayUpdate:
        """Pause and take back the last message delivered (a reset update)."""
        self.pause()
        before = bisect.bisect_left(self._starts, self.index) - 1
        return self.seek(self._starts[before] if before >= 0 else 0)

    def seek(self, index: int) -> ReplayUpdate:
        """Stand after the first ``index`` events; the clock goes to the last delivered event's time."""
        index = max(0, min(index, self.total))
        moment = self.times[index - 1] if index > 0 else self.start
        return self._move(index, moment)

    def seek_fraction(self, fraction: float) -> ReplayUpdate:
        """Seek to a share of the events (0 = start, 1 = end)."""
        return self.seek(round(max(0.0, min(1.0, fraction)) * self.total))

    def seek_time(self, replay_time: float) -> ReplayUpdate:
        """Seek to a replay time: every event up to it is delivered and the clock shows exactly it."""
        moment = max(self.start, min(self.end, replay_time))
        return self._move(bisect.bisect_right(self.times, moment), moment)

    def _move(self, index: int, moment: float) -> ReplayUpdate:
        previous = self.index
        self.index = index
        self.clock.jump(moment)
        if index >= previous:
            return ReplayUpdate(self.events[previous:index], reset=False)
        return ReplayUpdate(self.events_until(index), reset=True)
