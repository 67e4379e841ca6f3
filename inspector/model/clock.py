"""Clocks: every "now" in the inspector comes from one of these, so tests can fake time."""

from __future__ import annotations

import time
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
