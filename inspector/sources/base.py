"""The small interface every event source offers the UI: a name, a state, and capability flags.

The UI asks the source, never its type (STYLE.md point 2)::

    source.name          # "livekit", "memory"...
    source.is_live       # events keep arriving (a room), not a finished file
    source.can_answer    # answers can be sent back (a room joined with data publishing)
    source.can_follow    # a growing file can be followed;  source.can_seek: a replay
    source.clock(wall)   # the clock its calls are judged by (a finished file: its last record's time)
    source.label         # short name for a status bar
    source.state         # SourceState: status (connecting/connected/...), detail, room, identity,
                         #   participants, recording (path or None); state.label is one status line
    source.files, source.replaying  # capabilities beyond a flag, as objects (None where there are none)
    source.watch_state(callback)          # callback(state) on every change, on the source's loop
    source.watch_progress(callback)       # callback(progress) while files are read (from that thread)
    await source.run(stop)                # its whole life until ``stop`` is set: read, play, join, rejoin
    await source.stop()

Answering (only when ``can_answer``; see :mod:`inspector.answer.compose` for drafts and reviews)::

    review = source.review_answer(call, draft)           # preview with the stanzaId it would use
    sent = await source.send_answer(call, draft, review=review, confirm_late=False)

``send_answer`` checks again at send time and raises :class:`AnswerRefused` (never sendable) or
:class:`ConfirmationNeeded` (``.issues`` lists what to confirm); it publishes the envelope, records it,
and threads it into the store, so the call shows ``answered_by`` ("inspector" or "auto"). Given the
``review`` a preview showed, it sends those very bytes (its stanzaId included), or raises
:class:`PreviewOutdated` when that id was used since (preview again); without one (the rules), it
takes the next id at send time.
"""

from __future__ import annotations

import asyncio
import enum
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from inspector.model import Call, CallStore, Clock, Result
from inspector.model.events import Event
from inspector.sources.files import Progress

if TYPE_CHECKING:  # what answering needs is imported by the sources that answer (a file's does not)
    from inspector.answer import compose
    from inspector.sources.feeds import FileSource, ReplaySource


class SourceStatus(str, enum.Enum):
    """Where a source is in its life."""

    IDLE = "idle"
    CONNECTING = "connecting"
    CONNECTED = "connected"
    RECONNECTING = "reconnecting"
    DISCONNECTED = "disconnected"
    FAILED = "failed"


@dataclass(frozen=True)
class SourceState:
    """A snapshot of a source's state; a new object on every change."""

    status: SourceStatus = SourceStatus.IDLE
    detail: str = ""
    room: str = ""
    identity: str = ""
    participants: tuple[str, ...] = ()
    recording: str | None = None
    record_error: str = ""
    since: float = 0.0
    attempt: int = 0
    """While reconnecting: the try that comes next (0 when not retrying)."""
    retry_in: float = 0.0
    """While reconnecting: seconds from the change of state to that try."""
    warning: str = ""
    """Something the user must know before the rest (a hub assistant displaced by another): first."""
    export_error: str = ""
    """Why streaming the calls out (``--otlp``) failed, said once: the calls keep coming in."""

    @property
    def label(self) -> str:
        """One line for a status bar, e.g. ``connected · 2 participants · rec`` (the room is in ``label``)."""
        parts = [self.warning, self.status.value] if self.warning else [self.status.value]
        if self.export_error:  # the calls still come in: said early, so a narrow bar keeps it
            parts.append(self.export_error)
        if self.status is SourceStatus.CONNECTED:
            count = len(self.participants)
            parts.append(f"{count} participant{'s' if count != 1 else ''}")
        if self.attempt and self.status is SourceStatus.RECONNECTING:
            parts.append(f"attempt {self.attempt}, next try in {self.retry_in:.1f} s")
        if self.detail:
            parts.append(self.detail)
        if self.record_error:
            parts.append(f"recording stopped: {self.record_error}")
        elif self.recording:
            parts.append("rec")
        return " · ".join(parts)


StateListener = Callable[[SourceState], None]
EventsListener = Callable[[list[Event]], None]
ProgressListener = Callable[[Progress], None]


class LiveConnectError(Exception):
    """Joining a live source failed; ``str()`` is a sentence a user can act on (never a secret)."""


class AnswerError(Exception):
    """An answer that was not sent; ``str()`` says why in words for people."""

    def __init__(self, message: str, issues: list[compose.Issue] | None = None) -> None:
        super().__init__(message)
        self.issues = issues or []


class AnswerRefused(AnswerError):
    """The answer can never be sent as it is (server request, not a map, too large, not connected...)."""


