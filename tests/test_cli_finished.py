"""A finished recording is judged at its own end, not at today's clock (dump, check, stats)."""

from __future__ import annotations

import json
import subprocess
import sys

from recording_factory import unanswered_recording

from inspector.model import CallStore, FakeClock, Request
from inspector.model.clock import EndOfRecording, RecordingEnd, at_recording_end


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "inspector", *args], capture_output=True, text=True, timeout=60
    )


def test_dump_says_how_far_past_its_deadline_the_recording_ended(tmp_path):
    proc = run("dump", str(unanswered_recording(tmp_path / "r.jsonl")))
    line = next(line for line in proc.stdout.splitlines() if "send_sms" in line)
    assert "overdue" in line
    assert "no result by the end of the recording, 4.2s past its deadline" in line
    assert "d over" not in proc.stdout  # not days against today's clock


def test_check_and_stats_judge_at_the_end_of_the_recording(tmp_path):
    path = str(unanswered_recording(tmp_path / "r.jsonl"))
    check = run("check", path)
    assert check.returncode == 1
    assert "send_sms 'sms' never got a result by the end of the recording (overdue)" in check.stdout
    stats = json.loads(run("stats", "--json", path).stdout)
    assert stats["states"]["overdue"] == 1 and stats["states"]["succeeded"] == 1


def test_the_end_clock_follows_the_last_record_and_never_the_wall():
    store = CallStore(clock=FakeClock(5_000_000_000.0))
    clock = EndOfRecording(lambda: store.last_ts, store.clock)
    assert clock.now() == 5_000_000_000.0 and not at_recording_end(clock.now())  # nothing timed yet
    store.ingest(Request(call_id="a", tool="t", ts=100.0, timeout_ms=1000))
    store.ingest(Request(call_id="b", tool="t", ts=float("nan")))
    store.ingest(Request(call_id="c", tool="t", ts=50.0))
    assert store.last_ts == 100.0
    now = clock.now()
    assert now == 100.0 and isinstance(now, RecordingEnd) and at_recording_end(now)
    assert not at_recording_end(100.0)
