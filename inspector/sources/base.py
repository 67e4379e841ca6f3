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
    source.watch_state(callback)          # callback(state) on every change, on the source's loop
    await source.start(); await source.stop()

Answering (only when ``can_answer``; see :mod:`inspector.answer.compose` for drafts and reviews)::

    review = source.review_answer(call, draft)           # preview with the stanzaId it would use
    sent = await source.send_answer(call, draft, review=review, confirm_duplicate=False, confirm_late=False)

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
from typing import Any

from inspector.answer import compose
from inspector.answer.stanzas import StanzaCounter
from inspector.model import Call, CallStore, Clock, Message, Request, Result
from inspector.model.events import Event
from inspector.protocols.recording import RecordingWriter
from inspector.sources.ingest import PacketIngest


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
    (a replay: play, pause, step, seek); :meth:`clock` is the clock its calls are judged by.
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

    def clock(self, wall: Clock) -> Clock:
        """The clock this source's calls are judged by (countdowns, overdue); ``wall`` is the app's."""
        return wall

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
        """Produce events until ``stop`` is set; a source that can come back (a room) keeps coming back.

        The default starts once: a source that cannot be lost has nothing to retry.
        """
        await self.start()

    async def stop(self) -> None:
        """Stop producing events and release what was opened."""

    async def reclaim(self) -> None:
        """Take back a role another peer took (only when ``can_reclaim``)."""
        raise AnswerRefused(f"{self.name} has no role to take back")

    def packet_overhead(self, call: Call) -> int:
        """Bytes the transport adds around an answer to ``call`` (0 where there is no packet limit)."""
        return 0

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
        confirm_duplicate: bool = False,
        confirm_late: bool = False,
        answered_by: str = "inspector",
    ) -> SentAnswer:
        raise AnswerRefused(f"{self.name} cannot send answers")


def requester(call: Call) -> str | None:
    """The identity of the participant that sent ``call``'s request: an answer goes to it alone. None when
    the packet named no participant (data the server sent itself): then there is nobody to address, and a
    source that routes answers refuses to send one rather than send it to the whole room."""
    identity = call.request.extra.get("participant")
    return identity if isinstance(identity, str) and identity else None


NO_SENDER = (
    "the request came from no participant (the server sent it, or its packet named no sender): an answer "
    "can only go to the participant that asked, and sending it to the whole room is never done"
)


