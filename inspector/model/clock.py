"""Clocks: every "now" in the inspector comes from one of these, so tests can fake time."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol


class Clock(Protocol):
    """Anything with a ``now()`` in epoch seconds."""

    def now(self) -> float: ...


class SystemClock:
    """The wall clock."""

    def now(self) -> float:
        return time.time()


class FakeClock:
    """A clock that moves only when told to."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def set(self, value: float) -> None:
        self._now = value

    def advance(self, seconds: float) -> None:
        self._now += seconds


class RecordingEnd(float):
    """A "now" that is the end of a finished recording (its last record's time), not the wall clock.

    Calls are judged against it as they stood when the recording stopped: an unanswered request is
    "no result by the end of the recording, 4.2s past its deadline", and the figure never grows.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return f"RecordingEnd({float(self)!r})"


def at_recording_end(now: float | None) -> bool:
    """True when ``now`` is the end of a finished recording rather than a live time."""
    return isinstance(now, RecordingEnd)


class EndOfRecording:
    """The clock of a file that is not followed: the time of its last record so far (a RecordingEnd).

    ``last`` returns that time (None while nothing timed was read); ``fallback`` answers meanwhile.
    """

    def __init__(self, last: Callable[[], float | None], fallback: Clock | None = None) -> None:
        self._last = last
        self._fallback = fallback or SystemClock()

    def now(self) -> float:
        last = self._last()
        return self._fallback.now() if last is None else RecordingEnd(last)
