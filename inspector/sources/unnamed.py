"""Data that comes before the room has named its sender: held until the sender is announced, then named.

On a real LiveKit server the others learn of a participant that publishes no track (an agent that only
sends data) in batches: livekit-server sends the updates about such participants every 3 s, all of one
room's at once (``changeUpdateWorker`` and ``subscriberUpdateInterval`` in ``pkg/rtc/room.go``; only a
publisher's are sent at once), while data flows at once. So a new agent's first packets arrive 0-3 s
before the SDK announces the agent, and the SDK delivers them with no participant; its
core drops the identity the packet carried (``handle_data`` in rust-sdks ``livekit/src/room/mod.rs`` looks
the participant up and passes only that; ``livekit-ffi`` then sends an empty ``participant_identity``).

A packet with no sender is therefore held (``HOLD_S`` at most) until participants are announced. The
announcements of one batch come together: those that arrive within ``SETTLE_S`` of the first are weighed
together. A held packet is given a sender when exactly one of them had joined by the time it arrived
(``joined_at``, with ``SKEW_S`` for the server's clock); with two or more it cannot be told, and with none
(the hold ran out: the server's own data, or a hidden participant, who is never announced) it has no
sender. What cannot be seen: a hidden participant's packet held while one visible participant's join is
announced is credited to that participant. Either way the packet is shown, and a request without a sender is never answered (see
``PacketSource.addresses_answers``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

HOLD_S = 4.0
"""The longest a packet waits for its sender: the server's 3 s batches and a margin."""
SETTLE_S = 0.3
"""Announcements this close to the first one are of the same batch."""
SKEW_S = 2.0
"""How far the server's clock (``joined_at``) may be ahead of ours."""


@dataclass(frozen=True)
class Held:
    """One packet that came with no sender, as the SDK handed it over."""

    arrival: float
    data: bytes
    topic: str | None
    reliable: bool


Release = Callable[[list[tuple[Held, str]], tuple[str, ...]], None]
"""Called with the released packets, each with the sender it was given ("" for none), in arrival order,
and the participants announced meanwhile (more than one where a sender could not be told)."""


class SenderWait:
    """Holds packets with no sender on ``loop`` and releases them to ``release`` with a sender, or none."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        release: Release,
        *,
        hold_s: float = HOLD_S,
        settle_s: float = SETTLE_S,
    ) -> None:
        self._loop = loop
        self._release = release
        self._hold_s = hold_s
        self._settle_s = settle_s
        self._held: list[Held] = []
        self._announced: list[tuple[str, float | None]] = []
        self._timer: asyncio.TimerHandle | None = None
        self._settling = False

    def __len__(self) -> int:
        return len(self._held)

    def hold(self, packet: Held) -> None:
        """Keep ``packet`` until its sender may be known (or ``HOLD_S`` has passed)."""
        self._held.append(packet)
        if self._timer is None:
            self._timer = self._loop.call_later(self._hold_s, self.release)

    def announced(self, identity: str, joined_at: float | None) -> None:
        """A participant was announced; with packets held, those of its batch are weighed together."""
        if not self._held:
            return
        self._announced.append((identity, joined_at))
        if not self._settling:
            self._settling = True
            if self._timer is not None:
                self._timer.cancel()
            self._timer = self._loop.call_later(self._settle_s, self.release)

    def release(self) -> None:
        """Release every held packet now, each with the sender that can be told (or none)."""
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None
        self._settling = False
        held, self._held = self._held, []
        announced, self._announced = self._announced, []
        if not held:
            return
        names = tuple(dict.fromkeys(identity for identity, _ in announced))
        out = []
        for packet in held:
            fits = {
                identity
                for identity, joined in announced
                if joined is None or joined <= packet.arrival + SKEW_S
            }
            out.append((packet, next(iter(fits)) if len(fits) == 1 else ""))
        self._release(out, names)

    def close(self) -> None:
        """Release what is held and stop the timer (the room is left: nothing more will be announced)."""
        self.release()
