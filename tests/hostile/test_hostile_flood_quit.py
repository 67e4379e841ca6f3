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


def test_an_inbox_closed_with_calls_waiting_gives_them_back_to_be_counted():
    import asyncio

    from inspector.sources.sdk_thread import Inbox

    loop = asyncio.new_event_loop()
    try:
        inbox = Inbox(loop)
        made: list[int] = []
        assert inbox.put(made.append, 1) and inbox.put(made.append, 2)
        dropped = inbox.close()
        assert [args for _, args in dropped] == [(1,), (2,)] and made == []
        assert not inbox.put(made.append, 3)  # closed: refused, and the caller is told
    finally:
        loop.close()