class PreviewOutdated(AnswerRefused):
    """The previewed answer can no longer go out as shown (its stanzaId was used since): preview again."""


class ConfirmationNeeded(AnswerError):
    """The answer needs an explicit yes: ``issues`` are the confirmations missing (duplicate, late)."""


@dataclass(frozen=True)
class SentAnswer:
    """An answer that went out: its stanzaId, bytes, envelope and the Result threaded into the store."""

    stanza_id: int
    data: bytes
    envelope: dict[str, Any]
    answered_by: str
    result: Result | None


class Source:
    """Base of every source: state with listeners, and safe defaults for the capability flags.

    Capabilities are declared, never probed: ``is_live`` (events keep arriving), ``can_answer``
    (answers go back through it), ``can_follow`` (a file that grows can be followed), ``can_seek``
    (a replay: play, pause, step, seek); :meth:`clock` is the clock its calls are judged by. What a
    capability needs beyond a flag is an object the source hands out, None where it has none:
    :attr:`files` (session files: load, follow) and :attr:`replaying` (a replay: read, control).
    """

    name: str = "source"
    is_live: bool = False
    can_answer: bool = False
    can_follow: bool = False
    can_seek: bool = False
    can_reclaim: bool = False
    """A role another peer can take from it can be taken back (:meth:`reclaim`: the hub's assistant)."""
    store: CallStore  # the store it threads its events into (set by every source)

    def __init__(self) -> None:
        self._state = SourceState(since=time.time())
        self._state_listeners: list[StateListener] = []
        self._event_listeners: list[EventsListener] = []
        self._progress_listeners: list[ProgressListener] = []

    def clock(self, wall: Clock) -> Clock:
        """The clock this source's calls are judged by (countdowns, overdue); ``wall`` is the app's."""
        return wall

    @property
    def files(self) -> FileSource | None:
        """The session files it reads into its store and can follow (None: it reads no files)."""
        return None

    @property
    def replaying(self) -> ReplaySource | None:
        """The recording it plays back, with the replay's controls once read (None: not a replay)."""
        return None

    @property
    def state(self) -> SourceState:
        return self._state

    @property
    def label(self) -> str:
        """A short name for the status bar (e.g. ``live conv_abc``)."""
        return f"{self.name} {self._state.room}".strip()

    def watch_state(self, listener: StateListener) -> None:
        """Call ``listener(state)`` after every state change."""
        self._state_listeners.append(listener)

    def watch_events(self, listener: EventsListener) -> None:
        """Call ``listener(events)`` after each packet's events are threaded into the store."""
        self._event_listeners.append(listener)

    def watch_progress(self, listener: ProgressListener) -> None:
        """Call ``listener(progress)`` while :meth:`run` reads what is there already (files), from the
        reading thread; the last call has ``progress.finished``."""
        self._progress_listeners.append(listener)

    def _report_progress(self, progress: Progress) -> None:
        for listener in list(self._progress_listeners):
            listener(progress)

    def _set_state(self, **changes: Any) -> None:
        if "status" in changes and changes["status"] != self._state.status:
            changes.setdefault("since", time.time())
        self._state = replace(self._state, **changes)
        for listener in list(self._state_listeners):
            listener(self._state)

    def report_export(self, problem: str) -> None:
        """Say in the state (so in the status bar) that streaming the calls out failed (on the loop)."""
        self._set_state(export_error=problem)

    def _emit_events(self, events: list[Event]) -> None:
        for listener in list(self._event_listeners):
            listener(events)

    async def start(self) -> None:
        """Begin producing events (connect, open...)."""

    async def run(self, stop: asyncio.Event) -> None:
        """Produce events until ``stop`` is set: the one lifecycle the UI drives for every source (files
        are read, then followed when asked; a room that goes away is joined again).

        The default starts once: a source that cannot be lost has nothing to retry.
        """
        await self.start()

    async def stop(self) -> None:
        """Stop producing events and release what was opened."""

    async def reclaim(self) -> None:
        """Take back a role another peer took (only when ``can_reclaim``)."""
        raise AnswerRefused(f"{self.name} has no role to take back")

    def review_answer(
        self, call: Call, draft: compose.Draft, *, stanza_id: int | None = None
    ) -> compose.Review:
        raise AnswerRefused(f"{self.name} cannot send answers")

    async def send_answer(
        self,
        call: Call,
        draft: compose.Draft,
        *,
        review: compose.Review | None = None,
        confirm_late: bool = False,
        answered_by: str = "inspector",
    ) -> SentAnswer:
        raise AnswerRefused(f"{self.name} cannot send answers")
