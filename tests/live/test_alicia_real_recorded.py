"""Recorded traffic of the real Alicia stack (longregen/alicia fce50255: alicia-api, alicia-agent, the
mcp-assistant bridge; tests/live/alicia_real/):
read back without the server, it shows what the live monitor showed.

monitor_turns.jsonl: a monitor while drive.py played five turns (get_battery; get_clipboard, denied;
get_time and get_battery over REST; get_location, unknown, with ?sync=true; read_screen answered at 35 s,
after the bridge gave up at 30 s, by an inspector from before the rules kept to deadlines).
monitor_race.jsonl: the same on a loaded machine, where the hub's copies of the two halves raced.
monitor_undelivered.jsonl: the assistant killed (-9) after a heartbeat, a request driven at once.
assistant_rule_skip.jsonl: the inspector as the assistant, its rule for read_screen (35 s) skipped.
assistant_displaced.jsonl: the inspector as the assistant, displaced by a second one, then taking the role
back (SIGUSR1). The later ones are written by tests/live/test_alicia_real.py with ALICIA_REAL_SAVE.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import inspector.protocols.alicia.hub as hub
from inspector.model import CallStore, Executor, Message
from inspector.model.filter import parse_filter
from inspector.protocols.recording import RecordingWriter
from inspector.protocols.recording import read as read_recording

HERE = Path(__file__).resolve().parent / "alicia_real"


def read(path: Path | str) -> CallStore:
    store = CallStore()
    store.ingest_many(read_recording(str(path)))  # as `inspector dump` reads it
    store.clock = store.end_clock()
    return store


def test_the_recording_is_what_the_real_server_sent():
    header = json.loads((HERE / "monitor_turns.jsonl").read_text().splitlines()[0])
    assert header["source"] == "alicia-hub" and header["role"] == "monitor"
    text = (HERE / "monitor_turns.jsonl").read_text()
    assert "s3cret" not in text and "agent_secret" not in text


def test_a_server_call_has_no_countdown_and_a_bridge_request_the_bridges_30_s():
    store = read(HERE / "monitor_turns.jsonl")
    calls = list(store.all_calls())
    server = [c for c in calls if c.request.executor is Executor.SERVER]
    client = [c for c in calls if c.request.executor is Executor.CLIENT]
    assert len(server) == 6 and len(client) == 6
    assert all(c.deadline is None and not c.late for c in server)  # agent.go waits on no limit
    assert all(c.request.timeout_ms == 30000 for c in client)
    slow = next(c for c in server if c.tool == "assistant:read_screen")
    assert not slow.late  # the 30 s the bridge waited are not a lateness of the agent's call
    late = next(c for c in client if c.tool == "read_screen")
    assert late.late  # the rule answered at 35 s: the bridge had given up


def test_the_bridge_request_sits_under_the_agents_call_and_says_how_the_link_was_made():
    store = read(HERE / "monitor_turns.jsonl")
    top = [c for c in store.items if hasattr(c, "walk")]
    assert [c.tool for c in top] == [
        "assistant:get_battery",
        "assistant:get_clipboard",
        "assistant:get_time",
        "assistant:get_battery",
        "assistant:get_location",
        "assistant:read_screen",
    ]
    for call in top:
        (child,) = call.children
        assert child.tool == call.tool.split(":", 1)[1]
        assert child.group == "__assistant__" and child.request.extra["also_in"] == call.group
        assert child.call_id in call.notes["link"] and call.call_id in child.notes["link"]
        assert "inferred" in child.notes["link"] and "arguments" in child.notes["link"]


def test_a_conversation_filter_keeps_both_halves_and_so_does_the_bridges_group():
    store = read(HERE / "monitor_turns.jsonl")
    conversation = next(c for c in store.items if hasattr(c, "walk")).group
    for text in (f"group:{conversation}", "group:__assistant__", f"conv:{conversation[:8]}*"):
        flt = parse_filter(text)
        kept = [c for c in store.all_calls() if flt.matches_tree(c, None)]
        assert len(kept) == 12, text  # 6 agent calls, 6 bridge requests


def test_a_failed_phone_tool_is_noted_where_the_agent_says_success():
    store = read(HERE / "monitor_turns.jsonl")
    noted = {c.tool: c for c in store.all_calls() if "failure_as_text" in c.notes}
    assert set(noted) == {"assistant:get_clipboard", "assistant:get_location", "assistant:read_screen"}
    for call in noted.values():
        assert call.result.outcome.value == "success" and call.result.data.startswith("Error: ")
        assert "agent/mcp.go" in call.notes["failure_as_text"]


def test_a_user_message_echoed_with_id_and_previous_id_shows_once():
    raw = [json.loads(line) for line in (HERE / "monitor_turns.jsonl").read_text().splitlines()[1:]]
    echoes = [
        r
        for r in raw
        if r.get("participant") == "server → client" and (r.get("decoded") or {}).get("type") == 2
    ]
    assert echoes and all("id" in r["decoded"]["body"] for r in echoes)  # not byte-identical: added ids
    store = read(HERE / "monitor_turns.jsonl")
    said = [m.text for m in store.items if isinstance(m, Message) and m.kind == "UserMessage"]
    assert said == ["please get_battery", "get_clipboard please", "read_screen please"]


# -- delivery, on streams written as the monitor records them -------------------------------------
def frame(writer: RecordingWriter, t: float, route: str, type_: int, body: dict, conv: str = "") -> None:
    writer.write("in", hub.encode(type_, body, conv), ts=t, participant=route)


def bridge_request(writer: RecordingWriter, t: float, request_id: str, tool: str = "get_battery") -> None:
    body = {"id": request_id, "messageId": "", "conversationId": "", "toolName": tool}
    frame(
        writer, t, "server → assistant", 6, {**body, "arguments": {}, "execution": "client"}, "__assistant__"
    )


@pytest.fixture
def recording(tmp_path):
    path = tmp_path / "monitor.jsonl"
    writer = RecordingWriter(str(path), {"room": "hub", "source": "alicia-hub", "role": "monitor"})
    yield path, writer
    writer.close()


def test_a_request_after_30_s_without_a_heartbeat_is_not_delivered(recording):
    path, writer = recording
    frame(writer, 1000.0, "assistant → server", 72, {})
    frame(writer, 1015.0, "assistant → server", 72, {})
    bridge_request(writer, 1020.0, "fresh")  # 5 s after a heartbeat: it reached the assistant
    frame(writer, 1030.0, "assistant → server", 72, {})
    bridge_request(writer, 1070.0, "stale")  # 40 s after the last heartbeat
    frame(writer, 1071.0, "client → server", 40, {"conversationId": "c"})
    writer.close()
    store = read(path)
    fresh, stale = (store.find("__assistant__", i) for i in ("fresh", "stale"))
    assert not fresh.undelivered
    assert stale.undelivered and "40 s before" in stale.notes["undelivered"]


@pytest.mark.parametrize(
    ("then", "undelivered"),
    [
        ((1025.0, "client → server", 40), False),  # 25 s after the heartbeat: too soon to say
        ((1031.0, "client → server", 40), True),  # 31 s: heartbeats (every 15 s) stopped before it
        ((1014.0, "assistant → server", 72), False),  # the next heartbeat came: it was there
    ],
)
def test_heartbeats_that_stop_after_a_request_mark_it_not_delivered_once_30_s_pass(
    recording, then, undelivered
):
    path, writer = recording
    frame(writer, 1000.0, "assistant → server", 72, {})
    bridge_request(writer, 1010.0, "lost")
    t, route, type_ = then
    frame(writer, t, route, type_, {"conversationId": "c"} if type_ == 40 else {})
    if type_ == 72:
        frame(writer, 1045.0, "client → server", 40, {"conversationId": "c"})
    writer.close()
    call = read(path).find("__assistant__", "lost")
    assert call.undelivered is undelivered
    if undelivered:
        assert "no heartbeat after" in call.notes["undelivered"]


def test_an_answered_request_is_never_called_undelivered(recording):
    path, writer = recording
    bridge_request(writer, 1000.0, "r1")
    frame(
        writer,
        1001.0,
        "assistant → server",
        7,
        {"id": "x", "requestId": "r1", "success": True},
        "__assistant__",
    )
    frame(writer, 1100.0, "client → server", 40, {"conversationId": "c"})
    writer.close()
    assert not read(path).find("__assistant__", "r1").undelivered


def test_a_bridge_request_that_reached_the_monitor_first_is_moved_under_the_agents_call():
    """monitor_race.jsonl: on a loaded machine the hub's two copies raced; two bridge requests came
    before the agent's call they serve."""
    raw = [json.loads(line) for line in (HERE / "monitor_race.jsonl").read_text().splitlines()[1:]]
    order = [
        r["participant"]
        for r in raw
        if r.get("dir") == "in"
        and (r.get("decoded") or {}).get("type") == 6
        and r["decoded"]["body"]["toolName"].endswith("get_battery")
    ]
    assert order[:2] == ["server → assistant", "agent → server"]  # the bridge's copy first
    store = read(HERE / "monitor_race.jsonl")
    top = [c for c in store.items if hasattr(c, "walk")]
    assert len(top) == 5 and all(c.tool.startswith("assistant:") for c in top)
    assert all(len(c.children) == 1 and c.children[0].parent is c for c in top)
    assert sum("just before" in c.children[0].notes["link"] for c in top) == 2
    assert store.removed_top == 2


