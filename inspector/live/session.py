"""One live run: options, credentials, store, recording, the LiveKit source and the auto-responder, wired up.

The UI receives ``run_live(session.source, session.store, session.options)`` with everything wired: it
awaits ``source.start()`` on its own loop (the auto-responder follows the source's events there) and
``source.stop()`` when it ends; the caller closes the session afterwards.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from inspector.answer import rules as rules_mod
from inspector.answer.engine import AsyncioScheduler, AutoResponder, Decision
from inspector.answer.rules import Rule
from inspector.live import credentials as creds
from inspector.live import record_target
from inspector.live.errors import explain, preflight
from inspector.model import Call, CallStore, Clock, Request
from inspector.model.events import Event
from inspector.protocols.recording import default_recording_path
from inspector.sources.base import AnswerError
from inspector.sources.tasks import cancel_and_wait


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
    command: str = "live"  # the command that runs the session, as its messages name it ("demo")
    # filled in by LiveSession.prepare, for the UI to show
    recording_path: str | None = None
    recording_note: str | None = None
    rules: rules_mod.RuleSet | None = None
    title: str = ""

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
    """Everything a live run holds; build it with :meth:`prepare` (raises SetupError / RulesError)."""

    def __init__(
        self,
        options: LiveOptions,
        credentials: creds.Credentials,
        *,
        clock: Clock | None = None,
        ruleset: rules_mod.RuleSet | None = None,
    ) -> None:
        from inspector.sources.livekit_room import LiveKitSource

        self.options = options
        self.credentials = credentials
        self.store = CallStore(clock=clock)
        path = None if options.no_record else (options.record or default_recording_path(credentials.room))
        if path and options.record:
            path, options.recording_note = record_target.choose(path, credentials.room, append=options.append)
        self.writer = record_target.open_writer(path, _header(credentials)) if path else None
        options.recording_path = path
        options.rules = ruleset
        options.title = f"live · {credentials.room or '?'} · {credentials.url}"
        self.source = LiveKitSource(
            credentials.url,
            credentials.token,
            self.store,
            self.writer,
            room=credentials.room,
            identity=credentials.identity,
            answering=credentials.can_publish_data and options.answering,
            explain=lambda url, exc: explain(url, exc, minted=credentials.minted),
            preflight=preflight,
        )
        self.source.give_up_after = options.give_up_after  # the UI rejoins as --no-ui does
        self.engine: AutoResponder | None = None
        self._sending: set[asyncio.Task[None]] = set()  # auto-answers on their way (ended by stop)
        self.decisions: list[Decision] = []
        if ruleset is not None and len(ruleset):
            self.engine = AutoResponder(
                ruleset, AsyncioScheduler(), self._deliver, log=self._decided, clock=self.store.clock.now
            )
            self.source.watch_events(self._offer)

    @classmethod
    def prepare(
        cls, options: LiveOptions, env: Mapping[str, str] | None = None, clock: Clock | None = None
    ) -> LiveSession:
        """Check rules and credentials (minting a token if needed) before anything connects."""
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
        return cls(options, credentials, clock=clock, ruleset=ruleset)

    def redact(self, text: str) -> str:
        for secret in self.credentials.secrets:
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
