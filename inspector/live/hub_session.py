"""One ``inspector live --hub`` run: options checked, tools loaded, recording opened, the hub source wired.

:func:`prepare_hub` builds a :class:`~inspector.live.session.LiveSession` (the same auto-responder, stop
and close as a room's) whose source is a :class:`~inspector.sources.alicia_hub.HubSource`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

from inspector.answer import rules as rules_mod
from inspector.live import hub_tools
from inspector.live.errors import SetupError
from inspector.live.session import LiveOptions, LiveSession, open_recording
from inspector.model import CallStore, Clock
from inspector.sources.alicia_hub import HubSource
from inspector.sources.livekit_room import safe_url

SECRET_ENV = "ALICIA_AGENT_SECRET"
_LIVEKIT_ONLY = ("url", "room", "identity", "token", "api_key", "api_secret")


@dataclass
class HubCredentials:
    """What ``logs`` and ``redact`` need: the secrets to blank out (the agent secret)."""

    url: str
    secret: str = field(default="", repr=False)
    in_url: str = field(default="", repr=False)  # an ?agent_secret= the URL itself carries

    @property
    def secrets(self) -> list[str]:
        return [s for s in (self.secret, self.in_url) if s]


def check(options: LiveOptions, env: Mapping[str, str]) -> HubCredentials:
    """The options that make sense together for the hub; the secret from the option or the environment."""
    url = options.hub or ""
    parts = urlsplit(url)
    if parts.scheme not in ("ws", "wss", "http", "https") or not parts.hostname:
        raise SetupError(f"--hub {safe_url(url) or url!r}: not a hub URL (ws://host/api/v1/ws or wss://...)")
    if parts.scheme in ("http", "https"):  # as bridge.go does: the hub is the same address over WebSocket
        url = url.replace(parts.scheme, "ws" if parts.scheme == "http" else "wss", 1)
    given = [f"--{name.replace('_', '-')}" for name in _LIVEKIT_ONLY if getattr(options, name, None)]
    if given:
        raise SetupError(f"{given[0]} is for LiveKit rooms; with --hub, leave it out")
    secret = options.agent_secret or env.get(SECRET_ENV, "")
    if options.as_assistant:
        if not options.tools:
            raise SetupError("--as-assistant needs --tools FILE (the [[tool]] tables to register)")
        if options.answer is False:
            raise SetupError("--as-assistant answers requests: drop --no-answer")
    else:
        if options.tools:
            raise SetupError("--tools is for --as-assistant (a monitor registers nothing)")
        if options.answer_rules:
            raise SetupError(
                "--answer-rules needs --as-assistant: the hub takes answers only from its assistant"
            )
    origin = options.origin
    if origin is not None and urlsplit(origin).scheme not in ("http", "https"):
        raise SetupError(f"--origin {origin!r}: an origin is http(s)://host[:port], as a browser sends it")
    if options.tool_timeout is not None and not options.tool_timeout > 0:
        raise SetupError("--tool-timeout must be a positive number of seconds")
    in_url = next(iter(parse_qs(parts.query).get("agent_secret", [])), "")
    return HubCredentials(url, secret, in_url)


def prepare_hub(
    options: LiveOptions, env: Mapping[str, str] | None = None, clock: Clock | None = None
) -> LiveSession:
    """A session on Alicia's hub: options, tools and rules checked before anything connects (raises
    SetupError / RulesError)."""
    from inspector import __version__

    credentials = check(options, os.environ if env is None else env)
    tools = hub_tools.load(options.tools) if options.tools else None
    ruleset = rules_mod.load(options.answer_rules) if options.answer_rules else None
    role = "assistant" if options.as_assistant else "monitor"
    where = safe_url(credentials.url)
    header: dict[str, Any] = {"room": where, "url": where, "identity": role, "source": "alicia-hub"}
    header["role"] = role
    header["tool_timeout_ms"] = max(1, int((options.tool_timeout or 30.0) * 1000))
    header["inspector"] = __version__
    name = f"hub-{urlsplit(credentials.url).hostname or 'local'}-{role}"
    store = CallStore(clock=clock)
    writer, note = open_recording(options, name, where, header)
    source = HubSource(
        credentials.url,
        store,
        writer,
        role=role,
        secret=credentials.secret,
        hidden=credentials.secrets,
        tools=tools,
        tool_timeout=options.tool_timeout or 30.0,
        origin=options.origin,
    )
    source.give_up_after = options.give_up_after
    return LiveSession(
        source,
        store,
        writer,
        ruleset,
        options=options,
        secrets=credentials.secrets,
        recording_note=note,
        title=f"hub {role} · {where}",
    )