def test_adopt_moves_a_top_level_call_under_another_and_refuses_a_cycle():
    from factories import make_request

    from inspector.model import Adopt

    store = CallStore()
    child = store.ingest(make_request("b", "get_battery", group="__assistant__"))
    parent = store.ingest(make_request("a", "assistant:get_battery", group="conv"))
    assert store.ingest(Adopt("__assistant__", "b", "a")) is child
    assert store.items == [parent] and parent.children == [child] and child.depth == 1
    assert isinstance(store.ingest(Adopt("conv", "a", "b")), Adopt)  # a parent under its child: no
    assert isinstance(store.ingest(Adopt("conv", "x", "a")), Adopt)  # unknown: nothing moves
    assert store.items == [parent]


def test_the_request_the_hub_dropped_after_the_assistant_died_is_not_delivered():
    store = read(HERE / "monitor_undelivered.jsonl")
    (agent,) = [c for c in store.items if hasattr(c, "walk")]
    (bridge,) = agent.children
    assert bridge.undelivered and "no heartbeat after" in bridge.notes["undelivered"]
    assert "failure_as_text" in agent.notes and "timed out after 30s" in agent.result.data
    assert not agent.undelivered and agent.deadline is None


def test_the_displaced_assistant_said_so_stopped_heartbeats_and_took_the_role_back():
    raw = [json.loads(line) for line in (HERE / "assistant_displaced.jsonl").read_text().splitlines()[1:]]
    roles = [(r["t"], r["text"]) for r in raw if r.get("kind") == "assistant-role"]
    assert [text.split(":")[0] for _, text in roles] == ["displaced", "took the assistant role back"]
    (start, _), (end, _) = roles
    beats = [r["t"] for r in raw if r.get("dir") == "out" and (r.get("decoded") or {}).get("type") == 72]
    assert not [t for t in beats if start < t < end] and [t for t in beats if t > end]
    store = read(HERE / "assistant_displaced.jsonl")
    (call,) = store.all_calls()  # the request of the second turn only: the first went to the other
    assert call.result.answered_by == "auto" and call.result.data == {"level": 87, "charging": True}


def test_the_rule_past_the_bridges_wait_was_skipped_and_said():
    store = read(HERE / "assistant_rule_skip.jsonl")
    (skip,) = [m.text for m in store.items if isinstance(m, Message) and m.kind == "auto-responder"]
    assert "read_screen" in skip and "past the request's deadline" in skip and "send_late" in skip
    screen = next(c for c in store.all_calls() if c.tool == "read_screen")
    assert not screen.answered
    assert all(c.answered for c in store.all_calls() if c is not screen)


def test_a_client_request_of_the_agent_is_judged_as_routed_to_the_assistant(recording):
    """ws.go sends an agent's ``execution: "client"`` request on to the assistant (the monitor sees the
    hub's copy as a relay of the same bytes): with no heartbeat for 30 s it was not delivered either."""
    path, writer = recording
    frame(writer, 1000.0, "assistant → server", 72, {})
    body = {"id": "tu_1", "toolName": "get_battery", "arguments": {}, "execution": "client"}
    frame(writer, 1040.0, "agent → server", 6, {**body, "conversationId": "c"}, "c")
    writer.close()
    call = read(path).find("c", "tu_1")
    assert call.undelivered and "40 s before" in call.notes["undelivered"]
