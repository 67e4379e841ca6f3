"""Which Alicia requests get a countdown: only where something waits on a deadline (issue 21).

A server request of the coded generation (the Go agent's, no stanzaId) has none: alicia's agent calls its
tools with no limit. The documented generation gives every request the 30 s default (the spec says so for
either executor). A client request gets the 30 s default, or what it carries; a hub source replaces the
default with its tool timeout (the bridge's wait)."""

from __future__ import annotations

import msgpack
import pytest

import inspector.protocols.alicia.hub as hub
from inspector.model import CallStore
from inspector.protocols import alicia
from inspector.sources.alicia_hub import HubSource


def request(execution: str, **extra):
    body = {"id": "t1", "toolName": "web_search", "arguments": {}, "execution": execution, **extra}
    envelope = {"conversationId": "c", "type": 6, "body": body}
    if "stanza" in extra:
        envelope["stanzaId"] = body.pop("stanza")
    (event,) = alicia.decode_packet(msgpack.packb(envelope))
    return event


@pytest.mark.parametrize(
    ("execution", "extra", "timeout"),
    [
        ("server", {}, None),  # the Go agent's own call: nobody waits with a limit
        ("server", {"timeoutMs": 5000}, 5000),  # a sender that states one keeps it
        ("server", {"stanza": 4}, 30000),  # the documented generation: the spec's default
        ("client", {}, 30000),
        ("either", {}, 30000),
        ("client", {"timeoutMs": 1200}, 1200),
    ],
)
def test_the_decoder_gives_a_countdown_only_where_one_is_waited_on(execution, extra, timeout):
    event = request(execution, **extra)
    assert event.timeout_ms == timeout and not event.violation


@pytest.mark.parametrize(("execution", "timeout"), [("server", None), ("client", 7000), ("either", 7000)])
def test_the_hub_source_gives_client_requests_its_tool_timeout_and_server_ones_none(execution, timeout):
    store = CallStore()
    source = HubSource("ws://127.0.0.1:9/api/v1/ws", store, role="assistant", tool_timeout=7.0)
    body = {"id": "t1", "toolName": "get_battery", "arguments": {}, "execution": execution}
    source.receive(hub.encode(6, body, "__assistant__"), participant="server")
    (call,) = store.all_calls()
    assert call.request.timeout_ms == timeout
    assert (call.deadline is None) is (timeout is None)
