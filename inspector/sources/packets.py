"""The Alicia packet source: a source of data packets that can answer (a LiveKit room, the hub, memory).

:class:`PacketSource` implements :class:`~inspector.sources.base.Source` for Alicia's packets: ingest
(decode, record, thread into the store), stanza ids, room events, and sending answers (review, check
again at send time, publish, record, thread). A transport subclasses it with :meth:`PacketSource._publish`
and calls :meth:`PacketSource.receive` for each packet that arrives.
"""

from __future__ import annotations

import asyncio
from typing import Any

from inspector.answer import answered, compose
from inspector.answer.stanzas import StanzaCounter
from inspector.model import Call, CallStore, Message, Request, Result
from inspector.model.events import Event
from inspector.protocols.recording import RecordingWriter
from inspector.sources.base import (
    AnswerError,
    AnswerRefused,
    ConfirmationNeeded,
    PreviewOutdated,
    SentAnswer,
    Source,
    SourceStatus,
)
from inspector.sources.ingest import PacketIngest
from inspector.textsafe import one_line


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


def answered_elsewhere(holder: str) -> str:
    """Why an answer is refused that another inspector on this machine (or this one, before) sent."""
    return (
        f"this request was already answered from this machine (by {one_line(holder, 60)}): a ToolUseResult "
        "is sent exactly once per request, so a second answer is not sent"
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

    needs_connection = False
    """Whether an answer can only go out while connected (a room, the hub): the preview says so before."""

    why_not_answering = (
        "this room was joined without answering (data publishing is not granted); rejoin with --answer"
    )
    """What a preview says when this source was not allowed to answer (``can_answer`` false)."""

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
        self.ledger = answered.AnswerLedger(store.clock.now)
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
        if stanza_id is None:
            stanza_id = self.next_stanza_id(compose.conversation_of(call)) if self.numbers_answers else 0
        review = self._compose(call, draft, stanza_id)
        if not self.can_answer:
            review.issues.insert(
                0, compose.Issue("cannot_answer", compose.Severity.REFUSE, self.why_not_answering)
            )
        if self.addresses_answers and requester(call) is None:
            review.issues.insert(0, compose.Issue("no_sender", compose.Severity.REFUSE, NO_SENDER))
        status = self.state.status
        if self.needs_connection and self.can_answer and status is not SourceStatus.CONNECTED:
            why = f"not connected ({status.value}): an answer cannot be sent until the connection is back"
            review.issues.insert(0, compose.Issue("not_connected", compose.Severity.REFUSE, why))
        gone = self.requester_gone(call)
        if gone is not None:
            review.issues.insert(0, compose.Issue("requester_gone", compose.Severity.REFUSE, gone))
        return review

    def answer_key(self, call: Call) -> str | None:
        """The key of ``call`` among the requests answered from this machine (``answer.answered``), for a
        transport where another inspector cannot see this one's answer (one addressed to the requester
        alone); None where that cannot happen."""
        if not self.addresses_answers:
            return None
        conversation = compose.conversation_of(call)
        return "\x1f".join((self.name, self.state.room, conversation, call.call_id, requester(call) or ""))

    def requester_gone(self, call: Call) -> str | None:
        """Why nobody would receive an answer to ``call`` now (its requester has left), or None."""
        return None

    def _compose(self, call: Call, draft: compose.Draft, stanza_id: int) -> compose.Review:
        """The envelope answering ``call`` and its checks, as this transport sends it."""
        overhead = self.packet_overhead(call)
        return compose.review(call, draft, now=self.store.clock.now(), stanza_id=stanza_id, overhead=overhead)

    async def send_answer(
        self,
        call: Call,
        draft: compose.Draft,
        *,
        review: compose.Review | None = None,
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
            missing = review.unconfirmed(confirm_late=confirm_late)
            if missing:
                raise ConfirmationNeeded("; ".join(i.message for i in missing), missing)
            key = self.answer_key(call)
            if key is not None:
                holder = self.ledger.take(
                    key,
                    who=self.state.identity,
                    until=answered.keep_until(call.deadline, self.store.clock.now()),
                )
                if holder is not None:
                    issue = compose.Issue("duplicate", compose.Severity.REFUSE, answered_elsewhere(holder))
                    raise AnswerRefused(issue.message, [issue])
            sent = False
            try:
                data, envelope, review = await self._publish_reviewed(call, review, shown)
                sent = True
            finally:
                if key is not None and not sent:  # not sent: another answer may go
                    self.ledger.give_back(key)
            topic = call.request.extra.get("topic")
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

    async def _publish_reviewed(
        self, call: Call, review: compose.Review, shown: compose.Review | None
    ) -> tuple[bytes, dict[str, Any], compose.Review]:
        """Take the stanzaId and publish an answer already checked (under the send lock): the bytes,
        the envelope and the review that went out."""
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
        return data, envelope, review

    def _with_reserved_stanza(self, review: compose.Review) -> tuple[compose.Review, bytes, dict[str, Any]]:
        """``review`` with the stanzaId taken for it under the state file's lock (another inspector may
        have sent one since the preview); an id taken for an answer that then fails is skipped."""
        stanza = self.stanzas.reserve(review.conversation_id) if self.numbers_answers else review.stanza_id
        if stanza != review.stanza_id:
            review = self._compose(review.call, review.draft, stanza)
        if review.refusals or review.data is None or review.envelope is None:
            issues = review.refusals
            raise AnswerRefused(issues[0].message if issues else "the answer could not be composed", issues)
        return review, review.data, review.envelope

    async def _publish(self, data: bytes, *, topic: str | None, destination: str | None = None) -> None:
        """Send ``data`` on ``topic`` to the participant ``destination`` (everyone when None)."""
        raise AnswerRefused(f"{self.name} cannot publish")
