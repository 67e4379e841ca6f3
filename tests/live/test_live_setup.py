"""Live setup without the SDK: credentials, tokens, readable errors, printing, redaction, import weight."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import socket
import subprocess
import sys

import pytest
from factories import make_request, make_result

from inspector.live import credentials as creds
from inspector.live.errors import SetupError, check_url, explain, preflight
from inspector.live.logs import Redact
from inspector.live.printer import Printer
from inspector.live.runner import run
from inspector.live.session import LiveOptions, prepare_room
from inspector.model import CallStore, FakeClock, Message

SECRET = "test-secret-0123456789-0123456789-abcdef"
ENV = {"LIVEKIT_URL": "ws://127.0.0.1:7880", "LIVEKIT_API_KEY": "devkey", "LIVEKIT_API_SECRET": SECRET}


def resolve(env=ENV, **options):
    base = dict(
        url=None,
        room="conv_1",
        identity=None,
        token=None,
        api_key=None,
        api_secret=None,
        visible=False,
        answering=False,
    )
    base.update(options)
    return creds.resolve(env=env, **base)


def test_minted_token_is_hidden_and_may_publish_only_when_answering():
    observer = resolve()
    claims = creds.token_claims(observer.token)
    assert (
        observer.minted and observer.identity.startswith("inspector-") and claims["sub"] == observer.identity
    )
    assert claims["iss"] == "devkey" and claims["video"]["room"] == "conv_1"
    assert claims["video"]["hidden"] is True and claims["video"]["canPublishData"] is False
    answering = creds.token_claims(resolve(answering=True, visible=True, identity="me").token)
    assert answering["video"]["canPublishData"] is True and answering["video"].get("hidden", False) is False
    assert answering["sub"] == "me"
    text = repr(observer)
    assert SECRET not in text and observer.token not in text


def test_given_token_names_room_and_identity():
    token = creds.mint(
        "devkey", SECRET, identity="alice", room="conv_9", hidden=False, can_publish_data=False
    )
    given = resolve(env={"LIVEKIT_URL": "wss://lk.example.org"}, room=None, token=token)
    assert (given.room, given.identity, given.can_publish_data, given.minted) == (
        "conv_9",
        "alice",
        False,
        False,
    )
    with pytest.raises(SetupError, match="the token is for room 'conv_9', not 'other'"):
        resolve(room="other", token=token)
    with pytest.raises(SetupError, match="not a JWT"):
        resolve(token="not-a-token")


@pytest.mark.parametrize(
    "env, options, words",
    [
        ({}, {}, "no LiveKit URL: give --url or set LIVEKIT_URL"),
        ({"LIVEKIT_URL": "ftp://x"}, {}, "must start with ws://"),
        ({"LIVEKIT_URL": "ws://x:99999"}, {}, "invalid port"),
        ({"LIVEKIT_URL": "ws://x"}, {}, "LIVEKIT_API_KEY and LIVEKIT_API_SECRET"),
        (
            {"LIVEKIT_URL": "ws://x", "LIVEKIT_API_KEY": "k"},
            {},
            "(--api-key/--api-secret or LIVEKIT_API_SECRET)",
        ),
        (ENV, {"room": None}, "give --room NAME"),
    ],
)
def test_missing_or_wrong_settings_say_what_to_do(env, options, words):
    with pytest.raises(SetupError) as info:
        resolve(env=env, **options)
    assert words in str(info.value)


def test_options_answering_defaults():
    assert LiveOptions().answering  # the UI can answer
    assert not LiveOptions(no_ui=True).answering
    assert LiveOptions(no_ui=True, answer_rules="r.toml").answering
    assert not LiveOptions(answer=False).answering
    assert SECRET not in repr(LiveOptions(api_secret=SECRET, token=SECRET))


def test_session_checks_rules_and_grants_before_connecting(tmp_path, monkeypatch):
    for key, value in ENV.items():
        monkeypatch.setenv(key, value)
    rules = tmp_path / "rules.toml"
    rules.write_text('[[rule]]\ntool = "*"\nerror = "unknown_tool"\n')
    with pytest.raises(SetupError, match="drop --no-answer"):
        prepare_room(LiveOptions(room="r", answer=False, answer_rules=str(rules), no_record=True))
    token = creds.mint("devkey", SECRET, identity="x", room="r", hidden=True, can_publish_data=False)
    with pytest.raises(SetupError, match="canPublishData is false"):
        prepare_room(LiveOptions(token=token, answer_rules=str(rules), no_record=True))
    session = prepare_room(
        LiveOptions(room="r", answer_rules=str(rules), no_ui=True, record=str(tmp_path / "rec.jsonl"))
    )
    try:
        assert session.source.can_answer and session.engine is not None
        assert session.recording_path == str(tmp_path / "rec.jsonl")
        header = json.loads((tmp_path / "rec.jsonl").read_text().splitlines()[0])
        assert header["room"] == "r" and header["url"] == "ws://127.0.0.1:7880"
    finally:
        session.close()
    observer = prepare_room(LiveOptions(room="r", no_ui=True, no_record=True))
    assert not observer.source.can_answer and observer.engine is None and observer.writer is None


def test_run_reports_setup_mistakes_with_exit_2(tmp_path):
    err = io.StringIO()
    assert run(LiveOptions(no_ui=True), out=io.StringIO(), err=err) == 2
    assert err.getvalue().startswith("inspector live: no LiveKit URL")
    bad = tmp_path / "rules.toml"
    bad.write_text('[[rule]]\ntool = "x"\nresult = 3\n')
    err = io.StringIO()
    assert (
        run(
            LiveOptions(
                no_ui=True, url="ws://h", room="r", api_key="k", api_secret=SECRET, answer_rules=str(bad)
            ),
            out=io.StringIO(),
            err=err,
        )
        == 2
    )
    assert f"{bad} line 3: result must be a map" in err.getvalue()


class FakeConnectError(Exception):
    def __init__(self, message):
        self.message = message


@pytest.mark.parametrize(
    "message, words",
    [
        (
            "engine: signal failure: client error: 401 Unauthorized - invalid token: bad signature",
            "the server refused the access token (invalid token: bad signature): check that LIVEKIT_API_KEY",
        ),
        (
            "engine: signal failure: transport connection error: IO error: Connection refused (os error 111)",
            "nothing is listening at ws://h:1",
        ),
        ("engine: signal failure: failed to parse the url: unsupported scheme: ftp", "is not a LiveKit URL"),
        ("engine: wait_pc_connection timed out", "timed out"),
        ("something new", "could not join the room at ws://h:1: something new"),
    ],
)
def test_connect_failures_are_explained(message, words):
    assert words in explain("ws://h:1", FakeConnectError(message), minted=True)


def test_check_url_and_preflight_to_a_closed_port():
    assert check_url("wss://lk.example.org") == ("lk.example.org", 443)
    assert check_url("ws://localhost:7880/") == ("localhost", 7880)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    reason = asyncio.run(preflight(f"ws://127.0.0.1:{port}"))
    assert reason.startswith(f"nothing is listening at 127.0.0.1:{port} (connection refused)")


def test_printer_prints_calls_as_threaded_and_again_when_overdue():
    async def scenario():
        clock = FakeClock(1000.0)
        store = CallStore(clock=clock)
        out = io.StringIO()
        Printer(store, out, as_json=True).attach(asyncio.get_running_loop())
        store.ingest(make_request("c1", timeout_ms=20, ts=1000.0))
        store.ingest(Message(kind="participant", text="agent joined", ts=1000.0))
        store.ingest(make_request("c2", timeout_ms=20, ts=1000.0))
        store.ingest(make_result("c2", ts=1000.01))
        clock.advance(1.0)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 10
        while out.getvalue().count("\n") < 5 and loop.time() < deadline:  # c1 turns overdue on a timer
            await asyncio.sleep(0.01)
        return [json.loads(line) for line in out.getvalue().splitlines()]

    lines = asyncio.run(scenario())
    assert [(e["event"], e.get("id"), e.get("state")) for e in lines] == [
        ("call", "c1", "pending"),
        ("message", None, None),
        ("call", "c2", "pending"),
        ("call", "c2", "succeeded"),
        ("call", "c1", "overdue"),
    ]


def test_printer_prints_events_in_the_order_they_happen_each_with_its_own_time():
    """The first real-server run: an overdue line stamped with the request's time and printed after later
    lines, a result line stamped with its request's time. Here a late timer (the loop never yields
    before the next packet) must not reorder them: the deadline that passed comes first."""
    clock = FakeClock(1000.0)
    store = CallStore(clock=clock)
    out = io.StringIO()
    Printer(store, out, as_json=True).attach()  # no loop: no timer, only the ordering guard
    store.ingest(make_request("slow", timeout_ms=2000, ts=1000.0))  # overdue at 1002.0
    store.ingest(make_request("srv", timeout_ms=60000, ts=1000.5))
    clock.advance(3.0)
    store.ingest(make_result("srv", ts=1003.0))
    store.ingest(Message(kind="AssistantMessage", text="done", ts=1003.5))
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    seen = [(e.get("id") or e["text"], e.get("change"), e.get("at", e.get("ts"))) for e in lines]
    assert seen == [
        ("slow", "request", 1000.0),
        ("srv", "request", 1000.5),
        ("slow", "overdue", 1002.0),  # when it went overdue, before what came after that
        ("srv", "result", 1003.0),  # when the result came, not when it was asked
        ("done", None, 1003.5),
    ]
    stamps = [at for _, _, at in seen]
    assert stamps == sorted(stamps)


def test_text_printer_stamps_a_result_with_its_own_time():
    from inspector.timefmt import clock_text

    clock = FakeClock(1000.0)
    store = CallStore(clock=clock)
    out = io.StringIO()
    Printer(store, out, color=False).attach()
    store.ingest(make_request("c1", "web_search", ts=1000.0))
    clock.advance(7.0)
    store.ingest(make_result("c1", ts=1007.0))
    first, second = out.getvalue().splitlines()
    assert first.startswith(clock_text(1000.0)) and "pending" in first
    assert second.startswith(clock_text(1007.0)) and "succeeded" in second


def test_text_printer_uses_the_dump_format():
    store = CallStore(clock=FakeClock(1000.0))
    out = io.StringIO()
    Printer(store, out, color=False).attach()
    store.ingest(make_request("c1", "read_local_file", ts=1000.0))
    assert "pending   read_local_file [client] 5.0s left" in out.getvalue()


def test_log_lines_are_redacted():
    record = logging.LogRecord(
        "livekit", logging.WARNING, "x", 1, "connect %s with %s", ("ws://h", SECRET), None
    )
    Redact([SECRET]).filter(record)
    assert record.getMessage() == "connect ws://h with <secret>"


def test_answering_and_setup_modules_stay_light():
    code = (
        "import sys, inspector.answer.compose, inspector.answer.rules, inspector.answer.engine, "
        "inspector.sources.base, inspector.sources.memory, inspector.live.session, inspector.live.runner, "
        "inspector.sources.livekit_room, inspector.demo.script\n"
        "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'livekit', 'aiortc'))))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == ""


def test_supervisor_reports_a_crash_of_the_child_with_the_recording(tmp_path):
    from inspector.live import supervise

    crash = (
        "import os, signal, json\n"
        "json.dump({'recording': '/tmp/r.jsonl'}, open(os.environ['INSPECTOR_LIVE_STATUS'], 'w'))\n"
        "os.kill(os.getpid(), signal.SIGTERM)\n"
    )
    err = io.StringIO()
    assert supervise.supervise([sys.executable, "-c", crash], err=err) == supervise.EXIT_CRASH
    message = err.getvalue()
    assert "ended by a signal (SIGTERM)" in message and "LiveKit SDK" not in message  # not called a crash
    assert "The recording so far is at /tmp/r.jsonl" in message
    err = io.StringIO()
    assert (
        supervise.supervise([sys.executable, "-c", "import os; os.abort()"], err=err) == supervise.EXIT_CRASH
    )
    assert "the LiveKit core stopped (SIGABRT)" in err.getvalue()
    assert supervise.supervise([sys.executable, "-c", "raise SystemExit(2)"], err=io.StringIO()) == 2


def test_preflight_names_the_only_lo_sandbox(monkeypatch):
    from inspector.live import netcheck

    monkeypatch.setattr(netcheck, "non_loopback_interfaces", lambda: [])
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        reason = asyncio.run(preflight(f"ws://127.0.0.1:{port}"))
    assert "only the loopback interface `lo`" in reason


def test_demo_without_the_room_extra_says_how_to_install_it(monkeypatch):
    import argparse

    from inspector.demo import launcher
    from inspector.live import netcheck

    monkeypatch.setattr(netcheck, "only_loopback", lambda: False)
    monkeypatch.setitem(sys.modules, "inspector.room.thread", None)
    err = io.StringIO()
    args = argparse.Namespace(
        answer_rules=None,
        auto=False,
        rounds=None,
        no_ui=True,
        answer=None,
        record=None,
        no_record=True,
        json=False,
        verbose=False,
        speed=1.0,
    )
    assert launcher.run_demo(args, out=io.StringIO(), err=err) == 2
    assert "pip install 'toolcall-inspector[room]'" in err.getvalue()