class PacketSource(Source):
    """A source of Alicia data packets that can answer: ingest, stanza ids, room events, sending.

    Subclasses provide :meth:`_publish` and call :meth:`receive` for each packet that arrives.
    """

    numbers_answers = True
    """Whether an answer carries a stanzaId (the documented envelope), taken at send time; an envelope
    without one (the hub's) is sent exactly as reviewed."""

    addresses_answers = False
    """Whether answers are addressed to the requesting participant (a room, where publishing without a
    destination reaches everyone): then a request with no known sender cannot be answered at all."""

    def __init__(
        self,
        store: CallStore,
        writer: RecordingWriter | None = None,
        *,
        identity: str = "",
        answering: bool = True,
    ) -> None:
        super().__init__()
        self.store = store
        self.writer = writer
        self.ingest = PacketIngest(store, writer, wall=store.clock.now)
        self.ingest.on_record_error = self._recording_stopped
        self.can_answer = answering
        self.stanzas = StanzaCounter(store.clock.now)
        self._send_lock = asyncio.Lock()
        self._set_state(identity=identity, recording=writer.path if writer is not None else None)

    # -- receiving ---------------------------------------------------------------------
    def receive(
        self,
        data: bytes,
        *,
        participant: str = "",
        topic: str | None = None,
        reliable: bool = True,
        ts: float | None = None,
    ) -> list[Event]:
        """Record, decode and thread one incoming packet (never raises on bad data); ``ts``: when it came,
        where that was before now (a packet held until its sender was named)."""
        events = self.ingest.packet(data, participant=participant, topic=topic, reliable=reliable, ts=ts)
        self._note_stanzas(events)
        self._emit_events(events)
        return events

    def _note_stanzas(self, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, (Request, Result, Message)):
                stanza = event.extra.get("stanzaId")
                if isinstance(stanza, int) and not isinstance(stanza, bool) and stanza > 0:
                    self.stanzas.observe(str(event.extra.get("conversationId") or event.group), stanza)

    def _recording_stopped(self, reason: str) -> None:
        """The recording could not be written: packets keep coming into the view; say so once."""
        self.writer = None
        self._set_state(record_error=reason)
        self.room_event("recording", f"recording stopped: {reason}; packets are still shown, not saved")

    def room_event(
        self, kind: str, text: str, *, sender: str = "", ts: float | None = None, **extra: Any
    ) -> Message:
        """Thread and record a room event (kind ``participant`` or ``connection``) as a Message; ``ts``:
        when it happened, where the room said so (a participant's join), else now."""
        now = self.store.clock.now() if ts is None else ts
        message = Message(kind=kind, text=text, ts=now, sender=sender, extra={"dir": "event", **extra})
        if self.writer is not None:
            try:
                self.writer.event(kind, text, ts=now, **extra)
            except OSError as exc:
                self.ingest.writer = None
                self._recording_stopped(exc.strerror or str(exc))
        self.store.ingest(message)
        self._emit_events([message])
        return message

    # -- answering ---------------------------------------------------------------------
    def next_stanza_id(self, conversation: str = "") -> int:
        """The stanzaId the next answer in ``conversation`` gets (see :mod:`inspector.answer.stanzas`)."""
        return self.stanzas.peek(conversation)

    def packet_overhead(self, call: Call) -> int:
        """Bytes the transport adds around an answer to ``call`` (0 where there is no packet limit)."""
        return 0

    def review_answer(
        self, call: Call, draft: compose.Draft, *, stanza_id: int | None = None
    ) -> compose.Review:
        """Compose and check an answer without sending it (for a preview); ``stanza_id`` keeps the id
        an earlier preview showed (else the next one)."""
        stanza = self.next_stanza_id(compose.conversation_of(call)) if stanza_id is None else stanza_id
        review = compose.review(
            call, draft, now=self.store.clock.now(), stanza_id=stanza, overhead=self.packet_overhead(call)
        )
        if not self.can_answer:
            review.issues.insert(
                0,
                compose.Issue(
                    "cannot_answer",
                    compose.Severity.REFUSE,
                    "this room was joined without answering (data publishing "
                    "is not granted); rejoin with --answer",
                ),
            )
        if self.addresses_answers and requester(call) is None:
            review.issues.insert(0, compose.Issue("no_sender", compose.Severity.REFUSE, NO_SENDER))
        return review

    async def send_answer(
        self,
        call: Call,
        draft: compose.Draft,
        *,
        review: compose.Review | None = None,
        confirm_duplicate: bool = False,
        confirm_late: bool = False,
        answered_by: str = "inspector",
    ) -> SentAnswer:
        """Check, publish, record and thread one answer; raises AnswerRefused / ConfirmationNeeded.

        ``review``: the preview shown for this draft; its bytes are what goes out (checked again now:
        a deadline may have passed since), or :class:`PreviewOutdated` when its stanzaId was used since.
        """
        async with self._send_lock:
            shown = review
            if shown is not None and (shown.call is not call or shown.draft != draft):
                raise PreviewOutdated("the preview is not of this answer: preview it again")
            review = self.review_answer(call, draft, stanza_id=None if shown is None else shown.stanza_id)
            if shown is not None and review.data != shown.data:
                raise PreviewOutdated(
                    "the answer changed since its preview: check the preview and send again"
                )
            if review.refusals or review.data is None or review.envelope is None:
                issues = review.refusals
                reason = issues[0].message if issues else "the answer could not be composed"
                raise AnswerRefused(reason, issues)
            missing = review.unconfirmed(confirm_duplicate=confirm_duplicate, confirm_late=confirm_late)
            if missing:
                raise ConfirmationNeeded("; ".join(i.message for i in missing), missing)
            if shown is None:
                review, data, envelope = self._with_reserved_stanza(review)
            elif not self.numbers_answers or self.stanzas.claim(review.conversation_id, review.stanza_id):
                assert review.data is not None and review.envelope is not None  # refusals checked above
                data, envelope = review.data, review.envelope
            else:
                raise PreviewOutdated(
                    f"stanzaId {review.stanza_id} was used in this conversation since the preview "
                    "(another client or inspector sent one): check the new preview and send again"
                )
            topic = call.request.extra.get("topic")
            try:
                await self._publish(
                    data,
                    topic=topic if isinstance(topic, str) else None,
                    destination=requester(call),
                )
            except AnswerError:
                raise
            except Exception as exc:  # noqa: BLE001 - the transport's failure, told in words
                raise AnswerRefused(f"could not send the answer: {str(exc) or type(exc).__name__}") from None
            events = self.ingest.packet(
                data,
                direction="out",
                participant=self.state.identity,
                topic=topic if isinstance(topic, str) else None,
                answered_by=answered_by,
            )
            self._emit_events(events)
            result = next((e for e in events if isinstance(e, Result)), None)
            return SentAnswer(review.stanza_id, data, envelope, answered_by, result)

    def _with_reserved_stanza(self, review: compose.Review) -> tuple[compose.Review, bytes, dict[str, Any]]:
        """``review`` with the stanzaId taken for it under the state file's lock (another inspector may
        have sent one since the preview); an id taken for an answer that then fails is skipped."""
        stanza = self.stanzas.reserve(review.conversation_id) if self.numbers_answers else review.stanza_id
        if stanza != review.stanza_id:
            call = review.call
            now = self.store.clock.now()
            overhead = self.packet_overhead(call)
            review = compose.review(call, review.draft, now=now, stanza_id=stanza, overhead=overhead)
        if review.refusals or review.data is None or review.envelope is None:
            issues = review.refusals
            raise AnswerRefused(issues[0].message if issues else "the answer could not be composed", issues)
        return review, review.data, review.envelope

    async def _publish(self, data: bytes, *, topic: str | None, destination: str | None = None) -> None:
        """Send ``data`` on ``topic`` to the participant ``destination`` (everyone when None)."""
        raise AnswerRefused(f"{self.name} cannot publish")
