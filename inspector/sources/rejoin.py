"""Stay in the room: join, and when the room goes away (or is not there yet) try again with backoff.

Tries go on until the user stops (the default) or, with ``give_up_after``, until the room has been out
of reach that many seconds in a row. A refused token or a malformed URL is not retried: waiting cannot
fix it, nor is a room the server ended on purpose (deleted it, removed this participant, or let another
join with the same identity: two inspectors with one identity would push each other out for ever). The
source's state says what is happening: reconnecting, the attempt, the next try.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Protocol

from inspector.sources.base import LiveConnectError, SourceState
from inspector.sources.tasks import wait_within

FIRST_DELAY = 0.5
MAX_DELAY = 10.0
_FINAL = (
    "refused the access token",
    "is not a LiveKit URL",
    "not a JWT",
    "refused the agent secret",  # sources/alicia_hub.py
    "isn't a valid URI",  # websockets on a malformed hub URL
    "no hub at this address",  # sources/alicia_hub.py: HTTP 404
    "refused the WebSocket upgrade (HTTP 403)",  # sources/alicia_hub.py: the Origin check (--origin)
)


_ENDED_ON_PURPOSE = {
    # sources/livekit_room.py's words for the SDK's DisconnectReason: the server ended this participant on
    # purpose, and joining again would undo it
    "another participant joined with the same identity": (
        "two inspectors with one identity push each other out of the room for ever: give each its own "
        "--identity"
    ),
    "the room was deleted": "joining again would create the room anew, empty",
    "removed from the room by the server": "the server removed this participant on purpose",
}


def ended_on_purpose(reason: str) -> str | None:
    """Why a lost room is not joined again (the server ended this participant on purpose), or None."""
    return next((why for words, why in _ENDED_ON_PURPOSE.items() if reason.startswith(words)), None)


@dataclass
class Outcome:
    """How staying joined ended: ``stopped`` by the user, or given up (``joined`` ever or not)."""

    stopped: bool
    joined: bool
    reason: str = ""


class Rejoinable(Protocol):
    """A source that can be joined again after it was lost (a LiveKit room, the hub)."""

    lost: asyncio.Event | None
    """Set when the connection is lost (a new event at each join)."""

    @property
    def state(self) -> SourceState: ...

    async def start(self) -> None: ...

    async def leave_quietly(self) -> None: ...

    def note_retry(self, attempt: int, delay: float, reason: str) -> None: ...

    def note_final(self, reason: str) -> None:
        """Say that the room, lost for ``reason``, is not joined again (the state stays disconnected)."""


def retryable(reason: str) -> bool:
    """False for failures that another try cannot fix (credentials, URL)."""
    return not any(words in reason for words in _FINAL)


def backoff(attempt: int) -> float:
    """Seconds before try ``attempt`` (1, 2, ...): doubling from 0.5 s, at most 10 s."""
    return float(min(MAX_DELAY, FIRST_DELAY * 2.0 ** max(0, attempt - 1)))


async def stay_joined(source: Rejoinable, stop: asyncio.Event, *, give_up_after: float | None) -> Outcome:
    """Join and rejoin ``source`` until ``stop`` is set or the room stays out of reach too long."""
    joined = False
    attempt = 0
    out_since: float | None = None
    while not stop.is_set():
        try:
            await source.start()
        except LiveConnectError as exc:
            reason = str(exc)
            if not retryable(reason):
                return Outcome(False, joined, reason)
        else:
            joined = True
            attempt, out_since = 0, None
            lost = source.lost
            waiters = [asyncio.ensure_future(stop.wait())]
            if lost is not None:
                waiters.append(asyncio.ensure_future(lost.wait()))
            await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
            for waiter in waiters:
                waiter.cancel()
            if stop.is_set():
                break
            reason = source.state.detail or "the connection was lost"
            await source.leave_quietly()
            why = ended_on_purpose(reason)
            if why is not None:
                final = f"{reason}: not joining again ({why})"
                source.note_final(final)
                return Outcome(False, joined, final)
        now = time.monotonic()
        out_since = out_since if out_since is not None else now
        if give_up_after is not None and now - out_since >= give_up_after:
            return Outcome(False, joined, reason)
        attempt += 1
        delay = backoff(attempt)
        source.note_retry(attempt, delay, reason)
        try:
            await wait_within(stop.wait(), delay)
        except asyncio.TimeoutError:
            pass
    return Outcome(True, joined)


__all__ = ["Outcome", "Rejoinable", "backoff", "ended_on_purpose", "retryable", "stay_joined"]
