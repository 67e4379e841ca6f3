"""A big recording replayed (issue 25 §3): the replay plays what has been read while the rest is read.

The reader is held part-way through the file (a gate in the protocol's event stream): the first rows must
be on screen, and keys handled, before the rest of the file has been read at all.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ui"))

from recording_factory import START, big_recording  # noqa: E402
from screen_text import wait_for  # noqa: E402
from ui_factories import file_app  # noqa: E402

from inspector.model import FakeClock  # noqa: E402
from inspector.model.events import Event  # noqa: E402
from inspector.model.replay import INSTANT, Replayer  # noqa: E402
from inspector.sources import files  # noqa: E402
from inspector.ui.widgets.call_list import CallList  # noqa: E402

RECORDS = 4_000
HELD_AT = 1_000


def held_readers(gate: threading.Event, counted: list[int]):
    """``files._readers`` whose event streams stop at HELD_AT events until ``gate`` is set."""
    real = files._readers

    def readers(opened, details=True):
        def held(events: Iterator[Event]) -> Iterator[Event]:
            for count, event in enumerate(events, 1):
                if count == HELD_AT:
                    assert gate.wait(30), "the test never let the reader go on"
                counted[0] = count
                yield event

        return [held(events) for events in real(opened, details)]

    return readers


async def test_a_replay_shows_rows_and_takes_keys_before_the_file_is_read(tmp_path, monkeypatch):
    path = big_recording(tmp_path / "big.jsonl", RECORDS)
    gate, counted = threading.Event(), [0]
    monkeypatch.setattr(files, "_readers", held_readers(gate, counted))
    app = file_app([path], clock=FakeClock(START), replay=True, speed=INSTANT)
    try:
        async with app.run_test(size=(120, 30)) as pilot:
            call_list = app.screen.query_one(CallList)
            assert await wait_for(pilot, lambda: len(call_list.view) > 0, 60)  # a guard: 4 workers on 2 cores
            replayer = app.screen.replay.replayer
            assert counted[0] < HELD_AT and not replayer.complete  # shown while the reader waits mid-file
            assert "+" in app.screen.replay.describe()  # and the position says more is coming
            cursor = call_list.cursor
            await pilot.press("j")
            assert await wait_for(pilot, lambda: call_list.cursor != cursor)
            gate.set()
            assert await wait_for(pilot, lambda: replayer.finished, 30)
            assert replayer.total == RECORDS and app.screen.replay.store.call_count == RECORDS // 2
    finally:
        gate.set()


def _events(count: int, first: float = 100.0) -> list[Event]:
    from inspector.model.events import Message

    return [Message(kind="m", text=str(i), ts=first + i) for i in range(count)]


def test_a_streamed_replay_waits_for_more_instead_of_ending():
    clock = FakeClock(0.0)
    replayer = Replayer(_events(3), clock.now, speed=INSTANT, complete=False)
    replayer.play()
    assert len(replayer.due()) == 3
    assert not replayer.finished and replayer.playing  # it has delivered all it has: more is coming
    replayer.extend(_events(2, first=103.0))
    assert replayer.end == 104.0 and len(replayer.due()) == 2
    replayer.finish()
    assert replayer.due() == [] and replayer.finished and not replayer.playing


def test_one_delivery_is_bounded_so_keys_get_their_turn():
    clock = FakeClock(0.0)
    replayer = Replayer(_events(12_000), clock.now, speed=INSTANT)
    replayer.play()
    sizes = []
    while not replayer.finished:
        sizes.append(len(replayer.due(limit=5_000)))
    assert sizes == [5_000, 5_000, 2_000]


def test_untimed_events_read_before_the_first_time_take_it():
    from inspector.model.events import Message

    clock = FakeClock(0.0)
    replayer = Replayer([Message(kind="m", text="a")], clock.now, complete=False)
    replayer.extend(_events(2, first=50.0))
    assert replayer.times == [50.0, 50.0, 51.0] and replayer.start == 50.0


def test_a_step_back_at_the_end_of_a_big_replay_rebuilds_the_store_a_slice_at_a_time():
    from inspector.sources.replaying import PUMP_LIMIT, ReplayControl

    control = ReplayControl(_events(12_000), {}, FakeClock(0.0).now, speed=INSTANT)
    assert control.apply(control.replayer.seek(12_000)) is False
    assert len(control.store.items) == PUMP_LIMIT and control.backlog == 12_000 - PUMP_LIMIT
    while control.backlog:
        assert control.pump() <= PUMP_LIMIT
    assert len(control.store.items) == 12_000
    assert control.step(-1) is True  # a rebuilt store, filled by the next pumps in order
    assert len(control.store.items) == PUMP_LIMIT and control.backlog == 11_999 - PUMP_LIMIT
    while control.backlog:
        control.pump()
    texts = [item.text for item in control.store.items]
    assert texts == [str(i) for i in range(11_999)]


def test_a_time_that_is_no_time_never_stalls_a_replay(tmp_path):
    """A recording's record whose time is no time (text, negative, NaN, 10^30, year 9999, 1970, the wrong
    type), anywhere: played at 1x, every event comes within the recording's own span and a minute, never
    after a wait of thousands of years (a record stamped 9999 held every later one back)."""
    import hostile_gen as gen

    from inspector.protocols import recording

    base = gen.BASES["recording"][1]()
    span = 6.0  # the good recording's six records, a second apart
    for index in range(len(base)):
        for value in [*gen.TIME_VALUES, 253402300000, 1e11, 4102444800]:
            path = gen.write_mutated(tmp_path, "recording", base, index, ("t",), value, "times")
            events = list(recording.FORMAT.read(str(path)))
            clock = FakeClock(1000.0)
            replayer = Replayer(events, clock.now)
            replayer.play()
            got = 0
            while got < len(events) and clock.now() < 1000.0 + span + 60:
                got += len(replayer.due())
                clock.advance(0.5)
            assert got == len(events), (index, value, got, len(events), replayer.times)
