"""Replay: the clock follows wall time times speed, events come due in order, steps and seeks rebuild."""

from __future__ import annotations

import pytest
from factories import make_request, make_result

from inspector.model import CallStore, FakeClock, Malformed, Message, RawRef, State
from inspector.model.replay import (
    INSTANT,
    ReplayClock,
    Replayer,
    parse_speed,
    speed_label,
    timeline,
)


def recorded():
    """A request at 100 with a 5 s timeout, a message at 102, its result at 104, a late one at 130."""
    return [
        make_request("a", ts=100.0, timeout_ms=5000),
        Message(kind="user", text="hi", ts=102.0),
        make_result("a", ts=104.0),
        make_request("b", ts=110.0, timeout_ms=3000),
        make_result("b", ts=130.0),
    ]


def test_replay_clock_runs_at_speed_only_while_playing():
    wall = FakeClock(0.0)
    clock = ReplayClock(1000.0, wall.now)
    wall.advance(5)
    assert clock.now() == 1000.0
    clock.play()
    wall.advance(2)
    assert clock.now() == 1002.0
    clock.set_speed(10)
    wall.advance(1)
    assert clock.now() == 1012.0
    clock.pause()
    wall.advance(100)
    assert clock.now() == 1012.0


def test_due_delivers_events_as_replay_time_reaches_them():
    wall = FakeClock(0.0)
    rp = Replayer(recorded(), wall.now)
    assert rp.due() == []  # paused
    rp.play()
    assert [type(e).__name__ for e in rp.due()] == ["Request"]
    wall.advance(1.9)
    assert rp.due() == []
    wall.advance(0.1)
    assert [e.text for e in rp.due()] == ["hi"]
    wall.advance(8)
    assert len(rp.due()) == 2  # the result at 104 and request b at 110
    assert rp.position.index == 4 and rp.position.fraction == pytest.approx(0.8)
    assert rp.next_due_in() == pytest.approx(20.0)


def test_countdowns_follow_the_replay_clock_like_they_did_live():
    wall = FakeClock(0.0)
    rp = Replayer(recorded(), wall.now)
    store = CallStore(clock=rp.clock)
    rp.play()
    store.ingest_many(rp.due())
    call = store.items[0]
    assert call.remaining(store.clock.now()) == pytest.approx(5.0)
    wall.advance(3)
    store.ingest_many(rp.due())
    assert call.remaining(store.clock.now()) == pytest.approx(2.0)
    rp.set_speed(2)
    wall.advance(0.5)
    assert call.remaining(store.clock.now()) == pytest.approx(1.0)
    wall.advance(0.5)
    store.ingest_many(rp.due())
    assert call.state(store.clock.now()) is State.SUCCEEDED
    wall.advance(4)  # replay time 113: b's 3 s timeout ran out at 113
    store.ingest_many(rp.due())
    b = store.items[-1]
    assert b.state(store.clock.now()) is State.OVERDUE


def test_instant_delivers_everything_and_stops_at_the_end():
    wall = FakeClock(0.0)
    rp = Replayer(recorded(), wall.now, speed="instant")
    rp.play()
    assert len(rp.due()) == 5
    assert rp.finished and not rp.playing
    assert rp.clock.now() == 130.0
    assert rp.next_due_in() is None


def test_playing_to_the_end_pauses_on_the_last_event_time():
    wall = FakeClock(0.0)
    rp = Replayer(recorded(), wall.now, speed=10)
    rp.play()
    wall.advance(100)
    assert len(rp.due()) == 5
    assert not rp.playing and rp.clock.now() == 130.0
    update = rp.play()  # play again from the start
    assert update.reset and update.events == [] and rp.index == 0 and rp.playing


def test_step_forward_and_back_by_message():
    events = recorded()
    raw = RawRef(source="f", where="line 9")
    # two events decoded from one record form one message
    events[3].raw = raw
    events.insert(4, make_request("c", ts=110.0, timeout_ms=None))
    events[4].raw = raw
    rp = Replayer(events, FakeClock(0.0).now)
    first = rp.step_next()
    assert not first.reset and [e.call_id for e in first.events] == ["a"]
    rp.step_next()
    rp.step_next()
    grouped = rp.step_next()
    assert [e.call_id for e in grouped.events] == ["b", "c"]
    assert rp.clock.now() == 110.0
    back = rp.step_prev()
    assert back.reset and back.events == events[:3] and rp.index == 3
    assert rp.clock.now() == 104.0
    assert not rp.playing


def test_step_pauses_a_playing_replay():
    wall = FakeClock(0.0)
    rp = Replayer(recorded(), wall.now)
    rp.play()
    rp.due()
    rp.step_next()
    assert not rp.playing
    wall.advance(50)
    assert rp.due() == [] and rp.clock.now() == 102.0


def test_seek_forward_is_incremental_and_backward_rebuilds():
    rp = Replayer(recorded(), FakeClock(0.0).now)
    ahead = rp.seek(3)
    assert not ahead.reset and len(ahead.events) == 3
    behind = rp.seek_fraction(0.2)
    assert behind.reset and behind.events == rp.events_until(1)
    at_time = rp.seek_time(111.5)
    assert not at_time.reset and rp.index == 4 and rp.clock.now() == 111.5
    assert rp.position.time_fraction == pytest.approx(11.5 / 30)
    assert rp.seek(99).events == rp.events_until(99)[4:] and rp.finished


def test_timeline_fills_missing_and_backwards_timestamps():
    events = [
        Malformed(where="l1", reason="x"),
        make_request(ts=50.0),
        Message(kind="k"),
        make_result(ts=40.0),
        make_result(ts=60.0),
    ]
    assert timeline(events) == [50.0, 50.0, 50.0, 50.0, 60.0]
    assert timeline([Message(kind="a"), Message(kind="b")], untimed_step=0.5) == [0.0, 0.5]


def test_empty_replay_is_finished_and_harmless():
    rp = Replayer([], FakeClock(0.0).now)
    rp.play()
    assert rp.due() == [] and rp.finished and rp.position.fraction == 1.0
    assert rp.step_prev().events == [] and rp.step_next().events == []


def test_speeds_cycle_and_parse():
    rp = Replayer(recorded(), FakeClock(0.0).now)
    assert [rp.faster() for _ in range(4)] == [2.0, 10.0, INSTANT, INSTANT]
    assert [rp.slower() for _ in range(4)] == [10.0, 2.0, 1.0, 1.0]
    assert parse_speed("10x") == 10.0 and parse_speed("instant") == INSTANT
    assert speed_label(2.0) == "2x" and speed_label(INSTANT) == "instant"
    for bad in ("fast", "0", "-1", True):
        with pytest.raises(ValueError):
            parse_speed(bad)
