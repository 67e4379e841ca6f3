"""A replay's store: a Replayer plus the store it feeds, rebuilt when a step or seek goes back."""

from __future__ import annotations

from collections.abc import Callable

from inspector.model import CallStore
from inspector.model.events import Event
from inspector.model.replay import ReplayClock, Replayer, ReplayUpdate, speed_label
from inspector.timefmt import clock_text


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
    ) -> None:
        self.replayer = Replayer(events, wall, speed=speed)
        self.namespaces = namespaces
        self.keep_payloads = keep_payloads
        self.store = CallStore(clock=self.replayer.clock, keep_payloads=keep_payloads)

    @property
    def clock(self) -> ReplayClock:
        return self.replayer.clock

    def _ingest(self, events: list[Event]) -> None:
        ingest = self.store.ingest
        ns_of = self.namespaces
        for event in events:
            ingest(event, ns_of.get(id(event), ""))

    def apply(self, update: ReplayUpdate) -> bool:
        """Deliver an update's events; True when the store was rebuilt (the UI must follow the new one)."""
        if update.reset:
            self.store = CallStore(clock=self.replayer.clock, keep_payloads=self.keep_payloads)
            self._ingest(update.events)
            return True
        self._ingest(update.events)
        return False

    def pump(self) -> int:
        """Deliver the events due now; returns how many."""
        events = self.replayer.due()
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
        """``▶ 2x 12/40 10:00:04`` for the status bar."""
        replayer = self.replayer
        position = replayer.position
        mark = "▶" if replayer.playing else "⏸"
        return (
            f"{mark} {speed_label(replayer.speed)} {position.index}/{position.total} "
            f"{clock_text(position.time)}"
        )
