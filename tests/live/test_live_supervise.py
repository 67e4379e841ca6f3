"""The supervisor's words when its child dies name what happened; arguments travel by pipe, not env."""

from __future__ import annotations

import signal

from inspector.live.supervise import ARGS_ENV, child_command, crash_message


def test_the_message_names_the_cause():
    status = {"recording": "/tmp/r.jsonl"}
    assert "crash inside the LiveKit SDK" in crash_message(-signal.SIGSEGV, status)
    assert "crash inside the LiveKit SDK" in crash_message(134, {})
    killed = crash_message(-signal.SIGKILL, status)
    assert "killed (SIGKILL)" in killed and "LiveKit SDK" not in killed and "/tmp/r.jsonl" in killed
    assert "SIGHUP" in crash_message(-signal.SIGHUP, {}) and "LiveKit SDK" not in crash_message(
        -signal.SIGHUP, {}
    )


def test_the_secret_is_not_in_the_childs_command_line_or_environment(monkeypatch):
    monkeypatch.setenv("LIVEKIT_API_SECRET", "s3cret-value-for-the-test")
    argv, env = child_command("live", {"api_secret": "typed-secret", "room": "r"})
    visible = " ".join(argv) + " ".join(f"{k}={v}" for k, v in env.items() if not k.startswith("\0"))
    assert "s3cret-value-for-the-test" not in visible and "typed-secret" not in visible
    assert "LIVEKIT_API_SECRET" not in env and ARGS_ENV not in env  # supervise() adds only the pipe's fd


def test_rejoin_backs_off_and_does_not_retry_what_waiting_cannot_fix():
    from inspector.sources.rejoin import backoff, retryable

    assert [backoff(n) for n in (1, 2, 3, 4, 5, 6, 9)] == [0.5, 1.0, 2.0, 4.0, 8.0, 10.0, 10.0]
    assert retryable("nothing is listening at ws://x (connection refused): is the LiveKit server running?")
    assert not retryable("the server refused the access token (401): check LIVEKIT_API_KEY")
