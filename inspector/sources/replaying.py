"""A replay's store: a Replayer plus the store it feeds, rebuilt when a step or seek goes back."""

from __future__ import annotations

from collections.abc import Callable

from inspector.model import CallStore
from inspector.model.events import Event
from inspector.model.replay import ReplayClock, Replayer, ReplayUpdate, speed_label
from inspector.timefmt import clock_text

PUMP_LIMIT = 5_000
"""At most this many events are delivered by one pump: at instant speed a million-record recording is
delivered a slice per tick, and keys are handled between slices."""


class ReplayControl:
    """Drives ``store`` from recorded events; ``on_new_store`` is called when a rewind rebuilds it."""

    def __init__(
        self,
        events: list[Event],
        namespaces: dict[int, str],
        wall: Callable[[], float],
        *,
        speed: float = 1.0,
        keep_payloads: bool = True,
        complete: bool = True,
    ) -> None:
        self.replayer = Replayer(events, wall, speed=speed, complete=complete)
        self.namespaces = namespaces
        self.keep_payloads = keep_payloads
        self.store = CallStore(clock=self.replayer.clock, keep_payloads=keep_payloads)
        self._backlog: list[Event] = []  # events a step or seek delivered, still to ingest (by pump)
        self._backlog_at = 0

    @property
    def clock(self) -> ReplayClock:
        return self.replayer.clock

    def _ingest(self, events: list[Event]) -> None:
        ingest = self.store.ingest
        ns_of = self.namespaces
        for event in events:
            ingest(event, ns_of.get(id(event), ""))

    @property
    def backlog(self) -> int:
        """Events a step or seek delivered that the store has not taken yet (pump takes them a slice at
        a time: a step back near the end of a million-record replay rebuilds the store without freezing)."""
        return len(self._backlog) - self._backlog_at

    def _deliver(self, events: list[Event]) -> None:
        if not self.backlog and len(events) <= PUMP_LIMIT:
            self._ingest(events)
            return
        self._backlog = self._backlog[self._backlog_at :] + events
        self._backlog_at = 0
        self._take_backlog()

    def _take_backlog(self) -> int:
        start = self._backlog_at
        stop = min(len(self._backlog), start + PUMP_LIMIT)
        self._ingest(self._backlog[start:stop])
        self._backlog_at = stop
        if stop >= len(self._backlog):
            self._backlog, self._backlog_at = [], 0
        return stop - start

    def apply(self, update: ReplayUpdate) -> bool:
        """Deliver an update's events (beyond PUMP_LIMIT of them, by the next pumps); True when the store
        was rebuilt (the UI must follow the new one)."""
        if update.reset:
            self.store = CallStore(clock=self.replayer.clock, keep_payloads=self.keep_payloads)
            self._backlog, self._backlog_at = [], 0
            self._deliver(update.events)
            return True
        self._deliver(update.events)
        return False

    def extend(self, events: list[Event], namespaces: dict[int, str]) -> None:
        """More of a recording still being read (see :meth:`Replayer.extend`)."""
        self.namespaces.update(namespaces)
        self.replayer.extend(events)

    def finish(self) -> None:
        """The recording has been read to its end."""
        self.replayer.finish()

    def pump(self) -> int:
        """Deliver the events due now, at most PUMP_LIMIT of them (the rest at the next pump); returns
        how many. What a step or seek left (:attr:`backlog`) comes first."""
        if self.backlog:
            return self._take_backlog()
        events = self.replayer.due(limit=PUMP_LIMIT)
        self._ingest(events)
        return len(events)

    def toggle(self) -> bool:
        return self.apply(self.replayer.toggle())

    def play(self) -> bool:
        return self.apply(self.replayer.play())

    def step(self, direction: int) -> bool:
        update = self.replayer.step_next() if direction > 0 else self.replayer.step_prev()
        return self.apply(update)

    def speed(self, direction: int) -> str:
        speed = self.replayer.faster() if direction > 0 else self.replayer.slower()
        return speed_label(speed)

    def describe(self) -> str:
        """``▶ 2x 12/40 10:00:04`` for the status bar (``12/40+`` while the recording is still read)."""
        replayer = self.replayer
        position = replayer.position
        mark = "▶" if replayer.playing else "⏸"
        more = "" if position.complete else "+"  # still reading the recording
        return (
            f"{mark} {speed_label(replayer.speed)} {position.index}/{position.total}{more} "
            f"{clock_text(position.time)}"
        )
