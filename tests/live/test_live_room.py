"""The live source, answering, the auto-responder, recordings and the commands, with the real SDK."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from inspector.model import CallStore, Message
from inspector.sources.files import load


def replay(path: str) -> CallStore:
    store = CallStore()
    load([path], store)
    return store


def test_answer_api_and_auto_responder_send_the_spec_envelope(scenario):
    r = scenario("answer_and_auto")
    answers = {e["body"]["id"]: e for e in r["agent_received"] if e["type"] == 7}
    assert set(answers) == {"r_client", "r_either", "r_again"}  # nothing for the server-executed request
    body = {"requestId": "r_either", "conversationId": "conv_test", "messageId": "msg_1", "success": True}
    assert answers["r_either"]["body"] == {"id": "r_either", **body, "result": {"answer": 4}}
    assert answers["r_client"]["body"]["requestId"] == "r_client"
    assert {k: v for k, v in answers["r_client"].items() if k != "stanzaId"} == {
        "conversationId": "conv_test",
        "type": 7,
        "meta": {},
        "body": {"id": "r_client", **body, "requestId": "r_client", "result": {"content": "hi"}},
    }
    # stanzaIds rise above the user's 7, from one answer to the next, and across a restart
    stanzas = [answers[k]["stanzaId"] for k in ("r_either", "r_client", "r_again")]
    assert 7 < stanzas[0] < stanzas[1] < stanzas[2] < 2**31 and stanzas[2] == r["restarted_stanza"]
    assert r["preview_stanza"] == r["sent_stanza"] == stanzas[1]
    # answers go to the agent that asked, not to everyone: the user's app receives none
    assert 7 not in r["user_received"] and 6 in r["user_received"]
    assert r["refused"] == "AnswerRefused"
    calls = r["calls"]
    assert calls["r_client"] == {
        "state": "succeeded",
        "answered_by": "inspector",
        "results": 1,
        "tool": "read_local_file",
    }
    assert calls["r_either"]["answered_by"] == "auto" and calls["r_server"]["state"] == "pending"
    assert len(r["malformed"]) == 1 and r["malformed"][0].startswith("not MessagePack")
    texts = [text for kind, text in r["messages"] if kind == "participant"]
    assert "agent-1 joined" in texts and "user-app joined" in texts

    # the recording replays to the same calls, answers marked with who sent them
    again = replay(r["recording"])
    now = again.clock.now()
    replayed = {
        c.call_id: (c.result.answered_by if c.result else None, len(c.results), c.tool)
        for c in again.all_calls()
    }
    assert replayed == {k: (v["answered_by"], v["results"], v["tool"]) for k, v in calls.items()}
    assert again.find("conv_test", "r_client").state(now).value == "succeeded"
    assert len(again.malformed) == 1
    kinds = [(m.kind, m.text) for m in again.items if isinstance(m, Message)]
    assert ("participant", "agent-1 joined") in kinds and ("UserMessage", "hello") in kinds


def test_leaving_and_dropped_connections_show_in_the_store(scenario):
    r = scenario("leave_and_drop")
    texts = [text for _, text in r["messages"]]
    assert "agent-polite joined" in texts and any(t.startswith("agent-polite left") for t in texts)
    assert any(t.startswith("agent-dropped left") for t in texts)
    assert texts[-1].startswith("disconnected: ") and r["final"] == "disconnected"
    if r["server"] == "real":  # it cannot cut a connection: RoomService removes the participant, who is told
        assert "agent-dropped left (removed from the room by the server)" in texts
        assert texts[-1] == "disconnected: removed from the room by the server"
    else:  # the loopback room drops the connection without a word, as a lost network would
        assert "connection lost: reconnecting" in texts and "reconnecting" in r["states"]


def test_live_command_prints_records_and_keeps_secrets_out(scenario):
    r = scenario("cli_live", timeout=200)
    live = r["live"]
    assert live["code"] == 0, live["stderr"]
    events = [json.loads(line) for line in live["stdout"].splitlines()]
    assert events[0] == {
        "event": "recording",
        "text": f"recording to {r['recording']}",
        "path": r["recording"],
    }
    assert any(e["event"] == "malformed" for e in events)
    c1 = [e for e in events if e.get("id") == "c1"]
    assert c1[0]["state"] == "pending" and c1[-1]["results"][0]["answered_by"] == "auto"
    assert r["received"][0]["body"] == {
        "id": "c1",
        "requestId": "c1",
        "conversationId": "conv_test",
        "messageId": "msg_1",
        "success": True,
        "result": {"content": "auto"},
    }

    # secrets appear nowhere: not in any output, not in the recording
    with open(r["recording"], encoding="utf-8") as fh:
        recorded = fh.read()
    for run in ("live", "bad", "given", "bad_rules", "refused"):
        output = r[run]["stdout"] + r[run]["stderr"]
        assert r["secret"] not in output and r["given_token"] not in output
        assert "Traceback" not in output
    assert r["secret"] not in recorded and "eyJ" not in recorded  # no JWT either
    assert replay(r["recording"]).find("conv_test", "c1").result.answered_by == "auto"

    assert r["bad"]["code"] == 2 and "refused the access token" in r["bad"]["stderr"]
    assert (
        r["given"]["code"] == 0
        and f"connected to room {r['room']} as inspector-given" in r["given"]["stdout"]
    )
    assert (
        r["bad_rules"]["code"] == 2
        and "rules.toml line 1: rule for 'x' needs either" in r["bad_rules"]["stderr"]
    )
    assert r["refused"]["code"] == 2 and "nothing is listening at 127.0.0.1:1" in r["refused"]["stderr"]


def test_demo_headless_plays_the_script_and_the_recording_replays(live_env, live_server, tmp_path):
    path = tmp_path / "demo.jsonl"
    env = {k: v for k, v in live_env.items() if not k.startswith("LIVEKIT_")}
    on_server: list[str] = []
    if live_server is not None:  # `inspector demo --url`: the agent plays in a room on that server
        on_server = ["--url", live_server.url]
        env.update(LIVEKIT_API_KEY=live_server.api_key, LIVEKIT_API_SECRET=live_server.api_secret)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "inspector",
            "demo",
            "--no-ui",
            "--auto",
            "--speed",
            "4",
            "--record",
            str(path),
            *on_server,
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "answered by auto" in proc.stdout and "overdue" in proc.stdout
    where = live_server.url if live_server is not None else "ws://127.0.0.1:"
    assert f"at {where}" in proc.stderr  # it says which server it plays on
    store = replay(str(path))
    now = store.clock.now()
    calls = {c.tool: c for c in store.all_calls()}
    assert {c.request.executor.value for c in calls.values()} == {"server", "client", "either"}
    assert calls["web_search"].state(now).value == "succeeded"
    assert calls["database_query"].result.error_code == "execution_error"
    assert calls["read_local_file"].result.answered_by == "auto"
    assert calls["calculator"].result.answered_by == "auto"
    assert not calls["get_location"].answered  # nobody answers it: it times out
    said = [m.text for m in store.items if isinstance(m, Message) and m.kind == "AssistantMessage"]
    assert any(t.startswith("got your result for read_local_file") for t in said)
    assert any(t.startswith("no result for get_location") for t in said)


def test_the_size_check_counts_what_the_sdk_puts_on_the_wire(scenario):
    r = scenario("answer_size")
    wire, envelope, sendable = r["at_limit"]
    assert wire == 64000 and sendable and envelope < 64000 - 40  # the packet is bigger than the envelope
    assert r["sent_error"] == "" and r["received"] == envelope  # the SDK took the largest allowed answer
    assert r["over"] == [64001, False, ["too_large"]]  # one byte more is refused before the SDK sees it
    # an agent's packet of exactly 64,000 bytes on the wire arrives whole; one byte more never leaves it
    inbound = r["inbound"]
    assert inbound["at_limit_"][0] == "sent" and r["inbound_arrived"] == {
        "at_limit_": inbound["at_limit_"][1]
    }
    assert inbound["past_limit"][0] == "refused"
    assert "exceeds the negotiated maximum message size (64000 bytes)" in inbound["past_limit"][1]


def test_kill_9_of_inspector_live_takes_its_sdk_child_out_of_the_room_and_no_secret_shows(scenario):
    r = scenario("kill_nine", timeout=200)
    assert r["children"] == 1 and r["seen"]["child_environ_read"]
    assert r["seen"] == {
        "supervisor_cmdline": False,
        "child_cmdline": False,
        "child_environ": False,  # the secret came through a pipe
        "child_environ_read": True,
    }
    assert r["left"] and r["alive"] == [], r


@pytest.fixture
def small_fs(tmp_path, monkeypatch):
    """A real 16 KB filesystem (tmpfs), where the platform lets this user mount one."""
    import subprocess

    folder = tmp_path / "small"
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(folder)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip("cannot mount a small filesystem here")
    monkeypatch.setenv("INSPECTOR_TEST_SMALL_FS", str(folder))
    yield folder
    subprocess.run(["umount", str(folder)], capture_output=True)


def test_a_full_disk_stops_the_recording_not_the_view(scenario, small_fs):
    r = scenario("disk_full", timeout=200)
    printed = [json.loads(line) for line in r["stdout"].splitlines() if line.startswith("{")]
    ids = {e.get("id") for e in printed}
    assert {f"big{i}" for i in range(30)} <= ids  # every request shown, though the disk filled
    assert any("recording stopped: No space left on device" in json.dumps(e) for e in printed)
    assert r["code"] == 4 and "the recording stopped (No space left on device)" in r["stderr"]
    assert "Traceback" not in r["stderr"] and 0 < r["size"] <= 16 * 1024


def test_the_inspector_waits_for_the_room_and_rejoins_after_30_s_down(scenario):
    r = scenario("rejoin", timeout=300)
    print("steps", r["stages"])  # where the time went, shown by pytest -s or on a failure
    printed = [json.loads(line) for line in r["stdout"].splitlines() if line.startswith("{")]
    texts = [json.dumps(e) for e in printed]
    assert any('"r1"' in t for t in texts) and any('"r2"' in t for t in texts)
    assert any("reconnecting:" in t and "attempt" in t and "next try in" in t for t in texts)
    assert sum("connected to room" in t for t in texts) >= 2
    assert r["code"] == 0 and "Traceback" not in r["stderr"]
    lines = r["recording"].splitlines()
    assert sum("inspector-recording" in line for line in lines) == 1  # one file, one header
    assert any("r1" in line for line in lines) and any("r2" in line for line in lines)


def test_the_app_rejoins_by_itself_and_keeps_its_calls_on_screen(scenario):
    r = scenario("ui_rejoin", timeout=200)
    assert "reconnecting" in r["before_room"] and "attempt" in r["before_room"]
    down = r["while_down"]
    assert "read_local_file" in down  # the call from before the fault stays on screen
    assert "reconnecting" in down.splitlines()[-2] and "next try in" in down
    assert r["calls"] == ["u1", "u2"] and r["joins"] >= 2
    assert "connected" in r["after"].splitlines()[-2] and "reconnecting" not in r["after"].splitlines()[-2]


def test_a_request_sent_as_its_agent_joins_is_answered_to_that_agent_alone_after_its_join(scenario):
    r = scenario("early_sender")
    assert r["order"] == ["agent-early joined", "call e1"]  # who it is, then what it asked
    assert r["sender"] == "agent-early" and r["state"] == "succeeded"
    assert r["agent_answers"] == ["e1"]
    assert 7 not in r["bystander_types"]  # the bystander got the marker and no answer
    # the inspectors are hidden: no participant sees them; the server lists them, with their grants
    assert r["seen_by_agent"] == ["bystander"] and r["seen_by_bystander"] == ["agent-early"]
    assert r["listed"] == {
        "inspector-test": [True, True],
        "inspector-watch": [True, False],  # joined without answering: no data publishing
        "bystander": [False, True],
        "agent-early": [False, True],
    }
    assert r["watcher_refusals"][0] == "cannot_answer"
    assert not r["got_forced"]  # what it published anyway went nowhere


def test_quitting_in_a_flood_writes_what_came_before(scenario, capsys):
    """Issue 25 §3: the app quits while four publishers flood the room and leaving takes longer than the
    quit waits: what the room handed over before is recorded (and shown), what came after is counted."""
    r = scenario("quit_in_flood", timeout=200)
    assert r["arrived"] >= 3000
    assert r["recorded"] == r["arrived"] - r["unwritten"] == r["calls"], r
    with capsys.disabled():
        print(
            f"\n  quit in a flood ({r['server']}): {r['arrived']} handed over, {r['backlog_at_quit']} waiting "
            f"at the quit, {r['recorded']} recorded, {r['unwritten']} not written"
        )


def test_a_flood_through_the_server_loses_nothing(scenario, capsys):
    r = scenario("flood", timeout=200)
    assert r["calls"] == r["sent"] == r["recorded"] and r["missing"] == []
    with capsys.disabled():  # the rate through each server, printed beside each other in the test output
        print(
            f"\n  flood through the {r['server']} server: {r['sent']} packets, sent at {r['send_rate']}/s, "
            f"all through at {r['receive_rate']}/s"
        )
