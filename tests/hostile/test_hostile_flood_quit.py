"""Quitting during a flood (issue 25 §3): what the room handed over before the quit is in the recording,
or the inspector says how many packets were not written; none is dropped without a word. (The flood
through a real room is tests/live/test_live_room.py::test_quitting_in_a_flood_writes_what_came_before.)"""

from __future__ import annotations

import io
from types import SimpleNamespace

from inspector.live.runner import EXIT_OK, recording_verdict


def test_packets_that_came_after_leaving_are_counted_and_said():
    source = SimpleNamespace(unwritten=12, state=SimpleNamespace(record_error=""))
    session = SimpleNamespace(
        source=source, recording_path="/tmp/r.jsonl", options=SimpleNamespace(command="live")
    )
    err = io.StringIO()
    assert recording_verdict(session, err, EXIT_OK) == EXIT_OK
    assert "12 packet(s) that came while leaving were not written to /tmp/r.jsonl" in err.getvalue()
