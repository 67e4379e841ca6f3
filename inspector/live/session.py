"""One live run: options, store, recording, the source (a LiveKit room, or the hub) and the auto-responder.

:func:`prepare_room` builds a LiveKit room's; :func:`inspector.live.hub_session.prepare_hub` the hub's.
The UI receives ``run_live(session.source, session.store)`` with everything wired: it
awaits ``source.start()`` on its own loop (the auto-responder follows the source's events there) and
``source.stop()`` when it ends; the caller closes the session afterwards.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Union

from inspector.answer import rules as rules_mod
from inspector.answer.engine import AsyncioScheduler, AutoResponder, Decision
from inspector.answer.rules import Rule
from inspector.live import credentials as creds
from inspector.live import record_target
from inspector.live.errors import explain, preflight
from inspector.model import Call, CallStore, Clock, Request
from inspector.model.events import Event
from inspector.protocols.recording import RecordingWriter, default_recording_path
from inspector.sources.base import AnswerError
from inspector.sources.tasks import cancel_and_wait

if TYPE_CHECKING:
    from inspector.sources.alicia_hub import HubSource
    from inspector.sources.livekit_room import LiveKitSource

LiveSource = Union["LiveKitSource", "HubSource"]
"""The sources a live session joins: a LiveKit room, or Alicia's hub."""


@dataclass
class LiveOptions:
    """What ``inspector live`` was asked to do (secrets are never shown by ``repr``)."""

    url: str | None = None
    room: str | None = None
    identity: str | None = None
    token: str | None = field(default=None, repr=False)
    api_key: str | None = None
    api_secret: str | None = field(default=None, repr=False)
    visible: bool = False
    answer: bool | None = None  # None: answer when the UI is used or rules are given
    answer_rules: str | None = None
    record: str | None = None
    no_record: bool = False
    append: bool = False
    give_up_after: float | None = None
    no_ui: bool = False
    json: bool = False
    verbose: bool = False
    # Alicia's WebSocket hub instead of a LiveKit room (inspector.live.hub_session)
    hub: str | None = None
    as_assistant: bool = False
    tools: str | None = None
    agent_secret: str | None = field(default=None, repr=False)
    tool_timeout: float | None = None
    origin: str | None = None
    # --otlp URL: the calls streamed as OpenTelemetry spans as they end (inspector.live.otlp_out)
    otlp: str | None = None
    otlp_content: bool = False
    otlp_content_limit: int = 4096
    command: str = "live"  # the command that runs the session, as its messages name it ("demo")

    @property
    def answering(self) -> bool:
        if self.answer is not None:
            return self.answer
        return not self.no_ui or bool(self.answer_rules)

    @classmethod
    def from_args(cls, args: Any) -> LiveOptions:
        names = [f for f in cls.__dataclass_fields__ if hasattr(args, f)]
        return cls(**{name: getattr(args, name) for name in names})


class LiveSession:
    """One live run: a source joined to a room or a hub, the store it feeds, its recording and rules.

    Built by :func:`prepare_room` (a LiveKit room) or :func:`inspector.live.hub_session.prepare_hub`;
    what they found out (the recording's path, a note about it, the title) is kept here, never written
    back into ``options``.
    """

    def __init__(
        self,
        source: LiveSource,
        store: CallStore,
        writer: RecordingWriter | None,
        rules: rules_mod.RuleSet | None,
        *,
        options: LiveOptions,
        secrets: Sequence[str] = (),
        recording_note: str | None = None,
        title: str = "",
    ) -> None:
        self.source = source
        self.store = store
        self.writer = writer
        self.rules = rules
        self.options = options
        self.secrets = tuple(secrets)
        self.recording_path = writer.path if writer is not None else None
        self.recording_note = recording_note
        self.title = title
        self.engine: AutoResponder | None = None
        self._sending: set[asyncio.Task[None]] = set()  # auto-answers on their way (ended by stop)
        self.decisions: list[Decision] = []
        if rules is not None and len(rules):
            self.engine = AutoResponder(
                rules, AsyncioScheduler(), self._deliver, log=self._decided, clock=self.store.clock.now
            )
            self.source.watch_events(self._offer)

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            if secret:
                text = text.replace(secret, "<secret>")
        return text

    # -- the auto-responder --------------------------------------------------------------
    def _offer(self, events: list[Event]) -> None:
        if self.engine is None:
            return
        for event in events:
            if isinstance(event, Request) and event.extra.get("dir", "in") == "in":
                call = self.store.find(event.group, event.call_id)
                if call is not None and call.request is event:
                    self.engine.offer(call)

    def _decided(self, decision: Decision) -> None:
        """Keep every decision; say the skips where the user looks (the list, the headless output)."""
        self.decisions.append(decision)
        if decision.action == "skipped":
            self.source.room_event(
                "auto-responder", f"did not answer {decision.tool} {decision.call_id}: {decision.reason}"
            )

    def _deliver(self, call: Call, draft, rule: Rule) -> None:
        task = asyncio.get_running_loop().create_task(self._auto_send(call, draft, rule))
        self._sending.add(task)  # kept until done: stop() ends the ones still sending
        task.add_done_callback(self._sending.discard)

    async def _auto_send(self, call: Call, draft, rule: Rule) -> None:
        try:
            await self.source.send_answer(call, draft, confirm_late=rule.send_late, answered_by="auto")
        except AnswerError as exc:
            self.source.room_event(
                "auto-responder",
                f"did not answer {call.tool} {call.call_id} (rule at line {rule.line}): {exc}",
            )

    async def stop(self) -> None:
        if self.engine is not None:
            self.engine.cancel_all()
        await cancel_and_wait(list(self._sending))
        await self.source.stop()

    def close(self) -> None:
        if self.writer is not None:
            try:
                self.writer.close()
            except OSError:  # the recording already failed (disk full): that was said when it happened
                pass


def open_recording(
    options: LiveOptions, name: str, where: str, header: dict[str, Any]
) -> tuple[RecordingWriter | None, str | None]:
    """The recording a session writes (None with ``--no-record``) and, when ``--record``'s file was not
    usable as it is, a sentence saying where it went instead (raises SetupError).

    ``name`` names the default file; ``where`` is the room (or hub) a file given with ``--record`` must
    be a recording of to be continued."""
    if options.no_record:
        return None, None
    path, note = options.record or default_recording_path(name), None
    if options.record:
        path, note = record_target.choose(path, where, append=options.append)
    return record_target.open_writer(path, header), note


def prepare_room(
    options: LiveOptions, env: Mapping[str, str] | None = None, clock: Clock | None = None
) -> LiveSession:
    """A session in a LiveKit room: rules and credentials checked (a token minted if needed) before
    anything connects (raises SetupError / RulesError)."""
    from inspector.sources.livekit_room import LiveKitSource

    ruleset = None
    if options.answer_rules:
        if options.answer is False:
            raise creds.SetupError("--answer-rules needs answering: drop --no-answer")
        ruleset = rules_mod.load(options.answer_rules)
    credentials = creds.resolve(
        url=options.url,
        room=options.room,
        identity=options.identity,
        token=options.token,
        api_key=options.api_key,
        api_secret=options.api_secret,
        visible=options.visible,
        answering=options.answering,
        env=env,
    )
    if ruleset is not None and not credentials.can_publish_data:
        raise creds.SetupError(
            "the token does not allow publishing data (canPublishData is false), so "
            "--answer-rules could never answer: use a token that allows it"
        )
    store = CallStore(clock=clock)
    writer, note = open_recording(options, credentials.room, credentials.room, _header(credentials))
    source = LiveKitSource(
        credentials.url,
        credentials.token,
        store,
        writer,
        room=credentials.room,
        identity=credentials.identity,
        answering=credentials.can_publish_data and options.answering,
        explain=lambda url, exc: explain(url, exc, minted=credentials.minted),
        preflight=preflight,
    )
    source.give_up_after = options.give_up_after  # the UI rejoins as --no-ui does
    title = f"live · {credentials.room or '?'} · {credentials.url}"
    return LiveSession(
        source,
        store,
        writer,
        ruleset,
        options=options,
        secrets=credentials.secrets,
        recording_note=note,
        title=title,
    )


def _header(credentials: creds.Credentials) -> dict[str, Any]:
    from inspector import __version__
    from inspector.sources.livekit_room import safe_url

    return {
        "room": credentials.room,
        "url": safe_url(credentials.url),
        "identity": credentials.identity,
        "inspector": __version__,
        "source": "livekit",
    }
